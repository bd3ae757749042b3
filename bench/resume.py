#!/usr/bin/env python3
"""Resume a large session and answer get_state: time and peak RSS.

    python3 bench/resume.py -n RUNS --session FILE CMD [CMD ...]

Each CMD is one shell-style command line ("./pi", "node /x/cli.js"). Each
run copies FILE (a resumed session may be rewritten), spawns
`CMD --mode rpc --session COPY` in a throwaway HOME whose models.json has
one mock model, sends get_state, and takes the time from spawn to the
get_state response and the child's peak RSS (VmHWM); then it closes stdin
and reads its CPU time (ru_utime + ru_stime from wait4: the process
exits right after, so CPU time is the resume's cost even on a busy
machine, where wall time is not). Runs of the commands alternate so load affects
them alike. Prints medians per command and the ratios to the first.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(cmd: list[str], session: str, home: str, cwd: str) -> tuple[float, int, float]:
    copy = os.path.join(cwd, "session.jsonl")
    shutil.copyfile(session, copy)
    env = dict(os.environ, HOME=home, PI_OFFLINE="1", PI_CODING_AGENT_DIR=os.path.join(home, ".pi", "agent"))
    start = time.monotonic()
    p = subprocess.Popen(cmd + ["--mode", "rpc", "--session", copy], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd, env=env)
    p.stdin.write(b'{"id":"s","type":"get_state"}\n')
    p.stdin.flush()
    elapsed = None
    for line in p.stdout:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("id") == "s":
            elapsed = time.monotonic() - start
            if not rec.get("success"):
                print("get_state failed:", line[:300], file=sys.stderr)
            break
    hwm = peak_rss(p.pid)
    p.stdin.close()
    p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    if elapsed is None:
        raise SystemExit(f"{cmd}: no get_state response (status {status})")
    return elapsed, hwm if hwm is not None else ru.ru_maxrss * 1024, ru.ru_utime + ru.ru_stime


def peak_rss(pid: int) -> int | None:
    """The process's own peak RSS in bytes (VmHWM), None off Linux. wait4's
    ru_maxrss folds in the peak of the process that spawned it (this
    script's) at exec, which hid small figures."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=5)
    ap.add_argument("--session", required=True)
    ap.add_argument("cmds", nargs="+")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="pi-resume-")
    try:
        home = os.path.join(work, "home")
        agent = os.path.join(home, ".pi", "agent")
        os.makedirs(agent)
        with open(os.path.join(agent, "models.json"), "w") as f:
            json.dump({"providers": {"mock": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions",
                                              "apiKey": "mock-key", "models": [{"id": "mock-model"}]}}}, f)
        cwd = os.path.join(work, "proj")
        os.makedirs(cwd)
        results: dict[str, list[tuple[float, int, float]]] = {c: [] for c in a.cmds}
        for _ in range(a.n):
            for c in a.cmds:
                results[c].append(run_once(shlex.split(c), a.session, home, cwd))
        base = None
        print(f"session {a.session}: {os.path.getsize(a.session) / 1e6:.0f} MB, {a.n} runs each")
        for c in a.cmds:
            t = statistics.median(r[0] for r in results[c])
            m = statistics.median(r[1] for r in results[c])
            cpu = statistics.median(r[2] for r in results[c])
            if base is None:
                base = (t, m, cpu)
            print(f"{t:7.2f} s  cpu {cpu:6.2f} s  {m / 1e6:7.0f} MB   time x{t / base[0]:.2f}  cpu x{cpu / base[2]:.2f}  rss x{m / base[1]:.2f}   {c}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
