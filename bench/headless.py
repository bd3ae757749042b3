#!/usr/bin/env python3
"""Two hardening figures of the headless product, ours against the reference:

    python3 bench/headless.py --ours ./pi [--ref "node /x/cli.js"] [-n 3]
                              [--read-size BYTES] [--skip-read] [--skip-pipe]

(1) pipeline: 10,000 get_state commands written at once, then EOF: the
    time until the process exits, its CPU and how many commands were
    answered (all must be). rpcbench.py's case (d), run on its own.
(2) read: one prompt to which the mock answers with a `read` tool call of a
    generated text file (2 GB by default, 100-byte lines), then "done":
    the child's peak RSS (VmHWM, sampled at agent_settled, before stdin is
    closed: wait4's ru_maxrss would fold in this script's own peak at
    exec), the time from the prompt to agent_settled and the size of the
    tool result the model was sent.

Runs of the two binaries alternate so that load hits both alike; medians
are printed with the ratios. The generated file lives in a temporary
directory removed at the end. Standard library only; the mock's frames come
from the conformance mockllm.py, and rpcbench.py's helpers build the homes.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rpcbench  # noqa: E402  (the conformance path is set up by rpcbench)
from rpcbench import Child, make_home, mockllm  # noqa: E402


def read_server(path: str) -> ThreadingHTTPServer:
    """An OpenAI-compatible endpoint: a request without a tool result gets
    one read tool call of path; one with a tool result gets "done", and the
    size of that result is recorded."""
    call = b"".join(mockllm.openai_events({"tool_calls": [{"name": "read", "arguments": {"path": path}}]},
                                          0, "mock-model", True))
    done = b"".join(mockllm.openai_events({"text": "done"}, 1, "mock-model", True))

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802 (http.server naming)
            n = int(self.headers.get("Content-Length") or 0)
            req = json.loads(self.rfile.read(n) or b"{}")
            last = (req.get("messages") or [{}])[-1]
            body = call
            if last.get("role") == "tool":
                body = done
                content = last.get("content")
                srv.result_bytes.append(len(json.dumps(content, ensure_ascii=False).encode()))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.result_bytes = []
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def write_text_file(path: str, size: int) -> None:
    """size bytes of numbered 100-byte lines, written 8 MB at a time."""
    line = lambda i: (f"{i:010d} " + "the quick brown fox jumps over the lazy dog " * 2)[:99] + "\n"  # noqa: E731
    block = "".join(line(i) for i in range(80_000)).encode()
    with open(path, "wb") as f:
        left = size
        while left > 0:
            chunk = block[:left]
            f.write(chunk)
            left -= len(chunk)


def bench_read(argv: list[str], env: dict, cwd: str, srv: ThreadingHTTPServer) -> dict:
    c = Child(argv + ["--mode", "rpc", "--no-session", "--provider", "mock", "--model", "mock-model"], env, cwd)
    served = len(srv.result_bytes)
    t0 = time.perf_counter()
    c.send({"id": "p", "type": "prompt", "message": "read the big file"})
    settled = False
    for r in c.records():
        if r.get("type") == "agent_settled":
            settled = True
            break
    dt = time.perf_counter() - t0
    _, kib = c.close_and_wait()
    if not settled:
        return {"error": "no agent_settled"}
    sent = srv.result_bytes[served:]
    return {"rss_mib": kib / 1024, "ms": dt * 1000, "cpu_ms": c.cpu * 1000,
            "result_kib": sent[-1] / 1024 if sent else "-"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ours", required=True, help="command line of our pi")
    ap.add_argument("--ref", help="command line of the reference pi (omit to measure ours only)")
    ap.add_argument("-n", "--runs", type=int, default=3)
    ap.add_argument("--read-size", type=int, default=2 << 30, help="bytes of the file the read case reads")
    ap.add_argument("--skip-read", action="store_true")
    ap.add_argument("--skip-pipe", action="store_true")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="pi-headless-")
    try:
        big = os.path.join(work, "big.txt")
        if not args.skip_read:
            write_text_file(big, args.read_size)
        srv = read_server(big)
        env = make_home(srv.server_address[1], os.path.join(work, "home"))
        proj = os.path.join(work, "proj")
        os.makedirs(proj)
        targets = [("ours", shlex.split(args.ours))]
        if args.ref:
            targets.append(("ref", shlex.split(args.ref)))
        for _, argv in targets:
            argv[0] = os.path.abspath(argv[0]) if os.path.exists(argv[0]) else argv[0]
        cases = []
        if not args.skip_pipe:
            cases.append(("pipe", lambda a: rpcbench.bench_pipeline(a, env, proj, 1)))
        if not args.skip_read:
            cases.append(("read", lambda a: bench_read(a, env, proj, srv)))
        res = {name: {} for name, _ in targets}
        for key, fn in cases:
            samples = {name: [] for name, _ in targets}
            for _ in range(args.runs):
                for name, argv in targets:
                    samples[name].append(fn(argv))
            for name, _ in targets:
                res[name][key] = rpcbench.merge_runs(samples[name])
        srv.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def row(label, key, sub, spec="{:.1f}"):
        if key not in res["ours"]:
            return
        o = res["ours"][key].get(sub, res["ours"][key].get("error"))
        r = res.get("ref", {}).get(key, {}).get(sub, res.get("ref", {}).get(key, {}).get("error", "-"))
        ratio = "n/a"
        if isinstance(o, (int, float)) and isinstance(r, (int, float)) and r:
            ratio = f"x{o / r:.2f}"
        print(f"{label:<46} {rpcbench.fmt(o, spec):>12} {rpcbench.fmt(r, spec):>12} {ratio:>8}")

    print(f"{args.runs} runs each (alternating), read file {args.read_size / 1e9:.2f} GB; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'case':<46} {'ours':>12} {'ref':>12} {'ours/ref':>8}")
    row("(1) 10,000 pipelined get_state -> exit (ms)", "pipe", "ms")
    row("(1) CPU user+sys (ms)", "pipe", "cpu_ms")
    row("(1) commands answered (of 10,000)", "pipe", "answered", "{:.0f}")
    row("(2) read: peak RSS (MiB)", "read", "rss_mib")
    row("(2) read: prompt -> agent_settled (ms)", "read", "ms")
    row("(2) read: CPU user+sys (ms)", "read", "cpu_ms")
    row("(2) read: tool result sent to the model (KiB)", "read", "result_kib")
    return 0


if __name__ == "__main__":
    sys.exit(main())
