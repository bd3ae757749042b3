package jsruntime

import (
	"strings"
	"testing"
)

// TestTimersFireInDeadlineOrder blocks the loop until three timers are all
// due, so their wake-ups queue up together: they must still run in
// deadline order (ties in creation order), as Node runs them, whatever
// order the Go runtime delivered the wake-ups in.
func TestTimersFireInDeadlineOrder(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `
export default function () {
  const out: string[] = [];
  setTimeout(() => out.push("b5"), 5);
  setTimeout(() => out.push("a1"), 1);
  setTimeout(() => out.push("c0"), 0);
  const iv = setInterval(() => { out.push("i2"); clearInterval(iv); }, 2);
  const end = Date.now() + 30;
  while (Date.now() < end) {}
  setTimeout(() => console.error("order " + out.join(",")), 40);
}
`})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	if got := h.stderr.String(); !strings.Contains(got, "order a1,c0,i2,b5\n") {
		t.Fatalf("timer order: %q, want a1,c0,i2,b5", got)
	}
}
