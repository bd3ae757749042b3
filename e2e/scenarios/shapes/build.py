#!/usr/bin/env python3
"""Writes shapes.json (the scenario that drives the shape probe) from
probe.ts, and with --record records the reference's probe output into
expected.jsonl:

    python3 build.py
    python3 build.py --record "$REF"     # REF: the reference's command line

The probe (probe.ts) writes what an extension sees (event payload keys and
types, ctx, ctx.ui, pi, getter results) as JSON lines into $PI_SHAPES_OUT;
TestExtensionShapes replays the scenario with our binary and compares its
records with expected.jsonl, minus the gaps listed in known_gaps.json.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).parent
HARNESS = HERE.parents[3] / "shared" / "conformance"


def settle(i):
    return {"all": [{"response": i}, {"event": "agent_settled"}]}


SCENARIO = {
    "description": "Shape probe: every event, ctx, ctx.ui, pi and getter result an extension sees, written to $PI_SHAPES_OUT.",
    "args": ["-e", "exts/shapes.ts", "--shapes-flag", "cli"],
    "model": {"reasoning": True},
    "extra_models": [{"id": "mock-model-2", "reasoning": True}],
    "settings": {"compaction": {"reserveTokens": 500, "keepRecentTokens": 10}},
    "files": {"exts/shapes.ts": (HERE / "probe.ts").read_text(), "a.txt": "alpha\n"},
    "mock": {"turns": [
        {"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]},
        {"tool_calls": [{"name": "shapes_tool", "arguments": {"x": 1}}]},
        {"text": "Done with tools."},
        {"text": "## Goal\nProbe shapes."},
        {"text": "Fresh session answer."},
    ], "fallback_text": "ok"},
    "steps": [
        {"name": "commands", "send": {"id": "c1", "type": "get_commands"}, "timeout_s": 60},
        {"name": "prompt tools", "send": {"id": "p1", "type": "prompt", "message": "Run the tools."}, "wait": settle("p1")},
        {"name": "user bash", "send": {"id": "b1", "type": "bash", "command": "echo from-bash"}},
        {"name": "command", "send": {"id": "p2", "type": "prompt", "message": "/shapes some args"},
         "wait": {"event": "extension_ui_request", "match": {"method": "confirm"}}},
        {"name": "confirm", "ui_respond": {"method": "confirm", "confirmed": True}, "wait": {"response": "p2", "then_quiet_ms": 300}},
        {"name": "setters", "send": {"id": "p3", "type": "prompt", "message": "/shapes-set"}, "wait": {"response": "p3", "then_quiet_ms": 500}},
        {"name": "thinking", "send": {"id": "t1", "type": "set_thinking_level", "level": "high"}},
        {"name": "cycle thinking", "send": {"id": "t2", "type": "cycle_thinking_level"}},
        {"name": "set model", "send": {"id": "m1", "type": "set_model", "provider": "mock", "modelId": "mock-model"}},
        {"name": "compact", "send": {"id": "k1", "type": "compact"}},
        {"name": "name", "send": {"id": "n1", "type": "set_session_name", "name": "probe"}},
        {"name": "new session", "send": {"id": "ns", "type": "new_session"}},
        {"name": "prompt fresh", "send": {"id": "p4", "type": "prompt", "message": "hello"}, "wait": settle("p4")},
        {"name": "fork messages", "send": {"id": "f0", "type": "get_fork_messages"}, "capture": {"E": "data.messages.0.entryId"}},
        {"name": "fork", "send": {"id": "f1", "type": "fork", "entryId": "${E}"}},
    ],
}


def main():
    (HERE / "shapes.json").write_text(json.dumps(SCENARIO, indent=1) + "\n")
    print("wrote shapes.json")
    if len(sys.argv) == 3 and sys.argv[1] == "--record":
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "shapes.jsonl")
            subprocess.run([sys.executable, str(HARNESS / "rpcdrive.py"), "--pi", sys.argv[2], str(HERE / "shapes.json"),
                            "--out", os.path.join(tmp, "rpc.jsonl"), "--env", "PI_SHAPES_OUT=" + out], check=True)
            (HERE / "expected.jsonl").write_text(pathlib.Path(out).read_text())
        print("wrote expected.jsonl")


if __name__ == "__main__":
    main()
