#!/usr/bin/env python3
"""extparity.py (../shared/conformance) with four harness fixes, for local
runs until they are made there (shared/ is read-only from this repository):

    python3 e2e/extparity/run.py --pi ./pi --ref "$REF" --examples \
        --fallback-call 'bash:{"command": "echo extparity"}' -j 2

Every argument is extparity.py's. What changes:

1. (Retired.) The reference's built-in extensions used to be turned off on
   both sides, while this build lacked builtin:llama.cpp's /llama. Every
   built-in is built now, so both sides run with their defaults and
   get_commands (/llama, /mcp) is compared too.
2. Tool updates are merged after the fire-and-forget UI requests are taken
   out of a step's events, not before. A spinner's setTitle (an 80 ms
   timer) that happens to land between a tool's two
   tool_execution_update records kept the two apart, so the comparison
   depended on how fast the reference ran (titlebar-spinner.ts).
3. The settle window after agent_settled is 600 ms instead of 300 ms. An
   extension that calls ctx.shutdown() makes both binaries exit; the
   reference takes 100-350 ms to do so, ours a few, so with 300 ms the
   step's status ("ok" or "exited") depended on the reference's speed
   (shutdown-command.ts).
4. Fire-and-forget UI updates are compared as one sequence over the whole
   run, not step by step (unless --strict-ui). An update sent when a
   background task finishes lands in whichever step is running then: the
   setStatus that pi-llamacpp-infra sends after probing for servers at
   session_start came before the get_commands answer in the reference, which
   took 7 s to start under load, and during the first prompt in ours, which
   answered get_commands in 0.5 s; what was sent, and in which order, is the
   same.
5. Within a tool execution (tool_execution_start to its end) the tool's
   updates count as one: whether it sent any is compared, not where each
   landed. A tool that updates from a timer (pi-subagents' Agent tool ticks
   an 80 ms spinner while its sub-agent runs) sends them between any two
   records of its run, so an entry_appended of the same run came after the
   last update in the reference and before one in ours, by timing alone.
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.environ.get("PI_CONFORMANCE_DIR", os.path.join(HERE, "..", "..", "..", "shared", "conformance"))
sys.path.insert(0, CONF)
import extparity  # noqa: E402  (path set just above)


_build_scenario = extparity.build_scenario


def build_scenario(*args, **kwargs) -> dict:
    sc = _build_scenario(*args, **kwargs)
    for step in sc.get("steps", []):
        wait = step.get("wait")
        if isinstance(wait, dict) and "settle_ms" in wait:
            wait["settle_ms"] = max(wait["settle_ms"], 600)
            wait["settle_max_ms"] = max(wait.get("settle_max_ms", 0), 1200)
    return sc


_split_events = extparity.split_events


def split_events(sigs: list[str], strict_ui: bool) -> tuple[list[str], list[str]]:
    events, ui = _split_events(sigs, strict_ui)
    merged: list[str] = []
    for s in events:
        if merged and s == merged[-1] and s.startswith("tool_execution_update"):
            continue
        merged.append(s)
    return one_update_per_tool_run(merged), ui


def one_update_per_tool_run(sigs: list[str]) -> list[str]:
    """Drop the tool updates between a tool_execution_start and the end of
    every tool it overlaps, and put one right after that start when there
    were any."""
    out: list[str] = []
    depth, start_at, had_update = 0, -1, False
    for s in sigs:
        if s.startswith("tool_execution_start"):
            if depth == 0:
                out.append(s)
                start_at, had_update = len(out), False
                depth = 1
                continue
            depth += 1
        elif s.startswith("tool_execution_update") and depth > 0:
            had_update = True
            continue
        elif s.startswith("tool_execution_end") and depth > 0:
            depth -= 1
            if depth == 0 and had_update:
                out.insert(start_at, "tool_execution_update")
        out.append(s)
    if depth > 0 and had_update:
        out.insert(start_at, "tool_execution_update")
    return out


_compare_features = extparity.compare_features


def whole_run_ui(feat) -> list[str]:
    """The UI updates of every step, in step order, repeats collapsed."""
    seq: list[str] = []
    for idx in sorted(feat.steps):
        seq += feat.steps[idx].get("ui") or []
    return extparity.collapse(seq)


def compare_features(ref, cand, ext_dir=None) -> list[str]:
    ui_ref, ui_cand = whole_run_ui(ref), whole_run_ui(cand)
    saved = [(st, st.get("ui")) for f in (ref, cand) for st in f.steps.values()]
    for st, _ in saved:
        st["ui"] = []
    try:
        problems = _compare_features(ref, cand, ext_dir)
    finally:
        for st, ui in saved:
            st["ui"] = ui
    if ui_ref != ui_cand:
        problems.append(f"UI updates over the run: {extparity.seq_diff(ui_ref, ui_cand)}")
    return problems


extparity.build_scenario = build_scenario
extparity.split_events = split_events
extparity.compare_features = compare_features

if __name__ == "__main__":
    sys.exit(extparity.main())
