package jsruntime

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
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

// TestTimerWakeupNotLost replays what a busy machine does to two due
// timers: the Go timer of one (an interval that clears itself) has not
// fired yet when the other's wake-up arrives and runs it first, as the
// earlier due. Clearing the interval stops its Go timer, so its wake-up is
// gone; the other timer must still run, and the loop go idle. With one
// wake-up per arm and nothing more, the second timer never ran and the
// loop stayed busy (fs.watchFile's goldens hung a few runs in a hundred).
func TestTimerWakeupNotLost(t *testing.T) {
	t.Parallel()
	vm := goja.New()
	l := newLoop(vm, time.Second, nil)
	t.Cleanup(l.Close)
	ran := make(chan string, 2)
	err := l.Do(context.Background(), func(vm *goja.Runtime) error {
		l.installTimers(vm)
		_ = vm.Set("note", func(s string) { ran <- s })
		if _, err := vm.RunString(`
			const iv = setInterval(() => { note("interval"); clearInterval(iv); }, 5000);
			setTimeout(() => note("timeout"), 5000);
		`); err != nil {
			return err
		}
		// Neither Go timer will fire; both timers are due now, the
		// interval first. One wake-up arrives, as the timeout's would.
		now := time.Now()
		for _, tm := range l.timers {
			tm.t.Stop()
			tm.due = now.Add(-time.Duration(3-tm.id) * time.Millisecond)
		}
		l.enqueue(task{event: "timer", fn: func(*goja.Runtime) { l.fireDue() }})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := l.WaitIdle(ctx); err != nil {
		t.Fatalf("loop not idle: %v", err)
	}
	close(ran)
	var got []string
	for s := range ran {
		got = append(got, s)
	}
	if len(got) != 2 || got[0] != "interval" || got[1] != "timeout" {
		t.Errorf("ran %v, want [interval timeout]", got)
	}
}
