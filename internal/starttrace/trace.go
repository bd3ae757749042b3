// Package starttrace prints how long each start-up step took, to stderr,
// when PI_TRACE_STARTUP is set. It exists to keep the start path
// measurable: the RPC-ready budget is a few milliseconds and each step
// must show its cost. Both the command and the root package mark steps,
// so the clock lives here, shared.
package starttrace

import (
	"fmt"
	"os"
	"time"
)

var on = os.Getenv("PI_TRACE_STARTUP") != ""

var (
	t0   = time.Now()
	last = t0
)

// Step records the end of one named step.
func Step(name string) {
	if !on {
		return
	}
	now := time.Now()
	fmt.Fprintf(os.Stderr, "trace %-28s %7.2f ms (at %7.2f ms)\n", name, float64(now.Sub(last).Microseconds())/1000, float64(now.Sub(t0).Microseconds())/1000)
	last = now
}
