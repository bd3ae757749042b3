#!/usr/bin/env python3
"""Keypress-to-frame latency of the interactive mode, ours against the reference.

Each binary runs in a pseudo-terminal (120x40, xterm-256color, truecolor) on a session of N
generated messages (default 2,000: user/assistant pairs with a few paragraphs each), in
fullscreen and in regular mode. After the first frame is drawn and the output is quiet, the
script types K characters one at a time: for each it writes the byte, then reads until the
output has been quiet for 30 ms, and records the time to the first output byte (the echo
latency) and the bytes written for that keystroke. Runs alternate between the binaries.

  python3 bench/tuikey.py --ours ./pi [--ref "CMD"] [--messages 2000] [--keys 40] [--runs 3]

Prints medians per binary and mode, and the ratio reference/ours. Local only: the reference
needs Node; the machine should be idle (quote `uptime` with the numbers).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import select
import shlex
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "conformance"))


def make_home(root: str, messages: int) -> tuple[str, str, str]:
    """A HOME with a mock provider that is never called, and a session of `messages` messages."""
    home = os.path.join(root, "home")
    agent = os.path.join(home, ".pi", "agent")
    proj = os.path.join(root, "project")
    os.makedirs(agent, exist_ok=True)
    os.makedirs(proj, exist_ok=True)
    with open(os.path.join(agent, "models.json"), "w") as f:
        json.dump({"providers": {"mock": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions",
                                          "apiKey": "mock-key", "models": [{"id": "mock-model"}]}}}, f)
    with open(os.path.join(agent, "settings.json"), "w") as f:
        json.dump({"defaultProvider": "mock", "defaultModel": "mock-model", "quietStartup": True}, f)
    sid = str(uuid.uuid4())
    sdir = os.path.join(agent, "sessions", "--" + proj.strip("/").replace("/", "-") + "--")
    os.makedirs(sdir, exist_ok=True)
    path = os.path.join(sdir, f"2026-01-01T00-00-00-000Z_{sid}.jsonl")
    ts = 1767225600000
    with open(path, "w") as f:
        f.write(json.dumps({"type": "session", "version": 3, "id": sid, "timestamp": "2026-01-01T00:00:00.000Z", "cwd": proj}) + "\n")
        parent = None
        para = "This is a generated paragraph about the code base, with `inline code` and **bold** words. " * 3
        for i in range(messages):
            eid = f"{i:08x}"
            if i % 2 == 0:
                msg = {"role": "user", "content": [{"type": "text", "text": f"Question {i}: what does part {i} do?"}], "timestamp": ts + i}
            else:
                msg = {"role": "assistant", "content": [{"type": "text", "text": f"## Answer {i}\n\n{para}\n\n- point one\n- point two\n\n{para}"}],
                       "api": "openai-completions", "provider": "mock", "model": "mock-model",
                       "usage": {"input": 10, "output": 10, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 20,
                                 "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                       "stopReason": "stop", "timestamp": ts + i}
            f.write(json.dumps({"type": "message", "id": eid, "parentId": parent, "timestamp": "2026-01-01T00:00:00.000Z", "message": msg}) + "\n")
            parent = eid
    return home, proj, path


def read_until_quiet(fd: int, quiet: float, limit: float) -> tuple[bytes, float | None]:
    """Read until no output for `quiet` seconds; return the bytes and the time of the first byte."""
    out = bytearray()
    first = None
    start = time.perf_counter()
    last = start
    while True:
        now = time.perf_counter()
        if now - start > limit:
            break
        wait = quiet - (now - last) if out else limit - (now - start)
        r, _, _ = select.select([fd], [], [], max(0.0, wait))
        if not r:
            if out:
                break
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        if first is None:
            first = time.perf_counter()
        out += chunk
        last = time.perf_counter()
        # Answer the cursor position and other queries so neither side waits on them.
        if b"\x1b[6n" in chunk:
            os.write(fd, b"\x1b[1;1R")
    return bytes(out), first


def run_once(cmd: list[str], env: dict, cwd: str, mode: str, keys: int) -> tuple[list[float], list[int]]:
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.execvpe(cmd[0], cmd + ["--tui-mode", mode], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    try:
        # The first frame: wait until the footer is drawn and output settles.
        buf, _ = read_until_quiet(fd, 1.5, 120)
        lat, sizes = [], []
        for i in range(keys):
            ch = b"abcdefghijklmnopqrstuvwxyz"[i % 26:i % 26 + 1]
            t0 = time.perf_counter()
            os.write(fd, ch)
            out, first = read_until_quiet(fd, 0.03, 5)
            if first is not None:
                lat.append((first - t0) * 1000)
            sizes.append(len(out))
        return lat, sizes
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", required=True)
    ap.add_argument("--ref", default=os.environ.get("PI_REF", ""))
    ap.add_argument("--no-ref", action="store_true")
    ap.add_argument("--messages", type=int, default=2000)
    ap.add_argument("--keys", type=int, default=40)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    ref = a.ref
    if not ref and not a.no_ref:
        ref = subprocess.run([os.path.join(CONF, "install-reference.sh")], capture_output=True, text=True,
                             check=True).stdout.strip().splitlines()[-1]
    root = tempfile.mkdtemp(prefix="pi-tuikey-")
    try:
        home, proj, session = make_home(root, a.messages)
        env = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
               "COLORTERM": "truecolor", "LANG": "C.UTF-8", "PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1",
               "PI_TELEMETRY": "0", "TMPDIR": root}
        sides = [("ours", [os.path.abspath(a.ours), "--session", session])]
        if ref and not a.no_ref:
            sides.append(("reference", shlex.split(ref) + ["--session", session]))
        results: dict[tuple[str, str], tuple[list[float], list[int]]] = {}
        for mode in ("fullscreen", "regular"):
            for _ in range(a.runs):
                for name, cmd in sides:
                    lat, sizes = run_once(cmd, env, proj, mode, a.keys)
                    acc = results.setdefault((name, mode), ([], []))
                    acc[0].extend(lat)
                    acc[1].extend(sizes)
        print(f"keypress to frame, {a.messages} messages, {a.keys} keys x {a.runs} runs (load {os.getloadavg()[0]:.1f})")
        print(f"{'mode':11s} {'binary':10s} {'median ms':>10s} {'p90 ms':>8s} {'bytes/key':>10s}")
        for mode in ("fullscreen", "regular"):
            med = {}
            for name, _ in sides:
                lat, sizes = results.get((name, mode), ([], []))
                if not lat:
                    print(f"{mode:11s} {name:10s} {'no echo':>10s}")
                    continue
                lat.sort()
                med[name] = statistics.median(lat)
                p90 = lat[int(len(lat) * 0.9) - 1]
                print(f"{mode:11s} {name:10s} {med[name]:10.2f} {p90:8.2f} {statistics.median(sizes):10.0f}")
            if "ours" in med and "reference" in med:
                print(f"{mode:11s} ratio reference/ours: {med['reference'] / med['ours']:.1f}x")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
