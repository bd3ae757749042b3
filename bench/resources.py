#!/usr/bin/env python3
"""What discovering 1,000 skills and 1,000 prompt templates adds to start.

    python3 bench/resources.py --ours ./pi [-n 20] [--base ./pi-old]

Times `pi --mode rpc --no-session` from spawn to the get_state response
(as bench/rpcbench.py's "ready") in three HOMEs built alike by pihome.py:
"none" without resources, "warm" with 1,000 skills under
~/.pi/agent/skills and 1,000 templates under ~/.pi/agent/prompts and the
resource index of an earlier start, and "cold" with the same files and the
index deleted before each run. Runs interleave (none, warm, cold, ...) so
machine load hits all three alike. Prints medians of wall and CPU time
(user + system of the child), of the child's minor page faults up to the
answer (fresh heap pages are much of what resources cost), and what warm
and cold add over none. With
--base, a second binary (say, an older build) is measured the same way in
the same rounds, for a before/after in one run.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rpcbench  # noqa: E402  (path set just above)


def populate(agent: str) -> None:
    """1,000 skills and 1,000 templates, aged an hour so the index keeps them."""
    old = time.time() - 3600
    for i in range(1000):
        name = f"skill-{i:04d}"
        d = os.path.join(agent, "skills", name)
        os.makedirs(d, exist_ok=True)
        p = os.path.join(d, "SKILL.md")
        with open(p, "w") as f:
            f.write(f"---\nname: {name}\ndescription: Does thing number {name} when asked\n---\n\n# {name}\n\nBody.\n")
        os.utime(p, (old, old))
        t = os.path.join(agent, "prompts", f"t{i:04d}.md")
        os.makedirs(os.path.dirname(t), exist_ok=True)
        with open(t, "w") as f:
            f.write('---\ndescription: template\nargument-hint: "<x>"\n---\nDo $1 with ${@:2}\n')
        os.utime(t, (old, old))


def minflt(pid: int) -> int:
    """The process's minor page faults so far (0 off Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            # Fields after the parenthesised command name; minflt is the 10th field.
            return int(f.read().rsplit(")", 1)[1].split()[7])
    except (OSError, IndexError, ValueError):
        return 0


def ready(argv: list[str], env: dict, cwd: str) -> tuple[float, float, int]:
    """One spawn -> get_state answered -> exit: (wall ms to the answer, child CPU ms,
    minor page faults up to the answer)."""
    c = rpcbench.Child(argv + ["--mode", "rpc", "--no-session"], env, cwd)
    c.send({"id": "s", "type": "get_state"})
    t = None
    faults = 0
    for r in c.records():
        if r.get("type") == "response" and r.get("id") == "s":
            if not r.get("success", False):
                raise SystemExit(f"get_state failed: {r}")
            t = time.perf_counter() - c.t0
            faults = minflt(c.p.pid)
            break
    c.close_and_wait()
    if t is None:
        raise SystemExit("get_state not answered")
    return t * 1000, c.cpu * 1000, faults


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True)
    ap.add_argument("--base", default=None, help="a second binary to compare in the same rounds")
    ap.add_argument("-n", type=int, default=20)
    a = ap.parse_args()
    bins = {"ours": os.path.abspath(a.ours)}
    if a.base:
        bins["base"] = os.path.abspath(a.base)
    work = tempfile.mkdtemp(prefix="pi-resources-")
    try:
        srv = rpcbench.burst_server(b"")
        homes = {}
        for kind in ("none", "warm", "cold"):
            root = os.path.join(work, kind)
            os.makedirs(root)
            env = rpcbench.make_home(srv.server_address[1], root)
            agent = os.path.join(env["HOME"], ".pi", "agent")
            env["PI_CODING_AGENT_DIR"] = agent
            if kind != "none":
                populate(agent)
            cwd = os.path.join(root, "proj")
            os.makedirs(os.path.join(cwd, ".git"))
            homes[kind] = (env, cwd, os.path.join(agent, "cache", "resources.idx"))
        res = {(b, k): ([], [], []) for b in bins for k in homes}
        for b, path in bins.items():  # first start of each binary warms its index
            ready([path], *homes["warm"][:2])
        for _ in range(a.n):
            for b, path in bins.items():
                for k, (env, cwd, idx) in homes.items():
                    if k == "cold" and os.path.exists(idx):
                        os.remove(idx)
                    for i, v in enumerate(ready([path], env, cwd)):
                        res[(b, k)][i].append(v)
        print(f"spawn -> get_state, median of {a.n} (ms; faults: minor page faults up to the answer)")
        print(f"{'binary':8} {'case':6} {'wall':>7} {'cpu':>7} {'faults':>7} {'adds wall':>10} {'adds cpu':>9} {'adds faults':>12}")
        for b in bins:
            nw, nc, nf = (statistics.median(v) for v in res[(b, 'none')])
            for k in homes:
                w, c, f = (statistics.median(v) for v in res[(b, k)])
                print(f"{b:8} {k:6} {w:7.1f} {c:7.1f} {f:7.0f} {w - nw:10.1f} {c - nc:9.1f} {f - nf:12.0f}")
        srv.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
