#!/usr/bin/env python3
"""Startup with extensions, our pi against the reference, side by side.

    python3 bench/extbench.py --ours ./pi --ref "node /x/cli.js" [-n 15]

Spawns `pi --mode rpc --no-session -e A … -e E` with five of the
reference's example extensions, sends get_state at once and times the
response (ready); then closes stdin and times the exit.

  cold: every run gets a fresh agent directory, so our transpile cache is
        empty (the reference keeps no cache of its own there).
  warm: all runs share one agent directory that a first, untimed run
        filled.

Prints medians (ready, exit, CPU) and the ratio reference/ours (>1 means
ours is faster). Uses the helpers of bench/rpcbench.py.
"""
from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rpcbench  # noqa: E402

EXAMPLES = os.path.join(os.path.expanduser(os.environ.get("PI_REF_DIR", "~/.cache/pi-reference")), "pi",
                        "node_modules", "@earendil-works", "pi-coding-agent", "examples", "extensions")
# Five examples that use different parts of the host: typebox and pi-ai
# (todo), pi-tui components (question), a tool_call gate (permission-gate),
# built-in tool factories (tool-override) and node:fs/path
# (protected-paths).
DEFAULT = ["todo.ts", "question.ts", "permission-gate.ts", "tool-override.ts", "protected-paths.ts"]


def one_run(argv: list[str], env: dict, cwd: str) -> tuple[float, float, float]:
    c = rpcbench.Child(argv + ["--mode", "rpc", "--no-session"], env, cwd)
    c.send({"id": "s", "type": "get_state"})
    ready = None
    for r in c.records():
        if r.get("type") == "response" and r.get("id") == "s":
            ready = time.perf_counter() - c.t0
            if not r.get("success"):
                raise SystemExit(f"get_state failed: {r}")
            break
    t_exit, _ = c.close_and_wait()
    if ready is None:
        raise SystemExit(f"no get_state response from {argv[0]} (exit {c.p.returncode})")
    return ready * 1000, t_exit * 1000, c.cpu * 1000


def fresh_env(port: int, root: str) -> dict:
    env = rpcbench.make_home(port, root)
    return env


def bench(argv: list[str], runs: int, warm: bool, port: int, cwd: str) -> dict:
    ready, exits, cpu = [], [], []
    shared = None
    if warm:
        shared = tempfile.mkdtemp(prefix="extbench-warm-")
        env = fresh_env(port, shared)
        one_run(argv, env, cwd)  # fills the cache
    for _ in range(runs):
        if warm:
            r = one_run(argv, env, cwd)
        else:
            root = tempfile.mkdtemp(prefix="extbench-cold-")
            try:
                r = one_run(argv, fresh_env(port, root), cwd)
            finally:
                shutil.rmtree(root, ignore_errors=True)
        ready.append(r[0])
        exits.append(r[1])
        cpu.append(r[2])
    if shared:
        shutil.rmtree(shared, ignore_errors=True)
    return {"ready": statistics.median(ready), "exit": statistics.median(exits), "cpu": statistics.median(cpu)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ours", required=True)
    ap.add_argument("--ref", default="")
    ap.add_argument("-n", type=int, default=15)
    ap.add_argument("--ext", action="append", help="extension paths (default: five reference examples)")
    a = ap.parse_args()
    exts = a.ext or [os.path.join(EXAMPLES, e) for e in DEFAULT]
    eargs = [x for e in exts for x in ("-e", e)]
    srv = rpcbench.burst_server(b"")
    port = srv.server_address[1]
    cwd = tempfile.mkdtemp(prefix="extbench-proj-")
    sides = [("ours", shlex.split(a.ours))]
    if a.ref:
        sides.append(("reference", shlex.split(a.ref)))
    results = {}
    print(f"{len(exts)} extensions: {', '.join(os.path.basename(e) for e in exts)}; {a.n} runs each, medians")
    for name, argv in sides:
        for mode in ("cold", "warm"):
            r = bench(argv + eargs, a.n, mode == "warm", port, cwd)
            results[(name, mode)] = r
            print(f"  {name:9s} {mode}: ready {r['ready']:7.1f} ms  exit {r['exit']:7.1f} ms  cpu {r['cpu']:7.1f} ms",
                  flush=True)
    if a.ref:
        for mode in ("cold", "warm"):
            o, r = results[("ours", mode)], results[("reference", mode)]
            print(f"ratio {mode}: ready {r['ready'] / o['ready']:.1f}x  exit {r['exit'] / o['exit']:.1f}x  "
                  f"cpu {r['cpu'] / o['cpu']:.1f}x (reference/ours)")
    shutil.rmtree(cwd, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
