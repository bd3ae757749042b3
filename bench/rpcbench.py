#!/usr/bin/env python3
"""RPC benchmarks of our pi against the reference, side by side in one run.

    python3 bench/rpcbench.py --ours ./pi --ref "node /x/cli.js" [-n 20] [--deltas 10000]

(a) ready: spawn `pi --mode rpc --no-session`, send get_state at once, time
    until its response arrives (ready) and until the process exits after
    stdin is closed (exit); peak RSS is the child's VmHWM from /proc, read
    once its work is done and just before stdin is closed. (wait4's
    ru_maxrss is not used: Linux folds the spawning process's own peak into
    it at exec, so it reported this Python script's ~28 MiB, not pi's.)
(b) stream: one prompt whose reply is DELTAS one-character text deltas; the
    mock writes the whole SSE body in one burst, so the time from sending
    the prompt to agent_settled measures the agent's own parsing, event
    building and JSON writing. Reported as deltas per second.
    The client reads in large chunks and classifies records by their
    leading bytes (count_stream), so its own cost stays small next to the
    agent's; the mock's time to serve each request is reported beside it.
(c) tool turn: the time from tool_execution_end to the next assistant
    message_start on the client's side, for a bash tool call that the
    mock answers at once.
(d) pipeline: 10,000 get_state commands written at once, then EOF: time to
    exit, CPU, and how many were answered (all must be).

The binaries alternate run by run, so load changes hit both alike.

Only the Python standard library is used; the mock's SSE frames come from
the conformance mockllm.py so both binaries see the wire format the
conformance suite uses.
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
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.environ.get("PI_CONFORMANCE_DIR", os.path.join(HERE, "..", "..", "shared", "conformance"))
sys.path.insert(0, CONF)
import mockllm  # noqa: E402  (path set just above)


# Seconds the burst mock spent serving each request (headers read to last
# byte handed to the kernel), so the report can show what the harness costs
# next to what the agent costs.
MOCK_SERVE_S: list[float] = []


def burst_server(body: bytes) -> ThreadingHTTPServer:
    """An OpenAI-compatible endpoint answering every POST with body at once."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802 (http.server naming)
            t0 = time.perf_counter()
            n = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(n)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            MOCK_SERVE_S.append(time.perf_counter() - t0)

        def do_GET(self):  # noqa: N802
            self.send_error(404)

        def log_message(self, *args):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def tool_server(name: str = "bash", arguments: dict | None = None, on_request=None) -> ThreadingHTTPServer:
    """An OpenAI-compatible endpoint for the tool-turn gap: a request that
    carries no tool result gets one tool call (bash by default), one that
    does gets a short text reply, both written at once. on_request, when
    given, is called as each request arrives (bench/mcpbench.py notes the
    time)."""
    args = {"command": "true"} if arguments is None else arguments
    call = b"".join(mockllm.openai_events({"tool_calls": [{"name": name, "arguments": args}]},
                                          0, "mock-model", True))
    done = b"".join(mockllm.openai_events({"text": "done"}, 1, "mock-model", True))

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802
            if on_request is not None:
                on_request()
            n = int(self.headers.get("Content-Length") or 0)
            req = json.loads(self.rfile.read(n) or b"{}")
            last = (req.get("messages") or [{}])[-1]
            body = done if last.get("role") == "tool" else call
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def make_home(port: int, root: str) -> dict:
    out = subprocess.run([sys.executable, os.path.join(CONF, "pihome.py"), "--port", str(port), "--dir", root],
                         check=True, capture_output=True, text=True).stdout
    home = next(line[5:] for line in out.splitlines() if line.startswith("HOME="))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8", "NO_COLOR": "1",
           "PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1", "PI_TELEMETRY": "0", "TERM": "dumb",
           "TMPDIR": os.path.join(root, "tmp")}
    os.makedirs(env["TMPDIR"], exist_ok=True)
    return env


class Child:
    """A pi --mode rpc process with a line reader thread."""

    def __init__(self, argv: list[str], env: dict, cwd: str):
        self.t0 = time.perf_counter()
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  env=env, cwd=cwd)

    def send(self, obj: dict) -> None:
        self.p.stdin.write((json.dumps(obj) + "\n").encode())
        self.p.stdin.flush()

    def records(self):
        for line in self.p.stdout:
            yield json.loads(line)

    def peak_kib(self) -> int | None:
        """The child's own peak RSS so far (VmHWM), or None off Linux."""
        try:
            with open(f"/proc/{self.p.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return None

    def close_and_wait(self) -> tuple[float, int]:
        """Closes stdin, reaps the child; returns (seconds since spawn, peak RSS KiB).
        The child's CPU time (user + system) is kept in self.cpu: unlike wall
        time it hardly moves when the machine is busy."""
        hwm = self.peak_kib()
        self.p.stdin.close()
        _, status, ru = os.wait4(self.p.pid, 0)
        self.p.returncode = os.waitstatus_to_exitcode(status)
        self.cpu = ru.ru_utime + ru.ru_stime
        return time.perf_counter() - self.t0, hwm if hwm is not None else ru.ru_maxrss


def bench_ready(argv: list[str], env: dict, cwd: str, runs: int) -> dict:
    ready, exits, rss, cpu = [], [], [], []
    for _ in range(runs):
        c = Child(argv + ["--mode", "rpc", "--no-session"], env, cwd)
        c.send({"id": "s", "type": "get_state"})
        ok = False
        for r in c.records():
            if r.get("type") == "response" and r.get("id") == "s":
                ready.append(time.perf_counter() - c.t0)
                ok = r.get("success", False)
                break
        t_exit, kib = c.close_and_wait()
        if not ok:
            return {"error": "get_state not answered"}
        exits.append(t_exit)
        rss.append(kib)
        cpu.append(c.cpu)
    return {"ready_ms": statistics.median(ready) * 1000, "exit_ms": statistics.median(exits) * 1000,
            "cpu_ms": statistics.median(cpu) * 1000,
            "rss_mib": statistics.median(rss) / 1024, "rss_max_mib": max(rss) / 1024}


def count_stream(fd: int) -> tuple[int, int]:
    """Reads RPC output from fd until agent_settled; returns (text deltas,
    records). The client must cost far less than the agent, or it, not
    the agent, is what gets measured: json.loads of every record cost
    Python ~3 us each, 30 ms of a 10,000-delta reply, as much as our
    whole agent. Records are read in large chunks and classified by their
    leading bytes (both binaries write "type" first), and each delta is
    checked for the text_delta type; the other records are parsed in full."""
    buf = b""
    deltas = records = 0
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            raise RuntimeError(f"output ended after {records} records, before agent_settled")
        buf += chunk
        lines = buf.split(b"\n")
        buf = lines.pop()
        for line in lines:
            records += 1
            if line.startswith(b'{"type":"message_update"'):
                if b'"assistantMessageEvent":{"type":"text_delta"' in line:
                    deltas += 1
                continue
            if json.loads(line).get("type") == "agent_settled":
                return deltas, records


def bench_stream(argv: list[str], env: dict, cwd: str, runs: int, deltas: int) -> dict:
    rates, rss, mock, cpu = [], [], [], []
    for _ in range(runs):
        c = Child(argv + ["--mode", "rpc", "--no-session", "--provider", "mock", "--model", "mock-model"], env, cwd)
        c.send({"id": "s", "type": "get_state"})
        line = c.p.stdout.readline()  # the only record before the prompt
        if json.loads(line).get("id") != "s":
            return {"error": f"unexpected first record {line[:80]!r}"}
        served = len(MOCK_SERVE_S)
        t0 = time.perf_counter()
        c.send({"id": "p", "type": "prompt", "message": "stream please"})
        n, _ = count_stream(c.p.stdout.fileno())
        dt = time.perf_counter() - t0
        _, kib = c.close_and_wait()
        if n != deltas:
            return {"error": f"saw {n} text deltas, want {deltas}"}
        rates.append(n / dt)
        rss.append(kib)
        cpu.append(c.cpu)
        mock.extend(MOCK_SERVE_S[served:])
    return {"deltas_per_s": statistics.median(rates), "ms": deltas / statistics.median(rates) * 1000,
            "rss_mib": statistics.median(rss) / 1024, "cpu_ms": statistics.median(cpu) * 1000,
            "mock_ms": statistics.median(mock) * 1000 if mock else "-"}


def bench_pipeline(argv: list[str], env: dict, cwd: str, runs: int, n: int = 10000) -> dict:
    """(d) n get_state commands written at once, then EOF: the time until
    the process exits, and how many were answered."""
    data = b"".join(b'{"id":"g%d","type":"get_state"}\n' % i for i in range(n))
    path = os.path.join(cwd, "..", "pipeline.jsonl")
    with open(path, "wb") as f:
        f.write(data)
    times, cpu, answered = [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        with open(path, "rb") as stdin:
            p = subprocess.Popen(argv + ["--mode", "rpc", "--no-session"], stdin=stdin, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        out = p.stdout.read()
        _, _, ru = os.wait4(p.pid, 0)
        p.stdout.close()
        times.append(time.perf_counter() - t0)
        cpu.append(ru.ru_utime + ru.ru_stime)
        answered.append(out.count(b'"type":"response"'))
    return {"ms": statistics.median(times) * 1000, "cpu_ms": statistics.median(cpu) * 1000,
            "answered": min(answered)}


def bench_tool_gap(argv: list[str], env: dict, cwd: str, runs: int, prompts: int = 5) -> dict:
    """(c) tool turn: from reading tool_execution_end to reading the next
    assistant message_start (the tool result's events, turn_end,
    turn_start, the request and the reply's first bytes), median over
    runs x prompts tool turns."""
    gaps = []
    for _ in range(runs):
        c = Child(argv + ["--mode", "rpc", "--no-session", "--provider", "mock", "--model", "mock-model"], env, cwd)
        it = c.records()
        for i in range(prompts):
            c.send({"id": f"p{i}", "type": "prompt", "message": "run the tool"})
            t_end = None
            for r in it:
                t = r.get("type")
                if t == "tool_execution_end":
                    t_end = time.perf_counter()
                elif t == "message_start" and t_end is not None and r["message"].get("role") == "assistant":
                    gaps.append(time.perf_counter() - t_end)
                    t_end = None
                elif t == "agent_settled":
                    break
        c.close_and_wait()
    if not gaps:
        return {"error": "no tool turn seen"}
    return {"gap_ms": statistics.median(gaps) * 1000, "n": len(gaps)}


def merge_runs(runs: list[dict]) -> dict:
    """The median of each figure over single-run results (an error in any
    run is the result); the max fields keep their maximum, answered its
    minimum."""
    for r in runs:
        if "error" in r:
            return r
    out = {}
    for k in runs[0]:
        vals = [r[k] for r in runs if isinstance(r.get(k), (int, float))]
        if not vals:
            out[k] = runs[0][k]
        elif k.endswith("_max_mib"):
            out[k] = max(vals)
        elif k == "answered":
            out[k] = min(vals)
        else:
            out[k] = statistics.median(vals)
    return out


def bench_floor(path: str, runs: int) -> float:
    """Median spawn -> first line of a floor binary (bench/floor.sh), ms."""
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.Popen([path], stdout=subprocess.PIPE)
        p.stdout.readline()
        ts.append(time.perf_counter() - t0)
        p.wait()
    return statistics.median(ts) * 1000


def fmt(v, spec="{:.1f}"):
    return spec.format(v) if isinstance(v, (int, float)) else str(v)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", required=True, help="command line of our pi")
    ap.add_argument("--ref", help="command line of the reference pi (omit to measure ours only)")
    ap.add_argument("-n", "--runs", type=int, default=20, help="runs of the ready benchmark")
    ap.add_argument("--stream-runs", type=int, default=5)
    ap.add_argument("--deltas", type=int, default=10000)
    ap.add_argument("--floor", help="directory with the hello and deps binaries of bench/floor.sh")
    ap.add_argument("--gap-runs", type=int, default=5, help="processes of the tool-turn gap case (5 prompts each)")
    ap.add_argument("--pipe-runs", type=int, default=3, help="runs of the 10,000 pipelined get_state case")
    args = ap.parse_args()

    text = "".join(chr(ord("a") + i % 26) for i in range(args.deltas))
    frames = mockllm.openai_events({"text": text, "chunk_size": 1}, 0, "mock-model", True)
    srv = burst_server(b"".join(frames))
    tsrv = tool_server()
    work = tempfile.mkdtemp(prefix="pi-rpcbench-")
    env = make_home(srv.server_address[1], os.path.join(work, "home"))
    tenv = make_home(tsrv.server_address[1], os.path.join(work, "toolhome"))
    proj = os.path.join(work, "proj")
    os.makedirs(proj)

    targets = [("ours", shlex.split(args.ours))]
    if args.ref:
        targets.append(("ref", shlex.split(args.ref)))
    res = {name: {} for name, _ in targets}
    for name, argv in targets:
        argv[0] = os.path.abspath(argv[0]) if os.path.exists(argv[0]) else argv[0]
    # Alternate the binaries run by run, so that a change in the machine's
    # load hits both sides alike; each case's figure is the median.
    cases = [("ready", lambda a: bench_ready(a, env, proj, 1), args.runs),
             ("stream", lambda a: bench_stream(a, env, proj, 1, args.deltas), args.stream_runs),
             ("gap", lambda a: bench_tool_gap(a, tenv, proj, 1), args.gap_runs),
             ("pipe", lambda a: bench_pipeline(a, env, proj, 1), args.pipe_runs)]
    for key, fn, runs in cases:
        samples = {name: [] for name, _ in targets}
        for _ in range(runs):
            for name, argv in targets:
                samples[name].append(fn(argv))
        for name, _ in targets:
            res[name][key] = merge_runs(samples[name])
    srv.shutdown()
    tsrv.shutdown()
    # The throwaway homes and the pipeline input are of no use afterwards.
    shutil.rmtree(work, ignore_errors=True)

    def row(label, key, sub, spec="{:.1f}", higher_better=False):
        o = res["ours"][key].get(sub, res["ours"][key].get("error"))
        r = res.get("ref", {}).get(key, {}).get(sub, res.get("ref", {}).get(key, {}).get("error", "-"))
        ratio = "n/a"
        if isinstance(o, (int, float)) and isinstance(r, (int, float)) and o and r:
            ratio = f"{(o / r if higher_better else r / o):.1f}x"
        print(f"{label:<42} {fmt(o, spec):>12} {fmt(r, spec):>12} {ratio:>9}")

    print(f"runs (alternating): ready {args.runs}, stream {args.stream_runs} x {args.deltas} deltas, "
          f"pipeline {args.pipe_runs}; load average {os.getloadavg()[0]:.1f}")
    print(f"{'case':<42} {'ours':>12} {'ref':>12} {'ours adv':>9}")
    row("(a) ready: spawn -> get_state (ms, median)", "ready", "ready_ms")
    row("(a) spawn -> exit after EOF (ms, median)", "ready", "exit_ms")
    row("(a) CPU user+sys, whole run (ms, median)", "ready", "cpu_ms")
    row("(a) peak RSS (MiB, median)", "ready", "rss_mib")
    row("(a) peak RSS (MiB, max)", "ready", "rss_max_mib")
    if args.floor:
        for name, what in (("hello", "Go hello world"), ("deps", "pi's deps, no pi code")):
            ms = bench_floor(os.path.join(args.floor, name), args.runs)
            print(f"{'(floor) ' + what + ', spawn->exit (ms)':<42} {ms:>12.1f} {'-':>12} {'':>9}")
    row("(b) text deltas per second (median)", "stream", "deltas_per_s", "{:.0f}", higher_better=True)
    row("(b) prompt -> agent_settled (ms)", "stream", "ms")
    row("(b) peak RSS while streaming (MiB)", "stream", "rss_mib")
    row("(b) CPU user+sys, whole process (ms)", "stream", "cpu_ms")
    for name in res:
        # The stream's own CPU: the streaming process's less a ready run's
        # (start, one get_state, exit). Unlike wall time it holds up when
        # the machine is busy.
        st, rd = res[name]["stream"], res[name]["ready"]
        if isinstance(st.get("cpu_ms"), (int, float)) and isinstance(rd.get("cpu_ms"), (int, float)):
            st["stream_cpu_ms"] = max(st["cpu_ms"] - rd["cpu_ms"], 0.1)
    row("(b) CPU of the stream itself (less (a)'s, ms)", "stream", "stream_cpu_ms")
    row("(b) mock: request -> body sent (ms, median)", "stream", "mock_ms", "{:.2f}")
    row("(c) tool_execution_end -> next message_start (ms)", "gap", "gap_ms", "{:.2f}")
    row("(d) 10,000 pipelined get_state -> exit (ms)", "pipe", "ms")
    row("(d) CPU user+sys (ms, median)", "pipe", "cpu_ms")
    row("(d) commands answered (of 10,000)", "pipe", "answered", "{:.0f}", higher_better=True)
    ours = res["ours"]["ready"]
    if isinstance(ours.get("ready_ms"), float):
        ok = ours["ready_ms"] <= 15 and ours["rss_max_mib"] <= 20
        print(f"targets (ready <= 15 ms median, <= 20 MiB peak RSS): {'met' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
