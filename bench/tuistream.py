#!/usr/bin/env python3
"""Streaming frame cost of the interactive mode, ours against the reference.

Each binary runs in a pseudo-terminal (120x40, xterm-256color, truecolor) on a session of N
generated messages (default 2,000, the session bench/tuikey.py builds), in fullscreen and in
regular mode, against the conformance mock LLM (`mockllm.py`, a fresh one per run). After the
first frame is drawn the script sends one prompt; the mock streams a long Markdown reply
(paragraphs, a list, a code block) in D deltas of C characters, DELAY ms apart. From the prompt
until the reply's last word is on screen and the output is quiet, the script counts the bytes
the binary wrote, its frames (synchronized-output blocks, CSI ?2026h) and the CPU time the
process used (utime+stime from /proc). Runs alternate between the binaries.

  python3 bench/tuistream.py --ours ./pi [--ref "CMD"] [--messages 2000] [--deltas 400]
         [--chunk 12] [--delay 10] [--runs 3]

Prints medians per binary and mode: CPU ms per streamed delta and per frame, bytes per frame
and per delta, frames, and the ratio reference/ours. Local only: the reference needs Node;
the machine should be idle (the load average is printed with the numbers).
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

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "conformance"))
sys.path.insert(0, HERE)
import tuikey  # noqa: E402  (make_home, read_until_quiet)

MARKER = "ZZSTREAMEND"
TICK = os.sysconf("SC_CLK_TCK")


def reply_text(deltas: int, chunk: int) -> str:
    """A Markdown reply of about deltas*chunk characters, ending with MARKER."""
    para = ("Streaming text with `inline code`, **bold** and *italic* words, long enough to wrap "
            "across the width of the terminal more than once. ")
    blocks = []
    size = 0
    i = 0
    while size < deltas * chunk - 200:
        if i % 5 == 3:
            b = "- a list item\n- another item with `code`\n- a third one"
        elif i % 5 == 4:
            b = "```go\nfunc f(i int) int {\n\treturn i * 2\n}\n```"
        else:
            b = para * 2
        blocks.append(b)
        size += len(b) + 2
        i += 1
    blocks.append(MARKER)
    return "\n\n".join(blocks)


def cpu_ms(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / TICK


def start_mock(root: str, turn: dict) -> tuple[subprocess.Popen, int]:
    script = os.path.join(root, f"script-{time.monotonic_ns()}.json")
    with open(script, "w") as f:
        json.dump({"turns": [turn]}, f)
    port_file = script + ".port"
    p = subprocess.Popen([sys.executable, os.path.join(CONF, "mockllm.py"), "--script", script, "--port-file", port_file],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(port_file):
            with open(port_file) as f:
                txt = f.read().strip()
            if txt:
                return p, int(txt)
        time.sleep(0.02)
    p.kill()
    raise RuntimeError("mockllm did not start")


def run_once(cmd: list[str], env: dict, cwd: str, agent_dir: str, mode: str, turn: dict, root: str,
             last_message: str) -> dict | None:
    mock, port = start_mock(root, turn)
    with open(os.path.join(agent_dir, "models.json"), "w") as f:
        json.dump({"providers": {"mock": {"baseUrl": f"http://127.0.0.1:{port}/v1", "api": "openai-completions",
                                          "apiKey": "mock-key", "models": [{"id": "mock-model"}]}}}, f)
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.execvpe(cmd[0], cmd + ["--tui-mode", mode], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    try:
        # Ready: five quiet seconds after the first output (the reference
        # draws its header first and the replayed session seconds later;
        # the last message's heading may be above the window, so its
        # text is no sign).
        tuikey.read_until_quiet(fd, 5.0, 180)
        c0 = cpu_ms(pid)
        os.write(fd, b"Stream a long reply please\r")
        out = bytearray()
        start = time.perf_counter()
        seen = False
        while time.perf_counter() - start < 120:
            r, _, _ = select.select([fd], [], [], 0.5 if seen else 5)
            if not r:
                if seen:
                    break
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if b"\x1b[6n" in chunk:
                os.write(fd, b"\x1b[1;1R")
            if not seen and MARKER.encode() in out:
                seen = True
        wall = time.perf_counter() - start
        c1 = cpu_ms(pid)
        if os.environ.get("TUISTREAM_DUMP"):
            with open(os.environ["TUISTREAM_DUMP"] + f".{os.path.basename(cmd[0])}.{mode}", "wb") as f:
                f.write(out)
        if not seen:
            return None
        return {"bytes": len(out), "frames": out.count(b"\x1b[?2026h"), "cpu": c1 - c0, "wall": wall}
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
        mock.terminate()
        mock.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", required=True)
    ap.add_argument("--ref", default=os.environ.get("PI_REF", ""))
    ap.add_argument("--no-ref", action="store_true")
    ap.add_argument("--messages", type=int, default=2000)
    ap.add_argument("--deltas", type=int, default=400)
    ap.add_argument("--chunk", type=int, default=12)
    ap.add_argument("--delay", type=int, default=10, help="ms between streamed deltas")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--modes", default="fullscreen,regular")
    a = ap.parse_args()
    ref = a.ref
    if not ref and not a.no_ref:
        ref = subprocess.run([os.path.join(CONF, "install-reference.sh")], capture_output=True, text=True,
                             check=True).stdout.strip().splitlines()[-1]
    root = tempfile.mkdtemp(prefix="pi-tuistream-")
    try:
        home, proj, session = tuikey.make_home(root, a.messages)
        agent_dir = os.path.join(home, ".pi", "agent")
        text = reply_text(a.deltas, a.chunk)
        deltas = -(-len(text) // a.chunk)
        turn = {"text": text, "chunk_size": a.chunk, "delay_ms": a.delay}
        env = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
               "COLORTERM": "truecolor", "LANG": "C.UTF-8", "PI_SKIP_VERSION_CHECK": "1",
               "PI_TELEMETRY": "0", "TMPDIR": root}
        sides = [("ours", [os.path.abspath(a.ours), "--session", session])]
        if ref and not a.no_ref:
            sides.append(("reference", shlex.split(ref) + ["--session", session]))
        modes = a.modes.split(",")
        results: dict[tuple[str, str], list[dict]] = {}
        for mode in modes:
            for _ in range(a.runs):
                for name, cmd in sides:
                    r = run_once(cmd, env, proj, agent_dir, mode, turn, root, f"Answer {a.messages - 1}" if a.messages % 2 == 0 else f"Question {a.messages - 1}")
                    if r:
                        results.setdefault((name, mode), []).append(r)
        print(f"streaming frame cost, {a.messages} messages, {deltas} deltas of {a.chunk} chars {a.delay} ms apart, "
              f"{a.runs} runs (load {os.getloadavg()[0]:.1f})")
        print(f"{'mode':11s} {'binary':10s} {'frames':>7s} {'cpu ms':>8s} {'ms/delta':>9s} {'ms/frame':>9s} "
              f"{'bytes/frame':>12s} {'bytes/delta':>12s}")
        for mode in modes:
            per = {}
            for name, _ in sides:
                rs = results.get((name, mode), [])
                if not rs:
                    print(f"{mode:11s} {name:10s} {'no reply':>7s}")
                    continue
                frames = statistics.median(r["frames"] for r in rs)
                cpu = statistics.median(r["cpu"] for r in rs)
                per_frame = statistics.median(r["cpu"] / max(1, r["frames"]) for r in rs)
                bpf = statistics.median(r["bytes"] / max(1, r["frames"]) for r in rs)
                bpd = statistics.median(r["bytes"] / deltas for r in rs)
                per[name] = cpu / deltas
                print(f"{mode:11s} {name:10s} {frames:7.0f} {cpu:8.0f} {cpu / deltas:9.3f} {per_frame:9.3f} "
                      f"{bpf:12.0f} {bpd:12.0f}")
            if per.get("ours") and per.get("reference"):
                print(f"{mode:11s} ratio reference/ours (cpu per delta): {per['reference'] / per['ours']:.1f}x")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
