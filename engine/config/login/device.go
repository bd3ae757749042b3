package login

import (
	"context"
	"errors"
	"math"
	"time"
)

// Device-code polling as the reference paces it.
const (
	minPollInterval   = time.Second
	defaultPoll       = 5 * time.Second
	slowDownIncrement = 5 * time.Second
)

var (
	errDeviceTimeout  = errors.New("Device flow timed out")
	errSlowDownExpiry = errors.New("Device flow timed out after one or more slow_down responses. This is often caused by clock drift in WSL or VM environments. Please sync or restart the VM clock and try again.")
)

// pollOutcome is one poll's answer: done with a value, pending, or
// slow down (with the server's new interval in seconds, if it sent one).
type pollOutcome[T any] struct {
	done     bool
	value    T
	slowDown bool
	interval *float64
}

func seconds(s float64) time.Duration {
	return time.Duration(math.Floor(s*1000)) * time.Millisecond
}

// pollDevice polls until done, an error, ctx's end or the code's expiry.
// interval is the server's (nil: 5s), never under a second; waitFirst
// waits one interval before the first poll.
func pollDevice[T any](ctx context.Context, ep *Endpoints, interval *float64, expiresIn time.Duration, waitFirst bool, poll func() (pollOutcome[T], error)) (T, error) {
	var zero T
	deadline := ep.now().Add(expiresIn)
	step := defaultPoll
	if interval != nil {
		step = seconds(*interval)
	}
	step = max(step, minPollInterval)
	slowDowns := 0
	if waitFirst {
		if err := ep.sleep(ctx, min(step, deadline.Sub(ep.now()))); err != nil {
			return zero, err
		}
	}
	for ep.now().Before(deadline) {
		if ctx.Err() != nil {
			return zero, ErrCancelled
		}
		out, err := poll()
		if err != nil {
			return zero, err
		}
		if out.done {
			return out.value, nil
		}
		if out.slowDown {
			slowDowns++
			if out.interval != nil && *out.interval > 0 {
				step = max(minPollInterval, seconds(*out.interval))
			} else {
				step = max(minPollInterval, step+slowDownIncrement)
			}
		}
		remaining := deadline.Sub(ep.now())
		if remaining <= 0 {
			break
		}
		if err := ep.sleep(ctx, min(step, remaining)); err != nil {
			return zero, err
		}
	}
	if slowDowns > 0 {
		return zero, errSlowDownExpiry
	}
	return zero, errDeviceTimeout
}
