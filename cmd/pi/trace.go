package main

import (
	"fmt"
	"os"
	"time"
)

// startTrace, when PI_TRACE_STARTUP is set, prints how long each startup
// step took to stderr. It exists to keep the start path measurable: the
// RPC-ready budget is a few milliseconds and each step must show its cost.
var startTrace = newStepTrace(os.Getenv("PI_TRACE_STARTUP") != "")

type stepTrace struct {
	on   bool
	t0   time.Time
	last time.Time
}

func newStepTrace(on bool) *stepTrace {
	now := time.Now()
	return &stepTrace{on: on, t0: now, last: now}
}

// step records the end of one named step.
func (t *stepTrace) step(name string) {
	if !t.on {
		return
	}
	now := time.Now()
	fmt.Fprintf(os.Stderr, "trace %-28s %7.2f ms (at %7.2f ms)\n", name, float64(now.Sub(t.last).Microseconds())/1000, float64(now.Sub(t.t0).Microseconds())/1000)
	t.last = now
}
