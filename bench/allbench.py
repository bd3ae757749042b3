#!/usr/bin/env python3
"""Every benchmark in one table, ours against the reference (bench/all.sh).

    python3 bench/allbench.py --ours ./pi --ref "node cli.js" --searchbench SB
        --tree DIR [--rg rg] [--fd fdfind] [--node NODE --dist DIST] [-n 5]

Each case runs once untimed (warm-up), then N rounds; a round runs ours
and the reference back to back (and the limit tool, for grep and find), so
load drifts hit both alike. Figures are medians over the rounds: wall time,
CPU (user + system of the process), peak RSS.

How each case is timed:
  ready        spawn `pi --mode rpc --no-session`, get_state answered (as
               bench/rpcbench.py); CPU and RSS over the whole process
  ext cold/warm  the same with the five examples of bench/extbench.py, a
               fresh agent directory per run (cold) or one filled by the
               warm-up (warm)
  print        `pi -p` with one bash tool call and a final answer against
               the conformance mock, spawn to exit (as bench/run.sh)
  deltas       10,000 one-character deltas in one SSE burst: prompt sent to
               agent_settled (as bench/rpcbench.py)
  idle x20     20 RPC processes started and answering get_state: the sum
               of their proportional set sizes (PSS, shared pages split)
  resume       `pi --mode rpc --session FILE` on a 200 MB session (about
               150,000 messages, bench/cmd/searchbench session): spawn to
               get_state answered with every message counted
  grep, find   one tool call over the generated tree, spawn to exit: ours
               through bench/cmd/searchbench (the builtins tool in a small
               binary), the reference's own tool through bench/reftool.mjs
               (node, its dist, spawning rg or fd), and rg or fd alone with
               the arguments the reference passes them, as the limit
One-shot processes run under /usr/bin/time when present, whose CPU and
max RSS are the child's alone (wait4's own ru_maxrss would fold in this
script's peak).
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import extbench  # noqa: E402
import rpcbench  # noqa: E402

GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
NEEDLE = "NEEDLE_pi_search_7f3a"


def run_once(argv, env=None, cwd=None, expect=None):
    """Spawn to exit of argv: (wall ms, cpu ms, peak RSS KiB, stdout)."""
    with tempfile.NamedTemporaryFile(prefix="allbench-time-", delete=False) as tf:
        tpath = tf.name
    full = [GNU_TIME, "-f", "%U %S %M", "-o", tpath] + argv if GNU_TIME else argv
    t0 = time.perf_counter()
    p = subprocess.Popen(full, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    out, _ = p.communicate()
    wall = (time.perf_counter() - t0) * 1000
    cpu = rss = None
    if GNU_TIME:
        try:
            u, s, m = open(tpath).read().split()[-3:]
            cpu, rss = (float(u) + float(s)) * 1000, int(m)
        except (OSError, ValueError):
            pass
    os.unlink(tpath)
    text = out.decode(errors="replace")
    if expect is not None and expect not in text:
        raise SystemExit(f"{argv[0]}: output lacks {expect!r}: {text[:300]!r}")
    return wall, cpu, rss, text


def rpc_once(argv, env, cwd, session=None, messages=None):
    """Spawn -> get_state answered; with session, resumes that file and
    checks get_state counts the messages expected."""
    extra = ["--session", session] if session else ["--no-session"]
    c = rpcbench.Child(argv + ["--mode", "rpc"] + extra, env, cwd)
    c.send({"id": "s", "type": "get_state"})
    ready = None
    for r in c.records():
        if r.get("type") == "response" and r.get("id") == "s":
            ready = (time.perf_counter() - c.t0) * 1000
            got = r.get("data", {}).get("messageCount")
            if messages is not None and got != messages:
                raise SystemExit(f"{argv[0]}: resumed {got} messages, want {messages}")
            break
    _, kib = c.close_and_wait()
    if ready is None:
        raise SystemExit(f"{argv[0]}: get_state not answered")
    return ready, c.cpu * 1000, kib


def pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def idle_many(argv, env, cwd, count=20):
    kids = [rpcbench.Child(argv + ["--mode", "rpc", "--no-session"], env, cwd) for _ in range(count)]
    for c in kids:
        c.send({"id": "s", "type": "get_state"})
    for c in kids:
        for r in c.records():
            if r.get("type") == "response" and r.get("id") == "s":
                break
    time.sleep(0.5)  # let start-up garbage settle as an idle process's would
    total = sum(pss_kib(c.p.pid) for c in kids)
    for c in kids:
        c.close_and_wait()
    return None, None, total


class Mock:
    """The conformance mock LLM with N print-mode rounds of one tool call."""

    def __init__(self, work, name, rounds):
        script = os.path.join(work, f"script-{name}.json")
        turns = []
        for _ in range(rounds):
            turns.append({"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]})
            turns.append({"text": "Tool said: hi"})
        with open(script, "w") as f:
            json.dump({"turns": turns}, f)
        portfile = os.path.join(work, f"port-{name}")
        self.p = subprocess.Popen([sys.executable, os.path.join(rpcbench.CONF, "mockllm.py"), "--script", script,
                                   "--log", os.path.join(work, f"log-{name}.jsonl"), "--port-file", portfile],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(portfile) and open(portfile).read().strip():
                break
            time.sleep(0.05)
        self.port = int(open(portfile).read().strip())
        self.env = rpcbench.make_home(self.port, os.path.join(work, f"home-print-{name}"))

    def close(self):
        self.p.kill()
        self.p.wait()


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ours", required=True)
    ap.add_argument("--ref", default="")
    ap.add_argument("--searchbench", required=True)
    ap.add_argument("--tree", required=True)
    ap.add_argument("--rg", default="")
    ap.add_argument("--fd", default="")
    ap.add_argument("--node", default="")
    ap.add_argument("--dist", default="")
    ap.add_argument("-n", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated case names to run")
    a = ap.parse_args()
    ours = shlex.split(a.ours)
    ref = shlex.split(a.ref) if a.ref else None
    work = tempfile.mkdtemp(prefix="allbench-")
    srv_text = "".join(chr(ord("a") + i % 26) for i in range(10000))
    frames = rpcbench.mockllm.openai_events({"text": srv_text, "chunk_size": 1}, 0, "mock-model", True)
    burst = rpcbench.burst_server(b"".join(frames))
    env = rpcbench.make_home(burst.server_address[1], os.path.join(work, "home"))
    proj = os.path.join(work, "proj")
    os.makedirs(proj)
    exts = [x for e in extbench.DEFAULT for x in ("-e", os.path.join(extbench.EXAMPLES, e))]
    # The reference's find looks for fd, which Debian installs as fdfind.
    fdpath = os.path.join(work, "fdbin")
    os.makedirs(fdpath)
    if a.fd:
        os.symlink(shutil.which(a.fd) or a.fd, os.path.join(fdpath, "fd"))
    tool_env = dict(env, PATH=fdpath + ":" + env["PATH"])

    def ext_cold(argv):
        root = tempfile.mkdtemp(prefix="allbench-cold-", dir=work)
        try:
            return rpc_once(argv + exts, rpcbench.make_home(burst.server_address[1], root), proj)
        finally:
            shutil.rmtree(root, ignore_errors=True)

    warm_envs = {}

    def ext_warm(argv):
        key = argv[0]
        if key not in warm_envs:
            warm_envs[key] = rpcbench.make_home(burst.server_address[1], tempfile.mkdtemp(prefix="allbench-warm-", dir=work))
        return rpc_once(argv + exts, warm_envs[key], proj)

    mocks = {}

    def printed(argv):
        key = argv[0]
        if key not in mocks:
            mocks[key] = Mock(work, f"m{len(mocks)}", a.n + 1)
        w, c, r, _ = run_once(argv + ["--no-session", "-p", "Please run the tool"], mocks[key].env, proj, "Tool said: hi")
        return w, c, r

    def deltas(argv):
        r = rpcbench.bench_stream(argv, env, proj, 1, 10000)
        if "error" in r:
            raise SystemExit(f"{argv[0]}: {r['error']}")
        return r["ms"], r["cpu_ms"], r["rss_mib"] * 1024

    def tool_case(kind, args):
        def ours_run(_):
            w, c, r, _ = run_once([a.searchbench, kind, a.tree, args["pattern"], json.dumps(args)], tool_env, a.tree)
            return w, c, r

        def ref_run(_):
            w, c, r, _ = run_once([a.node, os.path.join(HERE, "reftool.mjs"), a.dist, kind, a.tree, json.dumps(args)],
                                  tool_env, a.tree)
            return w, c, r

        def limit_run(_):
            if kind == "grep":
                argv = [a.rg, "--no-config", "--json", "--line-number", "--color=never", "--hidden", "--",
                        args["pattern"], "."]
            else:
                argv = [a.fd, "--color=never", "--hidden", "--glob", "--max-results", str(args.get("limit", 1000) + 1),
                        "--", args["pattern"], a.tree]
            w, c, r, _ = run_once(argv, tool_env, a.tree)
            return w, c, r

        have_limit = bool(a.rg if kind == "grep" else a.fd)
        have_ref = bool(a.node and a.dist and have_limit)
        return ours_run, (ref_run if have_ref else None), (limit_run if have_limit else None)

    session = os.path.join(work, "session.jsonl")

    def resume(argv):
        if not os.path.exists(session):
            subprocess.run([a.searchbench, "session", session, "200", proj], check=True)
        # Each run gets its own copy: resuming may append to the file.
        copy = os.path.join(work, "resume.jsonl")
        shutil.copyfile(session, copy)
        lines = sum(1 for _ in open(copy, "rb"))
        return rpc_once(argv, env, proj, session=copy, messages=lines - 2)

    cases = [
        ("ready (rpc get_state)", lambda v: rpc_once(v, env, proj), True),
        ("ready, 5 extensions, cold", ext_cold, True),
        ("ready, 5 extensions, warm", ext_warm, True),
        ("print, one tool call", printed, True),
        ("10,000 deltas (prompt->settled)", deltas, True),
        ("idle x20: total PSS", lambda v: idle_many(v, env, proj), True),
        ("resume, 200 MB session", resume, True),
    ]
    grep_args = {"pattern": NEEDLE}
    find_args = {"pattern": "*.json", "limit": 100000}
    search = [("grep literal, tree", "grep", grep_args), ("grep regex, tree", "grep", {"pattern": "NEEDLE_[a-z]+_search"}),
              ("find *.json, tree", "find", find_args), ("find *.go, limit 1000", "find", {"pattern": "*.go"})]
    only = set(filter(None, a.only.split(",")))
    rows = []
    print(f"{a.n} rounds + 1 warm-up, alternating; load average {os.getloadavg()[0]:.1f}", flush=True)
    for label, fn, _ in cases:
        if only and label.split()[0].rstrip(",") not in only:
            continue
        o, r = [], []
        for i in range(a.n + 1):
            o.append(fn(ours))
            if ref:
                r.append(fn(ref))
        rows.append((label, o[1:], r[1:], []))
        print_row(rows[-1], header=len(rows) == 1)
    for label, kind, args in search:
        if only and kind not in only:
            continue
        fo, fr, fl = tool_case(kind, args)
        o, r, l = [], [], []
        for i in range(a.n + 1):
            o.append(fo(None))
            if fr:
                r.append(fr(None))
            if fl:
                l.append(fl(None))
        rows.append((label, o[1:], r[1:], l[1:]))
        print_row(rows[-1], header=len(rows) == 1)
    if not only or "tui" in only:
        # The interactive mode in a pty: keypress to frame on a 2,000-message
        # session, both renderers (bench/tuikey.py prints its own table).
        cmd = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tuikey.py"),
               "--ours", a.ours, "--messages", "2000", "--keys", "20", "--runs", str(a.n)]
        cmd += ["--ref", a.ref] if a.ref else ["--no-ref"]
        print()
        subprocess.run(cmd, check=False)
    for m in mocks.values():
        m.close()
    burst.shutdown()
    shutil.rmtree(work, ignore_errors=True)
    return 0


def f(v, spec):
    return spec.format(v) if v is not None else "-"


def print_row(row, header=False):
    label, o, r, l = row
    if header:
        print(f"{'case':<33} {'ours ms':>8} {'cpu':>7} {'MiB':>6} | {'ref ms':>8} {'cpu':>7} {'MiB':>6} | "
              f"{'ref/ours':>8} | {'rg/fd ms':>8} {'cpu':>7} {'ours/lim':>8}")
    ow, oc, orss = (med([x[i] for x in o]) for i in range(3))
    rw, rc, rrss = (med([x[i] for x in r]) for i in range(3)) if r else (None, None, None)
    lw, lc, _ = (med([x[i] for x in l]) for i in range(3)) if l else (None, None, None)
    mib = lambda k: k / 1024 if k is not None else None  # noqa: E731
    if ow is None:  # a memory-only case: compare the RSS figures
        ratio = f"{rrss / orss:.1f}x" if rrss and orss else "n/a"
    else:
        ratio = f"{rw / ow:.1f}x" if rw and ow else "n/a"
    lim = f"{ow / lw:.2f}x" if lw and ow else ""
    print(f"{label:<33} {f(ow, '{:.1f}'):>8} {f(oc, '{:.0f}'):>7} {f(mib(orss), '{:.1f}'):>6} | "
          f"{f(rw, '{:.1f}'):>8} {f(rc, '{:.0f}'):>7} {f(mib(rrss), '{:.1f}'):>6} | {ratio:>8} | "
          f"{f(lw, '{:.1f}'):>8} {f(lc, '{:.0f}'):>7} {lim:>8}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
