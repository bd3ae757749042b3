package startmem

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestStartMemoryRestores checks that the collector settings paused for a
// start with extensions come back exactly, and that a start without
// extensions leaves them alone. Not parallel: it changes process-wide GC
// settings.
func TestStartMemoryRestores(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	})

	done := Start(false)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("without extensions the GC percent changed to %d", got)
	}
	done()

	done = Start(true)
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("during a start with extensions the GC percent is %d, want -1 (paused)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != startMemLimit {
		t.Fatalf("memory limit during start = %d, want %d", got, startMemLimit)
	}
	done()
	if got := debug.SetGCPercent(-1); got != 100 {
		t.Fatalf("after start the GC percent is %d, want 100", got)
	}
	debug.SetGCPercent(100)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("after start the memory limit is %d, want none", got)
	}
}
