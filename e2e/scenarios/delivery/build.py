#!/usr/bin/env python3
"""Writes the delivery scenarios (*.json next to this file) from
src/delivery.ts: extension messages sent at each point of a run with each
pi.sendMessage / pi.sendUserMessage option, and ctx.navigateTree with a
branch summary. Run it after editing the source, then re-record the
expected transcripts from the reference:

    python3 build.py
    python3 ../../../../shared/conformance/suite.py --pi "$REF" \\
        --scenarios . --update-expected
"""
import json
import pathlib

HERE = pathlib.Path(__file__).parent
SRC = (HERE / "src" / "delivery.ts").read_text()

# Every option combination the reference tells apart during a run.
ALL_SENDS = [
    {"kind": "msg", "text": "m-default", "opts": {}},
    {"kind": "msg", "text": "m-follow", "opts": {"deliverAs": "followUp"}},
    {"kind": "msg", "text": "m-notrigger", "opts": {"triggerTurn": False}},
    {"kind": "msg", "text": "m-notrigger-follow", "opts": {"triggerTurn": False, "deliverAs": "followUp"}},
    {"kind": "msg", "text": "m-next", "opts": {"deliverAs": "nextTurn"}},
    {"kind": "msg", "text": "m-trigger", "opts": {"triggerTurn": True}},
    {"kind": "user", "text": "u-steer", "opts": {"deliverAs": "steer"}},
    {"kind": "user", "text": "u-follow", "opts": {"deliverAs": "followUp"}},
]
IDLE_SENDS = [s for s in ALL_SENDS if s["kind"] == "msg" and s["text"] != "m-trigger"]


def command(name, id_, text, wait=None, timeout=None):
    step = {"name": name, "send": {"id": id_, "type": "prompt", "message": text},
            "wait": wait or {"response": id_, "then_quiet_ms": 500}}
    if timeout:
        step["timeout_s"] = timeout
    return step


def plan(sends_by_point):
    return command("plan", "c0", "/plan " + json.dumps(sends_by_point), timeout=60)


def prompt(name, id_, text):
    return command(name, id_, text, {"all": [{"response": id_}, {"event": "agent_settled"}], "then_quiet_ms": 800})


DUMP = command("dump", "d1", "/dump")


def scenario(description, steps, turns, files=None):
    return {"description": description, "args": ["-e", "exts/delivery.ts"],
            "files": {"exts/delivery.ts": SRC, **(files or {})},
            "mock": {"turns": turns, "fallback_text": "ok"}, "steps": steps}


TOOL_TURNS = [{"tool_calls": [{"name": "probe", "arguments": {}}]}, {"text": "t2"}, {"text": "t3"}, {"text": "t4"}, {"text": "t5"}]
TEXT_TURNS = [{"text": "t1"}, {"text": "t2"}, {"text": "t3"}, {"text": "t4"}, {"text": "t5"}]
NAV_TURNS = [{"text": "t1"}, {"tool_calls": [{"name": "read", "arguments": {"path": "notes.md"}}]}, {"text": "t2"}, {"text": "t3"}]


def nav(description, nav_opts, tree_result=None):
    steps = [plan({"tree_result": tree_result})] if tree_result else []
    steps += [prompt("prompt 1", "p1", "first"), prompt("prompt 2", "p2", "second"),
              command("navigate", "n1", "/nav " + json.dumps({"user": 1, "opts": nav_opts}), {"response": "n1", "then_quiet_ms": 800}),
              DUMP, prompt("prompt 3", "p3", "third")]
    return scenario(description, steps, NAV_TURNS, {"notes.md": "some notes\n"})


SCENARIOS = {
    "delivery_tool_call": scenario(
        "pi.sendMessage and pi.sendUserMessage with every option while a tool runs: steering and follow-ups one per turn, triggerTurn:false held until the turn ends, nextTurn kept for the next prompt; custom messages stay out of queue_update and are stored as custom_message entries.",
        [plan({"tool": ALL_SENDS}), prompt("prompt", "p1", "go"), DUMP], TOOL_TURNS),
    "delivery_turn_end": scenario(
        "The same sends from a turn_end handler.",
        [plan({"turn_end": ALL_SENDS}), prompt("prompt", "p1", "go"), DUMP], TEXT_TURNS),
    "delivery_agent_end": scenario(
        "The same sends from an agent_end handler: the queued ones start another run before the agent settles; the held ones are recorded when its first turn ends.",
        [plan({"agent_end": ALL_SENDS}), prompt("prompt", "p1", "go"), DUMP], TEXT_TURNS),
    "delivery_agent_settled": scenario(
        "Sends from an agent_settled handler: the session is idle, so plain sends are recorded at once, and a triggerTurn one starts a run once agent_settled has gone out.",
        [plan({"agent_settled": [s for s in ALL_SENDS if s["text"] in ("m-default", "m-notrigger", "m-trigger")]}),
         command("prompt", "p1", "go", {"all": [{"response": "p1"}, {"event": "agent_settled", "count": 2}], "then_quiet_ms": 800}), DUMP],
        TEXT_TURNS),
    "delivery_idle": scenario(
        "pi.sendMessage while idle: recorded at once (message_start/message_end) whatever deliverAs says, except nextTurn, which joins the next prompt after its user message.",
        [plan({"now": IDLE_SENDS}), prompt("prompt", "p1", "go"), DUMP], TEXT_TURNS),
    "delivery_nav_label": nav("ctx.navigateTree to a user message without a summary: the leaf moves to its parent and the label goes on the target.",
                              {"label": "plain"}),
    "delivery_nav_summary_ext": nav(
        "ctx.navigateTree with summarize, the summary supplied by session_before_tree: a branch_summary entry (fromHook) at the new leaf, labelled, passed to session_tree, and in the next request's context.",
        {"summarize": True, "label": "x"}, {"summary": {"summary": "EXT SUMMARY", "details": {"k": 1}}}),
}

if __name__ == "__main__":
    for name, sc in SCENARIOS.items():
        (HERE / f"{name}.json").write_text(json.dumps(sc, indent=1) + "\n")
