package jsruntime

import (
	"strings"
	"testing"
)

// TestTimersFireInDeadlineOrder blocks the loop until three timers are all
// due, so their wake-ups queue up together: they must still run in
// deadline order (ties in creation order), as Node runs them, whatever
// order the Go runtime delivered the wake-ups in. The deadlines lie tens of
// milliseconds apart so that a stall between two setTimeout calls on a
// loaded machine (which moves a deadline in Node too) cannot reorder them.
func TestTimersFireInDeadlineOrder(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `
export default function () {
  const out: string[] = [];
  setTimeout(() => out.push("b60"), 60);
  setTimeout(() => out.push("a1"), 1);
  setTimeout(() => out.push("c0"), 0);
  const iv = setInterval(() => { out.push("i30"); clearInterval(iv); }, 30);
  const end = Date.now() + 100;
  while (Date.now() < end) {}
  setTimeout(() => console.error("order " + out.join(",")), 120);
}
`})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	if got := h.stderr.String(); !strings.Contains(got, "order a1,c0,i30,b60\n") {
		t.Fatalf("timer order: %q, want a1,c0,i30,b60", got)
	}
}
