#!/usr/bin/env bash
# Local benchmark (not CI): `pi install npm:pi-big` (20 transitive
# dependencies) from a fake registry on 127.0.0.1, ours against the
# reference (which runs npm), side by side, each into a fresh HOME (npm's
# cache included, so both download everything).
#   packages/testdata/bench.sh [path/to/our/pi] [runs]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ours="${1:-$here/../../pi}"
runs="${2:-5}"
ref="$(/work/shared/conformance/install-reference.sh 2>/dev/null | tail -1)"
port=$((40000 + RANDOM % 20000))
python3 "$here/fakeregistry.py" "$port" 2>/dev/null &
regpid=$!
trap 'kill $regpid' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/pi-big" >/dev/null && break; sleep 0.1; done
export npm_config_registry="http://127.0.0.1:$port/"
time_one() { # binary
  local h; h="$(mktemp -d)"; mkdir -p "$h/p"
  local t0 t1; t0=$(date +%s%N)
  (cd "$h/p" && HOME="$h" $1 install npm:pi-big >/dev/null 2>&1)
  t1=$(date +%s%N)
  test -d "$h/.pi/agent/npm/node_modules/dep-19" || { echo "install failed" >&2; exit 1; }
  rm -rf "$h"
  echo $(( (t1 - t0) / 1000000 ))
}
o=(); r=()
for _ in $(seq "$runs"); do o+=("$(time_one "$ours")"); r+=("$(time_one "$ref")"); done
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mo=$(med "${o[@]}"); mr=$(med "${r[@]}")
echo "ours:      ${o[*]} ms (median $mo)"
echo "reference: ${r[*]} ms (median $mr)"
awk -v a="$mr" -v b="$mo" 'BEGIN { printf "ratio: %.1fx faster\n", a / b }'
