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
