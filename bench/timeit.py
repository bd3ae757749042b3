#!/usr/bin/env python3
"""Median wall time of a command, for bench/run.sh.

    python3 bench/timeit.py -n RUNS --cwd DIR --home HOME [--stdin TEXT]
        [--expect TEXT | --expect-exact TEXT] -- CMD ARGS...

CMD is one shell-style string (it may be "node /x/cli.js"); ARGS follow it.
Each run spawns the command directly (no shell in between), feeds --stdin
and closes it, reads stdout to EOF and reaps the process: the time is from
spawn to exit, so the figure holds the program's own start and work, not
the harness's (the earlier date/bash/head pipeline added ~150 ms under
load). Prints the median in whole milliseconds, "fail" when an output check
fails.
"""
from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("--cwd", required=True)
    ap.add_argument("--home", required=True)
    ap.add_argument("--stdin", default=None)
    ap.add_argument("--expect", default=None, help="substring stdout must contain")
    ap.add_argument("--expect-exact", default=None, help="stdout, trailing newline ignored")
    ap.add_argument("cmd")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    argv = shlex.split(a.cmd) + [x for x in a.args if x != "--"]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": a.home,
           "PI_CODING_AGENT_DIR": os.path.join(a.home, ".pi", "agent"), "PI_OFFLINE": "1", "TERM": "dumb"}
    times = []
    for _ in range(a.n):
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, cwd=a.cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
        out, _ = p.communicate(a.stdin.encode() if a.stdin is not None else b"")
        dt = time.perf_counter() - t0
        text = out.decode(errors="replace")
        if a.expect is not None and a.expect not in text:
            print("fail")
            return 0
        if a.expect_exact is not None and text.rstrip("\n") != a.expect_exact:
            print("fail")
            return 0
        times.append(dt * 1000)
    print(int(round(statistics.median(times))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
