package jsruntime

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestWatchdogSparesCompilation loads an extension whose bundle takes far
// longer to compile than the watchdog allows but whose module body runs in
// microseconds (it only defines functions). The watchdog bounds JS that runs
// without yielding; compiling is not running JS, so the extension must load.
// Before the bundle was compiled outside the loop task, the timer fired
// during compilation and the module was interrupted at its first statement.
func TestWatchdogSparesCompilation(t *testing.T) {
	t.Parallel()
	const limit = 100 * time.Millisecond
	var src strings.Builder
	src.WriteString("export default function (pi) { pi.registerCommand(\"big\", { description: \"d\", handler: async () => {} }); }\n")
	// About 320 kB of statements in 40 functions: hundreds of milliseconds
	// to compile, nothing to run until they are called. Exporting them keeps
	// the bundler from dropping them.
	const funcs = 40
	body := strings.Repeat("x += 1; ", 1000)
	for i := 0; i < funcs; i++ {
		fmt.Fprintf(&src, "export function f%d() { let x = 0; %s return x; }\n", i, body)
	}
	t0 := time.Now()
	h := runTS(t, map[string]string{"ext.ts": src.String()}, func(o *LoadOptions) { o.Watchdog = limit })
	if len(h.loadErrs) != 0 {
		t.Fatalf("load errors = %v (load took %s, watchdog %s)", h.loadErrs, time.Since(t0), limit)
	}
	if elapsed := time.Since(t0); elapsed < limit {
		// The case proves nothing if the whole load fits in the limit.
		t.Logf("load took only %s; compilation did not outlast the watchdog here", elapsed)
	}
}
