#!/usr/bin/env bash
# Builds the two "floor" binaries the RPC-ready figure is read against:
#
#   bench/floor.sh OUTDIR
#
#   OUTDIR/hello  a Go program that prints one line (the Go runtime's own
#                 start and exit on this machine)
#   OUTDIR/deps   the same program linking every non-test dependency of
#                 ./cmd/pi (blank imports, so each package's init runs)
#                 but none of pi's own packages
#
# spawn -> exit of deps is what any binary with pi's dependencies pays
# before its main runs; pi's ready time minus that is what pi's own code
# costs. bench/rpc.sh --floor prints both.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$(mkdir -p "$1" && cd "$1" && pwd)"
GEN="$ROOT/bench/.floor"
trap 'rm -rf "$GEN"' EXIT
mkdir -p "$GEN/hello" "$GEN/deps"
body='func main() { os.Stdout.WriteString("ready\n") }'
printf 'package main\n\nimport "os"\n\n%s\n' "$body" >"$GEN/hello/main.go"
{
  printf 'package main\n\nimport (\n\t"os"\n'
  (cd "$ROOT" && go list -deps ./cmd/pi) |
    grep -vE '(^|/)internal(/|$)|^vendor/|^github.com/pi-go/|^runtime|^unsafe$|^main$|^os$' |
    sed 's/.*/\t_ "&"/'
  printf ')\n\n%s\n' "$body"
} >"$GEN/deps/main.go"
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$OUT/hello" ./bench/.floor/hello && CGO_ENABLED=0 go build -o "$OUT/deps" ./bench/.floor/deps)
