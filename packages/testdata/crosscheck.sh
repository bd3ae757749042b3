#!/usr/bin/env bash
# Local check (not CI): installs made by the reference load in ours and the
# reverse, against a fake registry on 127.0.0.1 (no network). Needs the
# reference (../../../shared/conformance/install-reference.sh) and npm.
#   packages/testdata/crosscheck.sh [path/to/our/pi]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ours="${1:-$here/../../pi}"
ref="$(/work/shared/conformance/install-reference.sh 2>/dev/null | tail -1)"
port=$((40000 + RANDOM % 20000))
python3 "$here/fakeregistry.py" "$port" 2>/dev/null &
regpid=$!
trap 'kill $regpid' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/pi-hello" >/dev/null && break; sleep 0.1; done
export npm_config_registry="http://127.0.0.1:$port/"
work="$(mktemp -d)"
names() { python3 -c 'import json,sys
for line in sys.stdin:
    d=json.loads(line)
    if d.get("id")=="1": print(" ".join(sorted(c["name"] for c in d["data"]["commands"] if c["sourceInfo"].get("origin")=="package")))'; }
cmds() { echo '{"type":"get_commands","id":"1"}' | HOME="$1" $2 --mode rpc 2>/dev/null | names; }
fail=0
check() { if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got '$2' want '$3'"; fail=1; fi; }

mkdir -p "$work/a/p" "$work/b/p"
cd "$work/a/p"
echo "-- the reference installs, ours loads, updates and removes"
HOME="$work/a" $ref install npm:pi-hello >/dev/null 2>&1
check "ours loads the reference's install" "$(cmds "$work/a" "$ours")" "hello skill:greet wave"
check "ours lists it" "$(HOME="$work/a" "$ours" list | head -2 | tail -1)" "  npm:pi-hello"
check "ours updates it" "$(HOME="$work/a" "$ours" update --extensions)" "Packages are already up to date"
HOME="$work/a" "$ours" remove npm:pi-hello >/dev/null
check "ours removed it" "$(cmds "$work/a" "$ref")" ""

cd "$work/b/p"
echo "-- ours installs, the reference loads, adds and removes"
HOME="$work/b" "$ours" install npm:pi-hello >/dev/null
check "the reference loads ours" "$(cmds "$work/b" "$ref")" "hello skill:greet wave"
HOME="$work/b" $ref install npm:@acme/tool >/dev/null 2>&1
HOME="$work/b" $ref remove npm:pi-hello >/dev/null 2>&1
check "npm kept our tree" "$(HOME="$work/b" "$ours" list | grep -c npm:)" "1"
check "both load the same" "$(cmds "$work/b" "$ours")" "$(cmds "$work/b" "$ref")"
rm -rf "$work"
exit $fail
