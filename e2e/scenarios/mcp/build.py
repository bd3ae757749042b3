#!/usr/bin/env python3
"""Writes the MCP conformance scenarios (mcp_*.json here) from one source of
the stdio MCP server they seed into the project (mcp_echo.py). The
scenarios run through the shared harness (rpcdrive.py); their expected
transcripts (expected/mcp_*.jsonl) are recorded from the reference:

    python3 build.py
    python3 suite.py --pi "$REF" --update-expected
"""

import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
SERVER = (HERE / "mcp_echo.py").read_text()


def mcp_json(**server):
    return json.dumps({"mcpServers": {"echo": {"command": "python3", "args": ["mcp_echo.py"], **server}}}, indent=2) + "\n"


def steps(prompt):
    return [
        {"name": "get_state", "send": {"id": "s0", "type": "get_state"}, "timeout_s": 60},
        {"name": "get_commands", "send": {"id": "c0", "type": "get_commands"}},
        {"name": "prompt", "send": {"id": "p1", "type": "prompt", "message": prompt},
         "wait": {"event": "agent_end"}, "timeout_s": 60},
        {"name": "get_messages", "send": {"id": "m1", "type": "get_messages"}},
    ]


def scenario(description, server, turns, prompt):
    return {
        "description": description,
        "mode": "rpc",
        "files": {"mcp_echo.py": SERVER},
        "agent_files": {"mcp.json": mcp_json(**server)},
        "mock": {"turns": turns, "fallback_text": "fallback"},
        "steps": steps(prompt),
    }


SCENARIOS = {
    "mcp_direct": scenario(
        "builtin:mcp with a stdio server in ~/.pi/agent/mcp.json and direct exposure: the model calls "
        "mcp__echo__ping; the request declares the MCP tools after the built-in ones, the tool result "
        "carries the server's content, and get_commands lists /mcp.",
        {"exposure": "direct"},
        [{"tool_calls": [{"name": "mcp__echo__ping", "arguments": {"text": "hi"}, "id": "call_1"}]},
         {"text": "The server said PONG:hi."}],
        "call ping"),
    "mcp_codemode": scenario(
        "builtin:mcp with the default exposure (codemode): the request declares codemode and no "
        "mcp__ tool, and the model's script calls the MCP tool through tools.mcp__echo__ping.",
        {},
        [{"tool_calls": [{"name": "codemode", "arguments": {
            "code": "const r = await tools.mcp__echo__ping({text: 'hi'}); return r.content[0].text;"},
            "id": "call_1"}]},
         {"text": "done"}],
        "call ping from a script"),
    "mcp_deferred_search": scenario(
        "builtin:mcp with deferred exposure: the request declares tool_search, the model searches for "
        "the ping tool, the next request declares it, and the model calls it.",
        {"exposure": "deferred"},
        [{"tool_calls": [{"name": "tool_search", "arguments": {"query": "ping"}, "id": "call_1"}]},
         {"tool_calls": [{"name": "mcp__echo__ping", "arguments": {"text": "found"}, "id": "call_2"}]},
         {"text": "done"}],
        "find the ping tool and call it"),
}

for name, sc in SCENARIOS.items():
    (HERE / f"{name}.json").write_text(json.dumps(sc, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {name}.json")
