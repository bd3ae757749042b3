#!/usr/bin/env python3
"""`pi mcp list` (text and --json) against expected/cli_*.txt, recorded
from the reference: a home whose ~/.pi/agent/mcp.json has a stdio server
(mcp_echo.py, direct exposure) and an HTTP server whose header names an
unset environment variable.

    python3 cli.py --pi "$REF" --record     # writes expected/cli_*.txt
    python3 cli.py --pi ./pi                # compares, exit 1 on a difference

Temp paths become <HOME>; the environment is the harness's (PI_OFFLINE=1,
no API keys).
"""
from __future__ import annotations

import argparse
import difflib
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
MCP_JSON = """{"mcpServers": {
  "echo": {"command": "python3", "args": ["mcp_echo.py"], "exposure": "direct"},
  "web": {"url": "http://127.0.0.1:9/mcp", "headers": {"X-Key": "${PI_CLI_UNSET_KEY}"}}
}}
"""
CASES = {"cli_list": ["mcp", "list"], "cli_list_json": ["mcp", "list", "--json"]}


def run(pi: list[str], args: list[str]) -> str:
    root = os.path.realpath(tempfile.mkdtemp(prefix="pi-mcpcli-"))
    try:
        agent = os.path.join(root, "home", ".pi", "agent")
        proj = os.path.join(root, "project")
        os.makedirs(agent)
        os.makedirs(proj)
        pathlib.Path(agent, "mcp.json").write_text(MCP_JSON)
        shutil.copy(HERE / "mcp_echo.py", proj)
        env = {"PATH": os.environ.get("PATH", ""), "HOME": os.path.join(root, "home"), "PI_OFFLINE": "1",
               "TMPDIR": root, "LANG": "C.UTF-8"}
        p = subprocess.run(pi + args, cwd=proj, env=env, capture_output=True, text=True, timeout=120)
        out = f"exit {p.returncode}\n--- stdout\n{p.stdout}--- stderr\n{p.stderr}"
        return out.replace(root, "<ROOT>")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pi", required=True, help="pi command line")
    ap.add_argument("--record", action="store_true")
    a = ap.parse_args()
    pi = shlex.split(a.pi)
    if os.path.exists(pi[0]):
        pi[0] = os.path.abspath(pi[0])
    failed = 0
    for name, args in CASES.items():
        got = run(pi, args)
        path = HERE / "expected" / f"{name}.txt"
        if a.record:
            path.write_text(got)
            print(f"recorded {name}")
            continue
        want = path.read_text()
        if got == want:
            print(f"PASS {name}")
            continue
        failed += 1
        print(f"FAIL {name}")
        sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "reference", "candidate"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
