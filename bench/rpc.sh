#!/usr/bin/env bash
# RPC benchmarks of our pi against the reference, side by side in one run:
#
#   bench/rpc.sh [-n RUNS] [--ours PATH] [--ref "CMD"] [--no-ref] [--go] [--floor]
#
# (a) ready: spawn `pi --mode rpc --no-session` → get_state answered → exit,
#     median times and peak RSS (the child's ru_maxrss from wait4).
# (b) 10,000 one-character text deltas streamed through RPC from a mock
#     that writes the whole SSE body at once: deltas per second, the
#     stream's own CPU, and the mock's time per request (the harness's share).
# (c) tool turn: tool_execution_end -> next message_start, client side.
# (d) 10,000 pipelined get_state then EOF: time to exit, CPU, answers.
# --floor also times two floor binaries (bench/floor.sh): a Go hello world
# and one that links every dependency of pi but none of its code.
# --go also runs the Go benchmarks of the event-writing path (engine/rpc).
# Prints medians and the ratio reference/ours ("ours adv": >1 means ours is
# faster or smaller). The machine should be otherwise idle.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CONF="${PI_CONFORMANCE_DIR:-$ROOT/../shared/conformance}"
RUNS=20
OURS=""
REF=""
NOREF=0
GOBENCH=0
FLOOR=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) RUNS="$2"; shift 2 ;;
    --ours) OURS="$2"; shift 2 ;;
    --ref) REF="$2"; shift 2 ;;
    --no-ref) NOREF=1; shift ;;
    --go) GOBENCH=1; shift ;;
    --floor) FLOOR=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [[ -z "$OURS" ]]; then
  OURS="$WORK/pi"
  (cd "$ROOT" && CGO_ENABLED=0 go build -o "$OURS" ./cmd/pi)
fi
args=(--ours "$OURS" -n "$RUNS")
if [[ "$NOREF" == 0 ]]; then
  if [[ -z "$REF" ]]; then REF="$("$CONF/install-reference.sh")"; fi
  args+=(--ref "$REF")
fi
if [[ "$FLOOR" == 1 ]]; then
  "$ROOT/bench/floor.sh" "$WORK/floor"
  args+=(--floor "$WORK/floor")
fi
PI_CONFORMANCE_DIR="$CONF" python3 "$ROOT/bench/rpcbench.py" "${args[@]}"
if [[ "$GOBENCH" == 1 ]]; then
  (cd "$ROOT" && go test -run '^$' -bench . -benchtime 100000x ./engine/rpc/)
fi
