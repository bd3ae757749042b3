package jsruntime

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestWaitIdleWaitsForChainedCallbacks runs chains of reserved callbacks,
// each link reserving the next, and checks that WaitIdle never reports the
// loop idle before the last link has run. Waiters start while the chain is
// running, at arbitrary points of it, as a test harness's settle does. The
// two completions are the two shapes host code uses: a goroutine finishing
// work off the loop (fs, zlib, fetch), and a callback completed at once on
// the loop for its next turn (crypto's pbkdf2 and hkdf, setImmediate). The
// loop used to release a reservation and queue its task in two steps, and
// did not count the running task, so waiters here saw it idle mid-chain.
func TestWaitIdleWaitsForChainedCallbacks(t *testing.T) {
	t.Parallel()
	const rounds, links, waiters = 200, 20, 4
	cases := []struct {
		name     string
		complete func(done func(func(*goja.Runtime)), fn func(*goja.Runtime))
	}{
		{"off the loop", func(done func(func(*goja.Runtime)), fn func(*goja.Runtime)) { go done(fn) }},
		{"on the loop", func(done func(func(*goja.Runtime)), fn func(*goja.Runtime)) { done(fn) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			l := newLoop(goja.New(), time.Second, nil)
			t.Cleanup(l.Close)
			expired, stop := context.WithCancel(context.Background())
			stop()
			early := make(chan int64, rounds*(waiters+1))
			for r := 0; r < rounds; r++ {
				// A round is a few hundred microseconds; only a lost
				// wake-up takes seconds.
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				var ran atomic.Int64
				var wg sync.WaitGroup
				var link func(*goja.Runtime)
				link = func(*goja.Runtime) {
					if ran.Add(1) < links {
						c.complete(l.Reserve(), link)
					}
				}
				l.RunOnLoop(func(*goja.Runtime) {
					// From here until the chain ends the loop is busy, so
					// a waiter that returns before the last link is wrong.
					for range waiters {
						wg.Add(1)
						go func() {
							defer wg.Done()
							if err := l.WaitIdle(ctx); err == nil {
								if n := ran.Load(); n != links {
									early <- n
								}
							}
						}()
					}
					// A poller asks "idle now?" with an expired context
					// until the chain ends, to land between the steps of
					// a completion.
					wg.Add(1)
					go func() {
						defer wg.Done()
						for ran.Load() < links {
							if l.WaitIdle(expired) == nil {
								if n := ran.Load(); n != links {
									early <- n
									return
								}
							}
							runtime.Gosched() // leave the chain its share of two cores
						}
					}()
					c.complete(l.Reserve(), link)
				})
				if err := l.WaitIdle(ctx); err != nil {
					t.Fatal(err)
				}
				if n := ran.Load(); n != links {
					t.Fatalf("round %d: WaitIdle returned after %d of %d links", r, n, links)
				}
				wg.Wait()
				cancel()
				select {
				case n := <-early:
					t.Fatalf("round %d: a waiter saw the loop idle after %d of %d links", r, n, links)
				default:
				}
			}
		})
	}
}

// TestWaitIdleCountsRunningTask starts a waiter while task A runs with
// nothing queued or reserved, then lets A reserve and complete callback B
// at once, as crypto's pbkdf2 does, and holds B running. The waiter must
// not return before B has finished: the loop used to count only queued
// tasks and reservations, so a waiter that checked between A taking B's
// slot and B being dequeued saw it idle while B still ran.
func TestWaitIdleCountsRunningTask(t *testing.T) {
	t.Parallel()
	l := newLoop(goja.New(), 10*time.Second, nil)
	t.Cleanup(l.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for r := 0; r < 10; r++ {
		aRunning, goA, bRunning, goB := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
		var bDone atomic.Bool
		l.RunOnLoop(func(*goja.Runtime) {
			close(aRunning)
			<-goA
			l.Reserve()(func(*goja.Runtime) {
				close(bRunning)
				<-goB
				bDone.Store(true)
			})
		})
		<-aRunning
		waited := make(chan error, 1)
		go func() {
			err := l.WaitIdle(ctx)
			if err == nil && !bDone.Load() {
				err = errors.New("WaitIdle returned while callback B was still running")
			}
			waited <- err
		}()
		// Let the waiter look while A runs. A right waiter returns only
		// after B, whenever it looks, so the pause can only help a wrong
		// one show itself.
		time.Sleep(time.Millisecond)
		close(goA)
		<-bRunning
		// Give a wrong waiter time to return before B is let go; a right
		// one cannot, so this costs the full wait each round.
		select {
		case err := <-waited:
			close(goB)
			t.Fatalf("round %d: %v", r, err)
		case <-time.After(20 * time.Millisecond):
		}
		close(goB)
		if err := <-waited; err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
	}
}

// TestWaitIdleTimers checks that a ref'd timer keeps the loop busy until
// its callback has run, an unref'd one does not, and a closed loop
// answers WaitIdle with an error instead of blocking.
func TestWaitIdleTimers(t *testing.T) {
	t.Parallel()
	vm := goja.New()
	l := newLoop(vm, time.Second, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var fired atomic.Int64
	if err := l.Do(ctx, func(vm *goja.Runtime) error {
		l.installTimers(vm)
		_ = vm.Set("fired", func() { fired.Add(1) })
		_, err := vm.RunString(`setTimeout(fired, 20); setTimeout(() => { throw new Error("unref'd timer ran") }, 60000).unref();`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := l.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if n := fired.Load(); n != 1 {
		t.Fatalf("WaitIdle returned with the ref'd timer fired %d times", n)
	}
	l.Close()
	if err := l.WaitIdle(ctx); !errors.Is(err, errLoopClosed) {
		t.Fatalf("WaitIdle on a closed loop: %v, want errLoopClosed", err)
	}
}

// BenchmarkLoopCallbacks is the loop's cost per reserved callback: one
// completed on the loop for its next turn (setImmediate, crypto's async
// forms) and one completed by another goroutine (fs, zlib, fetch).
func BenchmarkLoopCallbacks(b *testing.B) {
	for _, c := range []struct {
		name string
		off  bool
	}{{"on the loop", false}, {"off the loop", true}} {
		b.Run(c.name, func(b *testing.B) {
			l := newLoop(goja.New(), 10*time.Second, nil)
			defer l.Close()
			ran := make(chan struct{})
			n := b.N
			var link func(*goja.Runtime)
			link = func(*goja.Runtime) {
				if n--; n <= 0 {
					close(ran)
					return
				}
				done := l.Reserve()
				if c.off {
					go done(link)
				} else {
					done(link)
				}
			}
			b.ResetTimer()
			l.RunOnLoop(link)
			<-ran
		})
	}
}
