#!/usr/bin/env python3
"""Writes the extension scenarios (*.json next to this file) from the
sources in src/. Each scenario carries its extension's source in "files",
so the conformance harness can run it in a fresh project folder; run this
after editing a source, then re-record the expected transcripts:

    python3 build.py
    python3 ../../../../shared/conformance/suite.py --pi "$REF" \
        --scenarios . --update-expected ext_
"""
import json
import pathlib

HERE = pathlib.Path(__file__).parent


def src(name: str) -> str:
    return (HERE / "src" / name).read_text()


def settle(id_: str) -> dict:
    return {"all": [{"response": id_}, {"event": "agent_settled"}]}


def prompt(name: str, id_: str, message: str, wait=None, timeout=None) -> dict:
    step = {"name": name, "send": {"id": id_, "type": "prompt", "message": message},
            "wait": wait if wait is not None else settle(id_)}
    if timeout:
        step["timeout_s"] = timeout
    return step


def mut(name: str, id_: str, ops: dict) -> dict:
    return prompt(name, id_, "/rs-mut " + json.dumps(ops), {"response": id_, "then_quiet_ms": 500})


COMMANDS = {"name": "commands", "send": {"id": "c1", "type": "get_commands"}, "timeout_s": 60}

SCENARIOS = {
    "ext_permission_gate": {
        "description": "A tool_call gate holds 'rm -rf' and asks through ctx.ui.select: 'Yes' lets the command run, 'No' blocks it with the extension's reason.",
        "args": ["-e", "exts/permission-gate.ts"],
        "files": {"exts/permission-gate.ts": src("permission-gate.ts"), "build/out.txt": "artifact\n"},
        "mock": {"turns": [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "rm -rf build && echo removed"}}]},
            {"text": "The build folder is gone."},
            {"tool_calls": [{"name": "bash", "arguments": {"command": "rm -rf build"}}]},
            {"text": "It was blocked."},
        ], "fallback_text": "ok"},
        "steps": [
            prompt("prompt allowed", "p1", "Delete the build folder.",
                   {"all": [{"response": "p1"}, {"event": "extension_ui_request", "match": {"method": "select"}}]}, 60),
            {"name": "answer yes", "ui_respond": {"method": "select", "value": "Yes"}, "wait": {"event": "agent_settled"}},
            prompt("prompt blocked", "p2", "Do it again.",
                   {"all": [{"response": "p2"}, {"event": "extension_ui_request", "match": {"method": "select"}}]}),
            {"name": "answer no", "ui_respond": {"method": "select", "value": "No"}, "wait": {"event": "agent_settled"}},
        ],
    },
    "ext_typebox_tool": {
        "description": "A tool declared with typebox (Type.Object, Optional, Array, StringEnum) reaches the model with its schema; the model calls it and gets its text result.",
        "args": ["-e", "exts/typebox-tool.ts"],
        "files": {"exts/typebox-tool.ts": src("typebox-tool.ts")},
        "mock": {"turns": [
            {"tool_calls": [{"name": "add_numbers", "arguments": {"a": 2, "b": 3, "format": "verbose", "tags": ["x"]}}]},
            {"text": "The sum is 5."},
        ], "fallback_text": "ok"},
        "steps": [COMMANDS, prompt("prompt", "p1", "Add 2 and 3.")],
    },
    "ext_input_transform": {
        "description": "An input handler rewrites '?quick …' before the model sees it and answers 'ping' itself (notify, no LLM request); other text passes unchanged.",
        "args": ["-e", "exts/input-transform.ts"],
        "files": {"exts/input-transform.ts": src("input-transform.ts")},
        "mock": {"turns": [{"text": "Goroutines are light threads."}, {"text": "Plain answer."}], "fallback_text": "ok"},
        "steps": [
            prompt("transformed", "p1", "?quick what is a goroutine", timeout=60),
            prompt("handled", "p2", "ping", {"response": "p2", "then_quiet_ms": 400}),
            prompt("unchanged", "p3", "hello there"),
        ],
    },
    "ext_command_select": {
        "description": "An extension command asks ctx.ui.select, then pi.sendUserMessage sends a prompt built from the choice; a cancelled dialog only notifies.",
        "args": ["-e", "exts/command-select.ts"],
        "files": {"exts/command-select.ts": src("command-select.ts")},
        "mock": {"turns": [{"text": "Channels pass values between goroutines."}], "fallback_text": "ok"},
        "steps": [
            COMMANDS,
            prompt("command", "p1", "/topic briefly", {"event": "extension_ui_request", "match": {"method": "select"}}),
            {"name": "choose", "ui_respond": {"method": "select", "value": "channels"},
             "wait": {"all": [{"response": "p1"}, {"event": "agent_settled"}]}},
            prompt("command again", "p2", "/topic", {"event": "extension_ui_request", "match": {"method": "select"}}),
            {"name": "cancel", "ui_respond": {"method": "select", "cancelled": True},
             "wait": {"response": "p2", "then_quiet_ms": 400}},
        ],
    },
    "ext_lifecycle_rpc": {
        "description": "Session replacement (ctx.newSession, ctx.fork, ctx.switchSession, RPC new_session and clone) and ctx.reload load the extension afresh: each generation registers its own command and tool, sees session_start with the replacement's reason and then resources_discover, keeps the CLI flag value, and the command's withSession runs last.",
        "args": ["-e", "exts/lifecycle.ts", "--lc-flag", "cli"],
        "files": {"exts/lifecycle.ts": src("lifecycle.ts")},
        "mock": {"turns": [{"text": "One."}, {"text": "Two."}, {"text": "Three."}, {"text": "Four."}, {"text": "Five."}], "fallback_text": "ok"},
        "steps": [
            COMMANDS,
            {"name": "state", "send": {"id": "s1", "type": "get_state"}, "capture": {"FIRST": "data.sessionFile"}},
            prompt("prompt", "p1", "hello"),
            prompt("new", "n1", "/lc-new", {"response": "n1", "then_quiet_ms": 500}),
            {"name": "commands after new", "send": {"id": "c2", "type": "get_commands"}},
            prompt("prompt after new", "p2", "again"),
            prompt("fork", "f1", "/lc-fork", {"response": "f1", "then_quiet_ms": 500}),
            prompt("reload", "r1", "/lc-reload", {"response": "r1", "then_quiet_ms": 500}),
            {"name": "commands after reload", "send": {"id": "c3", "type": "get_commands"}},
            prompt("prompt after reload", "p3", "third"),
            prompt("switch", "w1", "/lc-switch ${FIRST}", {"response": "w1", "then_quiet_ms": 500}),
            {"name": "rpc new_session", "send": {"id": "n2", "type": "new_session"}, "wait": {"response": "n2", "then_quiet_ms": 500}},
            prompt("prompt after rpc new", "p4", "fourth"),
            {"name": "rpc clone", "send": {"id": "k1", "type": "clone"}, "wait": {"response": "k1", "then_quiet_ms": 500}},
            {"name": "commands after clone", "send": {"id": "c4", "type": "get_commands"}},
            prompt("prompt after clone", "p5", "fifth"),
        ],
    },
    "ext_generations_rpc": {
        "description": "What a replacement and a reload keep: module state survives ctx.newSession and RPC new_session (the factory runs again) and starts over on ctx.reload, globalThis and an older generation's interval timer always survive, a captured ctx and pi throw the stale error after the replacement (the withSession ctx works), and a reload and a new session read AGENTS.md and the project's skills again.",
        "args": ["-e", "exts/generations.ts", "--gen-flag", "cli", "--approve"],
        "files": {"exts/generations.ts": src("generations.ts"), "AGENTS.md": "Project rule: answer briefly.\n"},
        "mock": {"turns": [{"text": "One."}, {"text": "Two."}, {"text": "Three."}, {"text": "Four."}], "fallback_text": "ok"},
        "steps": [
            COMMANDS,
            prompt("prompt", "p1", "hello"),
            prompt("new", "n1", "/gen-new", {"response": "n1", "then_quiet_ms": 500}),
            prompt("state after new", "s1", "/gen-state", {"response": "s1", "then_quiet_ms": 500}),
            prompt("reload", "r1", "/gen-reload", {"response": "r1", "then_quiet_ms": 500}),
            prompt("state after reload", "s2", "/gen-state", {"response": "s2", "then_quiet_ms": 500}),
            {"name": "commands after reload", "send": {"id": "c2", "type": "get_commands"}},
            prompt("prompt after reload", "p2", "again"),
            prompt("touch", "t1", "/gen-touch", {"response": "t1", "then_quiet_ms": 300}),
            {"name": "rpc new_session", "send": {"id": "n2", "type": "new_session"}, "wait": {"response": "n2", "then_quiet_ms": 500}},
            prompt("state after rpc new", "s3", "/gen-state", {"response": "s3", "then_quiet_ms": 500}),
            prompt("prompt after rpc new", "p3", "third"),
        ],
    },
    "ext_lifecycle_json": {
        "description": "JSON mode replaces sessions too: /lc-new and /lc-reload load the extension afresh, and the next prompts' requests carry the new generation's tool (no second session header).",
        "mode": "json",
        "args": ["-e", "exts/lifecycle.ts"],
        "files": {"exts/lifecycle.ts": src("lifecycle.ts")},
        "mock": {"turns": [{"text": "One."}, {"text": "Two."}, {"text": "Three."}], "fallback_text": "ok"},
        "prompts": ["hello", "/lc-new", "again", "/lc-reload", "last"],
    },
    "ext_reload_scope": {
        "description": "ctx.reload and ctx.newSession discover the extensions again: a file added to .pi/extensions or the agent's extensions folder loads into the new generation, a removed one is gone, and so are the entries of the project's and the global settings.json \"extensions\" list; project trust is kept; one that fails to load is left out without an extension_error.",
        "args": ["-e", "exts/reload-scope.ts", "--approve"],
        "files": {"exts/reload-scope.ts": src("reload-scope.ts"), "exts/reload-later.ts": src("reload-later.ts"),
                  # Copied to .ts files by the scenario: one that does not parse, one whose factory throws.
                  "exts/broken.txt": "export default function (pi) {\n  syntax error here (((\n}\n",
                  "exts/throws.txt": "export default function (pi) {\n  throw new Error(\"factory boom\");\n}\n"},
        "mock": {"turns": [{"text": "One."}, {"text": "Two."}], "fallback_text": "ok"},
        "steps": [
            COMMANDS,
            mut("add to .pi/extensions", "m1", {"copy": [["exts/reload-later.ts", ".pi/extensions/reload-later.ts"]], "then": "reload"}),
            {"name": "commands after add", "send": {"id": "c2", "type": "get_commands"}},
            prompt("prompt with the added tool", "p1", "hello"),
            mut("remove from .pi/extensions", "m2", {"rm": [".pi/extensions/reload-later.ts"], "then": "reload"}),
            {"name": "commands after remove", "send": {"id": "c3", "type": "get_commands"}},
            mut("project settings", "m3", {"project": {"extensions": ["abs:exts/reload-later.ts"]}, "then": "reload"}),
            {"name": "commands after project settings", "send": {"id": "c4", "type": "get_commands"}},
            mut("global settings", "m4", {"project": {"extensions": None}, "global": {"extensions": ["abs:exts/reload-later.ts"]}, "then": "reload"}),
            {"name": "commands after global settings", "send": {"id": "c5", "type": "get_commands"}},
            mut("agent folder, new session", "m5", {"global": {"extensions": None}, "copy": [["exts/reload-later.ts", "agent:extensions/reload-later.ts"]], "then": "new"}),
            {"name": "commands after new session", "send": {"id": "c6", "type": "get_commands"}},
            mut("removed, new session", "m6", {"rm": ["agent:extensions/reload-later.ts"], "then": "new"}),
            {"name": "commands at the end", "send": {"id": "c7", "type": "get_commands"}},
            prompt("prompt at the end", "p2", "bye"),
            mut("broken ones", "m7", {"copy": [["exts/broken.txt", ".pi/extensions/broken.ts"], ["exts/throws.txt", ".pi/extensions/throws.ts"]], "then": "reload"}),
            {"name": "commands after broken ones", "send": {"id": "c8", "type": "get_commands"}},
        ],
    },
    "ext_smgr_generation": {
        "description": "A ctx.sessionManager kept across ctx.newSession stays with the session it was handed out for: it reads the old session's id, file and entries, and an entry appended through it lands in the old session file, not the new one.",
        "args": ["-e", "exts/smgr-generation.ts"],
        "files": {"exts/smgr-generation.ts": src("smgr-generation.ts")},
        "mock": {"turns": [{"text": "One."}], "fallback_text": "ok"},
        "steps": [
            prompt("prompt", "p1", "hello"),
            prompt("new session", "n1", "/sm-new", {"response": "n1", "then_quiet_ms": 500}),
            prompt("where", "w1", "/sm-where", {"response": "w1", "then_quiet_ms": 300}),
        ],
    },
    "ext_ordering": {
        "description": "The order in which one handler's effects reach the client: an idle pi.sendMessage's message events before a later ctx.ui.notify; during a run, a later steer's queue_update before the error of a pi.sendUserMessage without deliverAs; a command's triggerTurn run has before_agent_start before the prompt's response; an agent_settled handler's triggerTurn run and prompt run one after the other; labelsById keeps the order labels were first set in.",
        "args": ["-e", "exts/ordering.ts"],
        "files": {"exts/ordering.ts": src("ordering.ts")},
        "mock": {"turns": [{"text": "One."}, {"tool_calls": [{"name": "ord_tool", "arguments": {}}]}, {"text": "Two."}, {"text": "Three."},
                           {"text": "Four."}, {"text": "Five."}, {"text": "Six."}, {"text": "Seven."}], "fallback_text": "ok"},
        "steps": [
            prompt("idle send then notify", "a1", "/ord-a", {"response": "a1", "then_quiet_ms": 400}, 60),
            prompt("prompt", "p1", "hello"),
            prompt("tool sends during the run", "p2", "use the tool"),
            prompt("command triggerTurn", "c1", "/ord-c", {"all": [{"response": "c1"}, {"event": "agent_settled"}], "then_quiet_ms": 400}),
            prompt("arm agent_settled", "d1", "/ord-d", {"response": "d1", "then_quiet_ms": 200}),
            prompt("settled run and prompt", "p3", "settle", {"all": [{"response": "p3"}, {"event": "agent_settled", "count": 3}], "then_quiet_ms": 800}),
            prompt("labels", "e1", "/ord-e", {"response": "e1", "then_quiet_ms": 300}),
        ],
    },
    "ext_virtual_model": {
        "description": "pi.registerVirtualModel: router/auto is listed and selectable; each request is routed to the mock (reason user, then continuation after a tool result), the router's state is stored on the branch as pi.virtual-model-state entries, assistant messages name the physical model; registering over a physical model or without an id throws.",
        "args": ["-e", "exts/virtual-model.ts"],
        "files": {"exts/virtual-model.ts": src("virtual-model.ts")},
        "mock": {"turns": [
            {"tool_calls": [{"name": "bash", "arguments": {"command": "echo routed"}}]},
            {"text": "Done."},
            {"text": "Again."},
        ], "fallback_text": "ok"},
        "steps": [
            {"name": "models", "send": {"id": "m1", "type": "get_available_models"}, "timeout_s": 60},
            {"name": "select", "send": {"id": "m2", "type": "set_model", "provider": "router", "modelId": "auto"}},
            {"name": "level", "send": {"id": "m3", "type": "set_thinking_level", "level": "high"}},
            {"name": "state", "send": {"id": "m4", "type": "get_state"}},
            prompt("errors", "e1", "/vm-errors", {"response": "e1", "then_quiet_ms": 400}),
            prompt("routed with a tool call", "p1", "hello"),
            prompt("routed again", "p2", "again"),
            {"name": "messages", "send": {"id": "m5", "type": "get_messages"}},
        ],
    },
}

# A project-local extension loads only in a trusted project. The reference
# looks in .pi/extensions; we also look in .pi/agent/extensions, where the
# expected transcript is the .pi/extensions one with the path moved.
for where, rel in (("pi", ".pi/extensions"), ("pi_agent", ".pi/agent/extensions")):
    for trust, args in (("untrusted", []), ("approved", ["--approve"])):
        SCENARIOS[f"ext_project_{where}_{trust}"] = {
            "description": f"A project-local extension in {rel} " + (
                "does not load without project trust (no command, no tool)." if trust == "untrusted"
                else "loads with --approve: its command is listed and its tool reaches the model.")
            + (" The reference does not look in .pi/agent/extensions; the expected transcript is the .pi/extensions one." if where == "pi_agent" else ""),
            "args": args,
            "files": {f"{rel}/project-local.ts": src("project-local.ts")},
            "mock": {"turns": [{"text": "Hello."}], "fallback_text": "ok"},
            "steps": [COMMANDS, prompt("prompt", "p1", "hi")],
        }

for name, sc in SCENARIOS.items():
    (HERE / f"{name}.json").write_text(json.dumps(sc, indent=1, ensure_ascii=False) + "\n")
    print("wrote", name)
