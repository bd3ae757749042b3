#!/usr/bin/env python3
"""MCP benchmarks of our pi against the reference, side by side in one run:

    python3 bench/mcpbench.py --ours ./pi --ref "node /x/cli.js" [-n 10]

Both binaries get the same home: the conformance mock provider, and one
stdio MCP server in ~/.pi/agent/mcp.json with direct exposure (our Go
test server, mcp/internal/testserver, built once, so the server's own
start is the same small cost on both sides).

(a) start: spawn `pi --mode rpc --no-session`, send get_state at once:
    time until it is answered (ready), and until the first prompt's model
    request reaches the mock (first request: the first prompt waits for
    servers with direct tools, so this includes the server's start and
    MCP handshake); peak RSS.
(b) round trip: the model calls mcp__echo__ping; the time from
    tool_execution_start to tool_execution_end as the client reads them
    (pi's call into the server over stdio and back, the events written),
    median over runs x 5 calls in one process.

The binaries alternate run by run, so load changes hit both alike.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from http.server import ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rpcbench  # noqa: E402
from rpcbench import Child, make_home  # noqa: E402

FIRST_REQUEST: list[float] = []


def mcp_server() -> ThreadingHTTPServer:
    """A mock model that calls mcp__echo__ping, then answers the tool
    result; it notes when each request arrives."""
    return rpcbench.tool_server("mcp__echo__ping", {"text": "x"}, lambda: FIRST_REQUEST.append(time.perf_counter()))


def one_run(argv: list[str], env: dict, cwd: str, calls: int = 5) -> dict:
    c = Child(argv + ["--mode", "rpc", "--no-session", "--provider", "mock", "--model", "mock-model"], env, cwd)
    it = c.records()
    c.send({"id": "s", "type": "get_state"})
    ready = None
    for r in it:
        if r.get("type") == "response" and r.get("id") == "s":
            ready = time.perf_counter() - c.t0
            break
    trips, first = [], None
    for i in range(calls):
        FIRST_REQUEST.clear()
        c.send({"id": f"p{i}", "type": "prompt", "message": "call ping"})
        t_start, ok = None, False
        for r in it:
            t = r.get("type")
            if t == "tool_execution_start" and r.get("toolName") == "mcp__echo__ping":
                t_start = time.perf_counter()
            elif t == "tool_execution_end" and t_start is not None:
                trips.append(time.perf_counter() - t_start)
                ok = "PONG:x" in json.dumps(r.get("result"))
                t_start = None
            elif t == "agent_settled":
                break
        if i == 0 and FIRST_REQUEST:
            first = FIRST_REQUEST[0] - c.t0
        if not ok:
            c.close_and_wait()
            return {"error": "the MCP call did not return PONG:x"}
    _, kib = c.close_and_wait()
    return {"ready_ms": ready * 1000, "first_request_ms": first * 1000 if first else None,
            "trip_ms": statistics.median(trips) * 1000, "rss_mib": kib / 1024}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True)
    ap.add_argument("--ref", default="")
    ap.add_argument("-n", type=int, default=10)
    a = ap.parse_args()
    root = os.path.realpath(tempfile.mkdtemp(prefix="pi-mcpbench-"))
    server_bin = os.path.join(root, "mcp-testserver")
    subprocess.run(["go", "build", "-o", server_bin, "./mcp/internal/testserver"],
                   cwd=os.path.join(HERE, ".."), check=True)
    srv = mcp_server()
    env = make_home(srv.server_address[1], root)
    with open(os.path.join(env["HOME"], ".pi", "agent", "mcp.json"), "w") as f:
        json.dump({"mcpServers": {"echo": {"command": server_bin, "exposure": "direct"}}}, f)
    cwd = os.path.join(root, "project")
    os.makedirs(cwd, exist_ok=True)
    sides = {"ours": shlex.split(a.ours)}
    if a.ref:
        sides["reference"] = shlex.split(a.ref)
    results = {k: [] for k in sides}
    for _ in range(a.n):
        for name, argv in sides.items():
            results[name].append(one_run(argv, env, cwd))
    merged = {k: rpcbench.merge_runs(v) for k, v in results.items()}
    print(f"MCP, one stdio server (direct), {a.n} runs alternating, medians")
    rows = [("RPC ready", "ready_ms", "ms"), ("first model request (server connected)", "first_request_ms", "ms"),
            ("MCP tool call round trip", "trip_ms", "ms"), ("peak RSS", "rss_mib", "MiB")]
    print(f"{'':42s} {'ours':>10s} {'reference':>10s} {'ratio':>7s}")
    for label, key, unit in rows:
        o = merged["ours"].get(key)
        r = merged.get("reference", {}).get(key)
        ratio = f"{r / o:.1f}x" if isinstance(o, (int, float)) and isinstance(r, (int, float)) and o else ""
        print(f"{label:42s} {rpcbench.fmt(o):>7s} {unit:3s}{rpcbench.fmt(r):>7s} {unit:3s}{ratio:>7s}")
    for k, v in merged.items():
        if "error" in v:
            print(f"{k}: {v['error']}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
