#!/usr/bin/env bash
# Side-by-side timing of our pi and the reference pi, in one run.
#
#   bench/run.sh [-n RUNS] [--ours PATH] [--ref "CMD"]
#
# (a) start-up: spawn `pi --mode rpc`, send {"type":"get_state"}, wait for
#     the response, close stdin, wait for exit.
# (b) print mode: `pi -p` with one tool call (bash "echo hi") and a final
#     answer, against the conformance mock LLM (mockllm.py).
# Prints the median wall time of each and the ratio reference/ours.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CONF="${PI_CONFORMANCE_DIR:-$ROOT/../shared/conformance}"
RUNS=10
OURS=""
REF=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) RUNS="$2"; shift 2 ;;
    --ours) OURS="$2"; shift 2 ;;
    --ref) REF="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

WORK="$(mktemp -d)"
MOCK_PID=""
cleanup() {
  if [[ -n "$MOCK_PID" ]]; then kill "$MOCK_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

if [[ -z "$OURS" ]]; then
  OURS="$WORK/pi"
  (cd "$ROOT" && CGO_ENABLED=0 go build -o "$OURS" ./cmd/pi)
fi
if [[ -z "$REF" ]]; then
  REF="$("$CONF/install-reference.sh")"
fi

# start_mock SCRIPT: starts mockllm.py on a free port, sets PORT and MOCK_PID.
start_mock() {
  local portfile="$WORK/port.$RANDOM"
  python3 "$CONF/mockllm.py" --script "$1" --log "$WORK/requests.jsonl" --port-file "$portfile" >/dev/null &
  MOCK_PID=$!
  for _ in $(seq 1 100); do [[ -s "$portfile" ]] && break; sleep 0.05; done
  PORT="$(cat "$portfile")"
}

stop_mock() { kill "$MOCK_PID" 2>/dev/null || true; wait "$MOCK_PID" 2>/dev/null || true; MOCK_PID=""; }

# make_home NAME: builds a throwaway HOME pointing at the mock; prints it.
make_home() {
  python3 "$CONF/pihome.py" --port "$PORT" --dir "$WORK/$1" | sed -n 's/^HOME=//p'
}

# bench_rpc NAME CMD: median ms of spawn → get_state response → exit
# (timed by bench/timeit.py, which spawns CMD directly: no shell or
# date(1) calls inside the measured interval).
bench_rpc() {
  local name="$1" cmd="$2" home
  home="$(make_home "rpc-$name")"
  mkdir -p "$WORK/proj-$name"
  local r
  r="$(python3 "$ROOT/bench/timeit.py" -n "$RUNS" --cwd "$WORK/proj-$name" --home "$home" \
    --stdin '{"id":"s","type":"get_state"}' --expect '"command":"get_state"' "$cmd" -- --mode rpc --no-session)"
  if [[ "$r" == "fail" ]]; then echo "skip"; else echo "$r"; fi
}

# bench_print NAME CMD: median ms of a print-mode prompt with one tool call.
bench_print() {
  local name="$1" cmd="$2" home
  local script="$WORK/script-$name.json"
  python3 - "$RUNS" >"$script" <<'PY'
import json, sys
n = int(sys.argv[1])
turns = []
for _ in range(n):
    turns.append({"tool_calls": [{"name": "bash", "arguments": {"command": "echo hi"}}]})
    turns.append({"text": "Tool said: hi"})
print(json.dumps({"turns": turns}))
PY
  start_mock "$script"
  home="$(make_home "print-$name")"
  mkdir -p "$WORK/proj-$name"
  local r
  r="$(python3 "$ROOT/bench/timeit.py" -n "$RUNS" --cwd "$WORK/proj-$name" --home "$home" \
    --expect-exact "Tool said: hi" "$cmd" -- --no-session -p 'Please run the tool')"
  stop_mock
  echo "$r"
}

ratio() {
  if [[ "$1" =~ ^[0-9]+$ && "$2" =~ ^[0-9]+$ && "$2" -gt 0 ]]; then
    awk -v r="$1" -v o="$2" 'BEGIN {printf "%.1fx", r/o}'
  else
    echo "n/a"
  fi
}

PORT=1  # rpc start-up needs no LLM; the home only has to exist.
printf 'runs per case: %s\n' "$RUNS"
printf '%-34s %10s %10s %8s\n' "case" "ours(ms)" "ref(ms)" "ref/ours"
a_ours="$(bench_rpc ours "$OURS")"
a_ref="$(bench_rpc ref "$REF")"
if [[ "$a_ours" == "skip" ]]; then
  echo "note: (a) skipped for ours: --mode rpc does not answer get_state yet" >&2
fi
printf '%-34s %10s %10s %8s\n' "(a) rpc spawn+get_state+exit" "$a_ours" "$a_ref" "$(ratio "$a_ref" "$a_ours")"
b_ours="$(bench_print ours "$OURS")"
b_ref="$(bench_print ref "$REF")"
printf '%-34s %10s %10s %8s\n' "(b) print mode, one tool call" "$b_ours" "$b_ref" "$(ratio "$b_ref" "$b_ours")"
