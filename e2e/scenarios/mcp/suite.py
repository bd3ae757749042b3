#!/usr/bin/env python3
"""suite.py (../shared/conformance) for the scenarios of this folder,
with two normalisations the shared harness lacks (shared/ is read-only
from this repository), applied to both sides alike:

1. The tools of pi 1.6.0's built-in extensions (codemode, tool_search and
   the MCP resource tools) count as pi's built-in tools, so their
   descriptions are pi's prose: each binary writes its own words, and the
   skeleton keeps names, types and property order. The harness knows
   only the core tools.
2. codemode's "Wall time N seconds" line becomes "Wall time <SECONDS>
   seconds": it is a measurement, like the durations the harness already
   replaces.

    python3 e2e/scenarios/mcp/suite.py --pi ./pi                # ours against expected/
    python3 e2e/scenarios/mcp/suite.py --pi "$REF" --update-expected

Every other argument is suite.py's; --scenarios and --expected default to
this folder and its expected/.
"""
from __future__ import annotations

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.environ.get("PI_CONFORMANCE_DIR", os.path.join(HERE, "..", "..", "..", "..", "shared", "conformance"))
sys.path.insert(0, CONF)
import normalize  # noqa: E402  (path set just above)

normalize.BUILTIN_TOOLS = normalize.BUILTIN_TOOLS | {
    "codemode", "tool_search", "list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"}

WALL_RE = re.compile(r"Wall time \d+(?:\.\d+)? seconds")
_string = normalize.Normalizer.string


def string(self, s: str) -> str:
    return WALL_RE.sub("Wall time <SECONDS> seconds", _string(self, s))


normalize.Normalizer.string = string

import suite  # noqa: E402

if __name__ == "__main__":
    args = sys.argv[1:]
    if not any(a == "--scenarios" or a.startswith("--scenarios=") for a in args):
        args += ["--scenarios", HERE]
    sys.argv = [sys.argv[0]] + args
    sys.exit(suite.main())
