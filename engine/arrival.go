package engine

import (
	"context"
	"sync"
)

// ArrivalTurn keeps prompts that arrive one after the other (RPC lines)
// in their order where the reference's single thread does: each waits
// for the one before it to have started its extension command, up to
// the handler's first wait, or to have found that it invokes none,
// before it checks for one itself. The handlers then run side by side,
// as in the reference. A zero turn (no predecessor) never waits.
type ArrivalTurn struct {
	prev <-chan struct{}
	done chan struct{}
	once sync.Once
}

// NextArrivalTurn is the turn after prev (nil for the first).
func NextArrivalTurn(prev *ArrivalTurn) *ArrivalTurn {
	t := &ArrivalTurn{done: make(chan struct{})}
	if prev != nil {
		t.prev = prev.done
	}
	return t
}

// Wait blocks until the previous prompt let this one go, or ctx ends.
func (t *ArrivalTurn) Wait(ctx context.Context) {
	if t == nil || t.prev == nil {
		return
	}
	select {
	case <-t.prev:
	case <-ctx.Done():
	}
}

// Release lets the next prompt go; later calls do nothing.
func (t *ArrivalTurn) Release() {
	if t != nil {
		t.once.Do(func() { close(t.done) })
	}
}

type arrivalKey struct{}

// WithArrivalTurn gives ctx's prompt its turn.
func WithArrivalTurn(ctx context.Context, t *ArrivalTurn) context.Context {
	return context.WithValue(ctx, arrivalKey{}, t)
}

// ArrivalTurnOf is ctx's turn, nil when it has none.
func ArrivalTurnOf(ctx context.Context) *ArrivalTurn {
	t, _ := ctx.Value(arrivalKey{}).(*ArrivalTurn)
	return t
}
