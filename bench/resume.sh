#!/usr/bin/env bash
# Resume of a large session, ours against the reference, side by side:
#
#   bench/resume.sh [-n RUNS] [--size BYTES] [--ours PATH] [--ref "CMD"] [--no-ref]
#
# Generates a synthetic session (engine/session's generator: turns of
# prompts, tool calls and long tool results; 200 MB by default), then
# times `pi --mode rpc --session FILE` up to the get_state answer and
# reads peak RSS (bench/resume.py). Prints medians and ratios.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CONF="${PI_CONFORMANCE_DIR:-$ROOT/../shared/conformance}"
RUNS=5
SIZE=$((200 << 20))
OURS=""
REF=""
NOREF=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) RUNS="$2"; shift 2 ;;
    --size) SIZE="$2"; shift 2 ;;
    --ours) OURS="$2"; shift 2 ;;
    --ref) REF="$2"; shift 2 ;;
    --no-ref) NOREF=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [[ -z "$OURS" ]]; then
  OURS="$WORK/pi"
  (cd "$ROOT" && go build -o "$OURS" ./cmd/pi)
fi
SESSION="$WORK/session.jsonl"
(cd "$ROOT" && go test ./engine/session -run '^TestGenerateSession$' -count 1 -args -gen-session="$SESSION" -gen-size="$SIZE" >/dev/null)
CMDS=("$OURS")
if [[ $NOREF -eq 0 ]]; then
  [[ -n "$REF" ]] || REF="$("$CONF/install-reference.sh")"
  CMDS+=("$REF")
fi
python3 "$ROOT/bench/resume.py" -n "$RUNS" --session "$SESSION" "${CMDS[@]}"
