#!/usr/bin/env python3
"""Runs pi's headless modes (print `-p` and `--mode json`) with the small
extensions in src/ and compares what a run leaves behind: stdout, stderr,
the exit code, the session files and the requests the mock LLM received.

The conformance harness (rpcdrive.py) drives RPC and JSON mode through
steps; print mode, stdin piping, stderr and the session files are outside
what it compares, so this driver runs each case as one command line and
records all of it. Run-specific values (paths, ids, timestamps, the port)
and pi's own prose (system prompt, built-in tool descriptions) are
normalised with the harness's normalize.py, so the recordings compare
across binaries.

    drive.py --pi "$REF" --record [NAME...]     # writes expected/NAME.json
    drive.py --pi ./pi [NAME...]                # compares with expected/
    drive.py --pi ./pi --ref "$REF" [NAME...]   # compares the two live

--harness names the conformance folder (default: ../../../../shared/
conformance from here, or $PI_CONFORMANCE_DIR). Exit status 0 only when
every case matches.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

HERE = pathlib.Path(__file__).resolve().parent

CMDS = ["-e", "exts/cmds.ts"]
UI = ["-e", "exts/ui.ts"]


def case(args, turns=None, stdin=None, exts=("cmds.ts",), description="", settings=None, gap=None,
         no_models=False):
    """gap names a known difference of ours: the case still runs, and a
    difference is reported as GAP (not a failure) unless --strict.
    no_models runs pi without the mock provider's models.json and without
    --provider/--model, so that no model is available."""
    return {"args": args, "turns": turns or [], "stdin": stdin, "exts": list(exts),
            "description": description, "settings": settings, "gap": gap, "no_models": no_models}


CASES = {
    "ui_print": case(["-p", *UI, "/ui some args"], exts=["ui.ts"],
                     description="ctx.ui in print mode: hasUI false, dialogs resolve to their defaults, notify and the rest print nothing"),
    "ui_json": case(["--mode", "json", *UI, "/ui x"], exts=["ui.ts"],
                    description="ctx.ui in JSON mode: nothing of it reaches the event stream"),
    "ui_print_prompt": case(["-p", *UI, "hello"], [{"text": "Hi there."}], exts=["ui.ts"],
                            description="session_start's notify in print mode with a plain prompt"),
    "cmd_print": case(["-p", *CMDS, "/hello big world"],
                      description="a command given as the prompt runs without an LLM request; its console.log reaches stdout"),
    "cmd_unknown_print": case(["-p", *CMDS, "/nosuch thing"], [{"text": "Unknown to me."}],
                              description="an unknown /command goes to the model as text"),
    "ask_print": case(["-p", *CMDS, "/ask channels"], [{"text": "Channels carry values."}],
                      description="a command calling pi.sendUserMessage without awaiting it: the reference's print mode is done when the command is, "
                                  "and its exit drops the message after the input handlers saw it (no request, no session file)"),
    "note_print": case(["-p", *CMDS, "/note remember the milk"], [{"text": "Noted."}],
                       description="a command calling pi.sendMessage with triggerTurn: the turn is aborted at exit before its request "
                                   "('This operation was aborted', errorMessage before timestamp), nothing is printed"),
    "flag_print": case(["-p", *CMDS, "--tone", "formal", "--loud", "?q what is go"], [{"text": "Go is a language."}],
                       description="registered string and boolean flags read by an input transform"),
    "flag_default_print": case(["-p", *CMDS, "?q defaults"], [{"text": "Defaults."}],
                               description="flag defaults when not given"),
    "input_handled_print": case(["-p", *CMDS, "ping"],
                                description="an input handler that handles the prompt itself: no request, nothing printed"),
    "toolblock_print": case(["-p", *CMDS, "clean up"],
                            [{"tool_calls": [{"name": "bash", "arguments": {"command": "rm -rf build"}}]},
                             {"text": "It was blocked."}],
                            description="a tool_call hook blocks bash with a reason; the model sees it"),
    "tool_json": case(["--mode", "json", *CMDS, "shout hello"],
                      [{"tool_calls": [{"name": "shout", "arguments": {"text": "hello"}}]},
                       {"text": "HELLO it is."}],
                      description="JSON event stream with an extension tool call"),
    "tool_print": case(["-p", *CMDS, "shout hello"],
                       [{"tool_calls": [{"name": "shout", "arguments": {"text": "hello"}}]},
                        {"text": "HELLO it is."}],
                       description="print mode with an extension tool call"),
    "shutdown_print": case(["-p", *CMDS, "/bye", "after bye"], [{"text": "Should not run."}],
                           description="ctx.shutdown() from a command: later prompts and the exit code"),
    "shutdown_json": case(["--mode", "json", *CMDS, "/bye", "after bye"], [{"text": "Should not run."}],
                          description="ctx.shutdown() from a command in JSON mode"),
    "newsession_print": case(["-p", *CMDS, "first", "/fresh second"], [{"text": "One."}, {"text": "Two."}],
                             description="ctx.newSession from a command with withSession sending a message: session files and output"),
    "newsession_json": case(["--mode", "json", *CMDS, "first", "/fresh", "third"], [{"text": "One."}, {"text": "Three."}],
                            description="ctx.newSession from a command in JSON mode"),
    "stdin_print": case(["-p", *CMDS], [{"text": "Piped answer."}], stdin="piped question\n",
                        description="stdin piped into print mode is the prompt"),
    "stdin_and_arg_print": case(["-p", *CMDS, "and the argument"], [{"text": "Joined."}], stdin="piped part\n",
                                description="stdin and the first message are joined"),
    "stdin_command_print": case(["-p", *CMDS], stdin="/hello from stdin\n",
                                description="a command piped on stdin"),
    "multi_print": case(["-p", *CMDS, "one", "/hello mid", "two"], [{"text": "First."}, {"text": "Second."}],
                        description="several messages with a command among them: only the last answer is printed"),
    "throw_load_print": case(["-p", "-e", "exts/throw-load.ts", "hi"], [{"text": "Still here."}], exts=["throw-load.ts"],
                             description="an extension whose factory throws"),
    "throw_load_json": case(["--mode", "json", "-e", "exts/throw-load.ts", "hi"], [{"text": "Still here."}], exts=["throw-load.ts"],
                            description="an extension whose factory throws, JSON mode"),
    "throw_handler_print": case(["-p", "-e", "exts/throw-handler.ts", "/boom", "explode input", "run it"],
                                [{"text": "Input went through."},
                                 {"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]},
                                 {"text": "Done."}],
                                exts=["throw-handler.ts"],
                                description="handlers that throw in session_start, a command, input and tool_call"),
    "throw_handler_json": case(["--mode", "json", "-e", "exts/throw-handler.ts", "/boom", "run it"],
                               [{"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]}, {"text": "Done."}],
                               exts=["throw-handler.ts"],
                               description="handlers that throw, JSON mode"),
    "missing_ext_print": case(["-p", "-e", "exts/nope.ts", "hi"], [{"text": "Hi."}], exts=[],
                              description="an -e path that does not exist"),
    "nomodels_print": case(["-p", *CMDS, "hello"], no_models=True,
                           description="no model available: a warning, the session starts, the input handlers see the prompt, "
                                       "which then fails for want of a key (exit 1)"),
    "nomodels_cmd_print": case(["-p", *CMDS, "/hello there"], no_models=True,
                               description="no model available: an extension command still runs (exit 0)"),
    "nomodels_json": case(["--mode", "json", *CMDS, "hello"], no_models=True,
                          description="no model available, JSON mode"),
    "unknown_flag_print": case(["-p", *CMDS, "--no-such-flag", "hi"], [{"text": "Hi."}],
                               description="an unknown flag with an extension loaded"),
}

STACK_RE = re.compile(r"^\s+at .*$\n?", re.M)
# The login help names the docs of the installed package by absolute path
# (ours by the folder it unpacked its guides into, named by a content hash).
DOCS_RE = re.compile(r"\S*docs/(?:[0-9a-f]+/)?(providers|models)\.md")


def harness_dir(arg: str | None) -> pathlib.Path:
    for c in (arg, os.environ.get("PI_CONFORMANCE_DIR"), HERE.parents[3] / "shared" / "conformance",
              HERE.parents[4] / "shared" / "conformance" if len(HERE.parents) > 4 else None):
        if c and (pathlib.Path(c) / "mockllm.py").exists():
            return pathlib.Path(c).resolve()
    raise SystemExit("conformance harness not found (use --harness)")


def resolve_pi(pi: str) -> list[str]:
    out = []
    for a in shlex.split(pi):
        if not os.path.isabs(a) and not a.startswith("-") and os.path.exists(a):
            a = os.path.abspath(a)
        out.append(a)
    return out


def session_files(agent_dir: str) -> list[str]:
    found = []
    for dirpath, _, names in os.walk(os.path.join(agent_dir, "sessions")):
        for n in names:
            if n.endswith(".jsonl"):
                found.append(os.path.join(dirpath, n))
    # File names start with the creation time, so this is creation order.
    return sorted(found, key=lambda p: os.path.basename(p))


def parse_lines(text: str) -> list:
    out = []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            out.append({"<text>": line})
    return out


def run_case(name: str, c: dict, pi_argv: list[str], mods, scale: float) -> dict:
    mockllm, pihome, normalize = mods
    root = os.path.realpath(tempfile.mkdtemp(prefix="pi-headless-"))
    project = os.path.join(root, "project")
    os.makedirs(os.path.join(project, "exts"))
    for e in c["exts"]:
        shutil.copy(HERE / "src" / e, os.path.join(project, "exts", e))
    requests: list[dict] = []
    lock = threading.Lock()

    def on_request(rec: dict) -> None:
        if rec.get("kind") != "client_disconnected":
            with lock:
                requests.append(rec)

    server = mockllm.start_server({"turns": c["turns"], "fallback_text": "Mock script exhausted."},
                                  os.path.join(root, "mock.jsonl"), on_request=on_request)
    h = pihome.build_home(root, server.port, "openai-completions", False, c.get("settings"))
    env = pihome.child_env(h)
    argv = list(pi_argv) + list(c["args"])
    if c.get("no_models"):
        os.remove(os.path.join(h["agent_dir"], "models.json"))
    else:
        argv = list(pi_argv) + pihome.pi_model_args() + list(c["args"])
    try:
        p = subprocess.Popen(argv, cwd=project, env=env, start_new_session=True,
                             stdin=subprocess.PIPE if c["stdin"] is not None else subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = p.communicate(input=(c["stdin"] or "").encode() if c["stdin"] is not None else None,
                                     timeout=60 * scale)
            code = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            code = "timeout"
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    finally:
        mockllm.stop_server(server)
    sessions = []
    for f in session_files(h["agent_dir"]):
        with open(f, encoding="utf-8") as fh:
            sessions.append(parse_lines(fh.read()))
    meta = {"paths": {"root": root, "home": h["home"], "project": project, "tmp": h["tmp"],
                      "pi_pkg": None}, "port": server.port}
    n = normalize.Normalizer(meta)
    stdout_text = out.decode("utf-8", "replace")
    stderr_text = DOCS_RE.sub(r"<DOCS>/\1.md", STACK_RE.sub("", err.decode("utf-8", "replace")))
    is_json = "--mode" in c["args"] and "json" in c["args"]
    rec = {
        "case": name,
        "args": c["args"],
        "exit": code,
        "stdout": n.value(parse_lines(stdout_text)) if is_json else n.string(stdout_text),
        "stderr": n.string(stderr_text),
        "sessions": n.value(sessions),
        "llm": [],
    }
    with lock:
        reqs = sorted(requests, key=lambda r: r.get("seq", 0))
    for r in reqs:
        rec["llm"].append(normalize.request_body_skeleton(n.value({"path": r.get("path"), "body": r.get("body")})["body"]))
    if is_json:
        rec["stdout"] = [normalize._walk_system_messages(x) for x in rec["stdout"]]
    rec["sessions"] = [[normalize._walk_system_messages(x) for x in s] for s in rec["sessions"]]
    shutil.rmtree(root, ignore_errors=True)
    return rec


def render(rec: dict) -> list[str]:
    """One section per line group so a diff names what differs."""
    lines = []
    for k in ("exit", "stdout", "stderr", "sessions", "llm"):
        v = rec.get(k)
        if k in ("stdout", "stderr") and isinstance(v, str):
            lines.append(f"== {k}")
            lines += v.splitlines() or ["<empty>"]
        elif isinstance(v, list) and k != "exit":
            lines.append(f"== {k} ({len(v)})")
            for item in v:
                if k == "sessions":
                    lines.append("-- session")
                    lines += [json.dumps(e, ensure_ascii=False) for e in item]
                else:
                    lines.append(json.dumps(item, ensure_ascii=False))
        else:
            lines.append(f"== {k}: {json.dumps(v)}")
    return lines


def dump(rec: dict) -> str:
    """The recording as JSON with one line per stdout record, session
    entry and request, so a diff of two recordings stays readable."""
    def line(v):
        return json.dumps(v, ensure_ascii=False)
    parts = []
    for k, v in rec.items():
        if isinstance(v, list) and k != "args":
            items = []
            for x in v:
                if k == "sessions":
                    items.append("  [\n" + ",\n".join("   " + line(e) for e in x) + "\n  ]")
                else:
                    items.append("  " + line(x))
            parts.append(f" {line(k)}: [\n" + ",\n".join(items) + "\n ]" if items else f" {line(k)}: []")
        else:
            parts.append(f" {line(k)}: {line(v)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pi", required=True, help="pi command line (shell-quoted)")
    ap.add_argument("--ref", help="compare with this live reference instead of expected/")
    ap.add_argument("--record", action="store_true", help="write expected/NAME.json from --pi")
    ap.add_argument("--harness")
    ap.add_argument("--timeout-scale", type=float, default=1.0)
    ap.add_argument("--list", action="store_true", help="print the cases with their descriptions")
    ap.add_argument("--names", action="store_true", help="print the case names only")
    ap.add_argument("--exact", action="store_true", help="NAME must equal a case name (no substring match)")
    ap.add_argument("--strict", action="store_true", help="a known gap's difference fails too")
    ap.add_argument("cases", nargs="*", help="case names (or parts of them)")
    a = ap.parse_args(argv)
    if a.list or a.names:
        for k, v in CASES.items():
            print(f"{k}: {v['description']}" if a.list else k)
        return 0
    sys.path.insert(0, str(harness_dir(a.harness)))
    import mockllm, normalize, pihome  # noqa: E401
    mods = (mockllm, pihome, normalize)
    names = [k for k in CASES if not a.cases or any(x == k or (not a.exact and x in k) for x in a.cases)]
    if not names:
        raise SystemExit("no case matches")
    pi = resolve_pi(a.pi)
    bad = 0
    for name in names:
        got = run_case(name, CASES[name], pi, mods, a.timeout_scale)
        path = HERE / "expected" / f"{name}.json"
        if a.record:
            path.write_text(dump(got), encoding="utf-8")
            print(f"recorded {name}")
            continue
        if a.ref:
            want = run_case(name, CASES[name], resolve_pi(a.ref), mods, a.timeout_scale)
        else:
            want = json.loads(path.read_text(encoding="utf-8"))
        diff = list(difflib.unified_diff(render(want), render(got), "reference", "candidate", lineterm="", n=2))
        gap = CASES[name].get("gap")
        if diff and gap and not a.strict:
            print(f"GAP {name}: {gap}")
            print("\n".join(diff))
        elif diff:
            bad += 1
            print(f"FAIL {name}")
            print("\n".join(diff))
        else:
            print(f"PASS {name}")
    if not a.record:
        print(f"{len(names) - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
