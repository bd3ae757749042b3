package startmem

import (
	"math"
	"os"
	"runtime/debug"
)

// startMemLimit bounds the heap while the collector is paused during start:
// an extension that allocates without end at load still gets collected.
const startMemLimit = 256 << 20

// Start readies the process for a start that loads extensions and
// returns the function that restores normal collection once pi is about to
// serve. Loading extensions compiles ~100 KB of JavaScript and builds the
// runtimes' objects; nearly all of it stays live, so collecting during
// start only costs CPU, while every fresh 4 KiB heap page costs a page
// fault that is slow in virtual machines (~14 µs measured on the CI VM).
// So the collector pauses (bounded by startMemLimit) and, where the
// platform allows, the heap is backed by huge pages (heapHugePages).
// Set PI_START_GC=1 to keep the collector's defaults (for comparisons).
func Start(extensions bool) (done func()) {
	if !extensions || os.Getenv("PI_START_GC") != "" {
		return func() {}
	}
	// The collector pauses first: with its usual goal the scavenger would
	// hand the freed huge-page range back to the kernel in 4 KiB pieces.
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(startMemLimit)
	heapHugePages()
	return func() {
		debug.SetGCPercent(percent)
		if limit == startMemLimit {
			limit = math.MaxInt64
		}
		debug.SetMemoryLimit(limit)
	}
}
