#!/usr/bin/env python3
"""Drive the reference pi and ours through the same keystrokes in tmux, and diff the screens.

Local tool for issue 15 (not run in CI: it needs tmux and the reference). Each binary gets its own
mock LLM (the conformance mockllm.py, same script) and its own throwaway HOME (pihome.py), runs in
its own tmux session of the same size, and receives the same keys step by step. After each step the
script waits until the screen is still, captures it, normalises what legitimately differs (paths,
versions, spinner frames, durations, ids) and writes both screens and a unified diff.

  python3 e2e/tuiside/sidebyside.py --pi ./pi [--ref "$(../shared/conformance/install-reference.sh)"]
         [--out /tmp/tuiside] [--mode fullscreen|regular] [--size 120x40] [--steps start,prompt,...]

The last line printed is a summary: steps compared and how many differ. Run with --pi pointing at a
wrapper of the reference itself to check the harness: it reports 0 differ.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "conformance"))
sys.path.insert(0, CONF)
import pihome  # noqa: E402

SCRIPT = {
    "turns": [
        {"thinking": "The user wants a demo of markdown.",
         "text": "# Demo heading\n\nHere is **bold**, *italic*, `inline code` and a [link](https://example.com).\n\n"
                 "- first item\n- second item\n    - nested item\n\n1. one\n2. two\n\n> a quote line\n\n"
                 "```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n| col A | col B |\n|---|---|\n| 1 | two |\n\n---\n\nDone."},
        {"text": "I will run a command.", "tool_calls": [{"name": "bash", "arguments": {"command": "printf 'a\\nb\\nc\\nd\\ne\\nf\\ng\\nh\\ni\\nj\\nk\\nl\\n'"}}]},
        {"text": "The command printed twelve letters."},
        {"text": "Editing the greeting.", "tool_calls": [{"name": "edit", "arguments": {"path": "greeting.txt", "edits": [{"oldText": "hello world", "newText": "hello conformance"}]}}]},
        {"text": "The greeting was changed."},
        {"text": "A slow reply that streams for a while so that we can steer it before it ends. " * 3, "chunk_size": 4, "delay_ms": 60},
        {"text": "Brief now."},
        {"hang_ms": 20000},
    ],
    "fallback_text": "Mock script exhausted.",
}

# Each step: name, list of key groups (tmux send-keys arguments; "TEXT:..." is sent literally),
# and a pause in seconds before capturing (the screen must also be still).
STEPS = [
    ("start", [], 0),
    ("prompt", ["TEXT:Show me some markdown please", "Enter"], 0),
    ("tool_call", ["TEXT:Run a command", "Enter"], 0),
    ("edit_diff", ["TEXT:Change the greeting", "Enter"], 0),
    ("steer", ["TEXT:Write a long slow reply", "Enter", "SLEEP:0.8", "TEXT:steer: be brief", "Enter"], 0),
    ("abort", ["TEXT:Now another slow one", "Enter", "SLEEP:0.8", "Escape"], 0),
    ("model", ["TEXT:/model", "Enter"], 0),
    ("model_close", ["Escape"], 0),
    ("tree", ["TEXT:/tree", "Enter"], 0),
    ("tree_close", ["Escape"], 0),
    ("resume", ["TEXT:/resume", "Enter"], 0),
    ("resume_close", ["Escape"], 0),
    ("settings", ["TEXT:/settings", "Enter"], 0),
    ("settings_close", ["Escape"], 0),
    ("quit", ["TEXT:/quit", "Enter"], 0),
]

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def tmux(sock: str, *args: str, check: bool = True) -> str:
    r = subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def capture(sock: str, target: str) -> str:
    return tmux(sock, "capture-pane", "-p", "-t", target)


def settle(sock: str, target: str, quiet: float = 0.6, limit: float = 15.0) -> str:
    """Poll the pane until it has not changed for `quiet` seconds (spinner frames ignored)."""
    last, since, start = None, time.time(), time.time()
    while True:
        cur = capture(sock, target)
        norm = re.sub(f"[{SPINNER}]", "*", cur)
        if norm != last:
            last, since = norm, time.time()
        elif time.time() - since >= quiet:
            return cur
        if time.time() - start > limit:
            return cur
        time.sleep(0.1)


def normalise(screen: str, root: str) -> list[str]:
    s = screen.replace(root, "<root>")
    s = re.sub(f"[{SPINNER}]", "*", s)
    s = re.sub(r"v\d+\.\d+\.\d+\S*", "vX", s)
    s = re.sub(r"Took \d+\.\d+s", "Took N.Ns", s)
    s = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>", s)
    s = re.sub(r"\b\d+(s|m|h|d)( ago)?$|\bnow$", "<age>", s, flags=re.M)
    return [ln.rstrip() for ln in s.rstrip("\n").split("\n")]


class Side:
    def __init__(self, name: str, cmd: list[str], base: str, sock: str, size: tuple[int, int], mode: str):
        self.name, self.sock = name, sock
        self.root = os.path.join(base, name)
        os.makedirs(self.root, exist_ok=True)
        script = os.path.join(self.root, "script.json")
        with open(script, "w") as f:
            json.dump(SCRIPT, f)
        portfile = os.path.join(self.root, "port")
        self.mock = subprocess.Popen([sys.executable, os.path.join(CONF, "mockllm.py"), "--script", script,
                                      "--port-file", portfile, "--log", os.path.join(self.root, "requests.jsonl")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 10
        while not os.path.exists(portfile):
            if time.time() > deadline:
                raise RuntimeError("mock LLM did not start")
            time.sleep(0.05)
        port = int(open(portfile).read().strip())
        h = pihome.build_home(self.root, port, model={"reasoning": True, "contextWindow": 128000},
                              settings={"tuiMode": mode}, extra_models=[{"id": "mock-model-2", "reasoning": True}])
        env = pihome.child_env(h, {"TERM": "xterm-256color", "COLORTERM": "truecolor"})
        env.pop("NO_COLOR", None)
        proj = os.path.join(self.root, "project")
        os.makedirs(proj, exist_ok=True)
        with open(os.path.join(proj, "greeting.txt"), "w") as f:
            f.write("hello world\nline two\nline three\n")
        envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        # The shell stays after pi exits (instead of tmux's remain-on-exit),
        # so tmux reads all of pi's last output: with a dead pane it may
        # stop reading before the exit transcript has drained.
        shell = f"cd {shlex.quote(proj)} && env -i {envs} {' '.join(shlex.quote(c) for c in cmd)}; exec sleep 86400"
        tmux(sock, "new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]), "bash", "-c", shell)
        tmux(sock, "set-option", "-t", name, "remain-on-exit", "on")

    def send(self, keys: list[str]) -> None:
        for k in keys:
            if k.startswith("SLEEP:"):
                time.sleep(float(k[6:]))
            elif k.startswith("TEXT:"):
                tmux(self.sock, "send-keys", "-t", self.name, "-l", k[5:])
            else:
                tmux(self.sock, "send-keys", "-t", self.name, k)

    def close(self) -> None:
        tmux(self.sock, "kill-session", "-t", self.name, check=False)
        self.mock.terminate()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pi", required=True)
    ap.add_argument("--ref", default=os.environ.get("PI_REF", ""))
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "tuiside"))
    ap.add_argument("--mode", default="fullscreen", choices=("fullscreen", "regular"))
    ap.add_argument("--size", default="120x40")
    ap.add_argument("--steps", default="")
    a = ap.parse_args()
    if not shutil.which("tmux"):
        print("tmux not found (apt-get install tmux)", file=sys.stderr)
        return 2
    ref = a.ref or subprocess.run([os.path.join(CONF, "install-reference.sh")], capture_output=True,
                                  text=True, check=True).stdout.strip().splitlines()[-1]
    w, h = (int(x) for x in a.size.split("x"))
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    sock = f"tuiside{os.getpid()}"
    with open(os.path.join(sock_dir := a.out, "tmux.conf"), "w") as f:
        f.write("set -g extended-keys on\nset -g escape-time 10\n")
    tmux(sock, "-f", os.path.join(sock_dir, "tmux.conf"), "start-server", check=False)
    tmux(sock, "set-option", "-g", "extended-keys", "on", check=False)
    sides = [Side("ref", shlex.split(ref), a.out, sock, (w, h), a.mode),
             Side("ours", [os.path.abspath(a.pi)], a.out, sock, (w, h), a.mode)]
    # A loaded machine can take many seconds to start Node: wait for each
    # side's first real frame (the footer names the model) before typing.
    for s in sides:
        deadline = time.time() + 90
        while "mock-model" not in capture(sock, s.name) and time.time() < deadline:
            time.sleep(0.2)
    wanted = set(filter(None, a.steps.split(",")))
    differ = compared = 0
    try:
        for name, keys, pause in STEPS:
            for s in sides:
                s.send(keys)
            time.sleep(pause)
            screens = [normalise(settle(sock, s.name), s.root) for s in sides]
            if wanted and name not in wanted:
                continue
            compared += 1
            for s, scr in zip(sides, screens):
                with open(os.path.join(a.out, f"{name}.{s.name}.txt"), "w") as f:
                    f.write("\n".join(scr) + "\n")
            diff = list(difflib.unified_diff(screens[0], screens[1], "ref", "ours", lineterm="", n=1))
            changed = sum(1 for d in diff if d[:1] in "+-" and d[:3] not in ("+++", "---"))
            with open(os.path.join(a.out, f"{name}.diff"), "w") as f:
                f.write("\n".join(diff) + "\n")
            if changed:
                differ += 1
            print(f"{name:16s} {'same' if not changed else f'{changed} lines differ'}")
    finally:
        for s in sides:
            s.close()
        tmux(sock, "kill-server", check=False)
    print(f"sidebyside: {compared} steps compared, {differ} differ (screens and diffs in {a.out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
