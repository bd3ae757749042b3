#!/usr/bin/env bash
# Local check against the REAL npm registry (network; never run by CI or
# go test): our binary installs npm:pi-aliases, shows its commands in
# get_commands, lists, updates and removes it, in a throwaway HOME.
#   packages/testdata/live.sh [path/to/our/pi] [npm:package]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ours="${1:-$here/../../pi}"
pkg="${2:-npm:pi-aliases}"
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/p" && cd "$home/p"
run() { echo "\$ pi $*"; HOME="$home" "$ours" "$@"; }
run install "$pkg"
echo '$ pi --mode rpc <<< get_commands'
echo '{"type":"get_commands","id":"1"}' | HOME="$home" "$ours" --mode rpc 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    if d.get("id") == "1":
        for c in d["data"]["commands"]:
            print("  ", c["name"], "(" + c["source"] + ", " + c["sourceInfo"].get("source", "") + ")")'
run list
run update --extensions
run remove "$pkg"
run list
