#!/usr/bin/env bash
# Startup with five reference example extensions loaded (-e ×5), ours
# against the reference, cold and warm transpile cache:
#
#   bench/ext.sh [-n RUNS] [--ours PATH] [--ref "CMD"] [--no-ref]
#
# Builds ./pi unless --ours is given. See bench/extbench.py.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CONF="${PI_CONFORMANCE_DIR:-$ROOT/../shared/conformance}"
RUNS=15 OURS="" REF="" NOREF=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) RUNS="$2"; shift 2 ;;
    --ours) OURS="$2"; shift 2 ;;
    --ref) REF="$2"; shift 2 ;;
    --no-ref) NOREF=1; shift ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [[ -z "$OURS" ]]; then
  OURS="$(mktemp -d)/pi"
  (cd "$ROOT" && go build -o "$OURS" ./cmd/pi)
fi
if [[ $NOREF -eq 0 && -z "$REF" ]]; then
  REF="$("$CONF/install-reference.sh")"
fi
args=(--ours "$OURS" -n "$RUNS")
[[ $NOREF -eq 0 ]] && args+=(--ref "$REF")
exec python3 "$ROOT/bench/extbench.py" "${args[@]}"
