package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// textSetupAborted is the error of a reply aborted before its request
// started: the reference's provider setup throws the abort signal's
// reason, whose message this is. An abort mid-stream keeps the
// provider's own text (llm.ErrAborted).
const textSetupAborted = "This operation was aborted"

// closeState is the session's "closed" state. Print mode closes the
// session once its last prompt is done (for a command, the moment the
// handler settles): a prompt sent later, such as a pi.sendUserMessage
// the command did not await, still goes through its input handlers and is
// then dropped, and a run the command started is aborted before its
// request goes out, as the reference's exit does to both.
type closeState struct {
	closed atomic.Bool

	mu       sync.Mutex
	inflight int
	// idle is closed when inflight drops back to zero.
	idle chan struct{}
	// final is the input gate of the caller's last prompt.
	final *inputGate
}

// finalGrace bounds how long a request waits for print mode's last
// command to finish (haltedRequest). The reference's exit aborts a run
// that command triggered while its provider is still being set up: a
// command that returns right after triggering the turn has settled well
// within it, and one that goes on working lets the request go out, as
// there, only a little later.
const finalGrace = 50 * time.Millisecond

func (c *closeState) setFinalGate(g *inputGate) {
	c.mu.Lock()
	c.final = g
	c.mu.Unlock()
}

// PrintedMessages is the transcript print mode reports on: without the
// replies the closed session aborted before their request, which the
// reference records only as it exits, after it has read its transcript.
func (s *Session) PrintedMessages() []*Message {
	msgs := s.Messages()
	if !s.Closed() {
		return msgs
	}
	for len(msgs) > 0 && isSetupAborted(msgs[len(msgs)-1]) {
		msgs = msgs[:len(msgs)-1]
	}
	return msgs
}

func isSetupAborted(m *Message) bool {
	return m.Role == RoleAssistant && m.StopReason == StopAborted && m.ErrorFirst &&
		m.ErrorMessage == textSetupAborted && len(m.Content.Blocks) == 0
}

// Closed reports whether the session takes no more prompts.
func (s *Session) Closed() bool { return s.closing.closed.Load() }

// closeInput marks the session closed.
func (s *Session) closeInput() { s.closing.closed.Store(true) }

// promptBegun counts a prompt sent without waiting for it (PromptAsync),
// from the moment it is sent, so that Finish can let its input handlers
// run before the session shuts down.
func (s *Session) promptBegun() {
	c := &s.closing
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inflight == 0 {
		c.idle = make(chan struct{})
	}
	c.inflight++
}

// promptDone ends what promptBegun counted.
func (s *Session) promptDone() {
	c := &s.closing
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inflight--
	if c.inflight == 0 && c.idle != nil {
		close(c.idle)
		c.idle = nil
	}
}

// waitPrompts waits until no prompt sent with PromptAsync is on its way.
func (s *Session) waitPrompts(ctx context.Context) error {
	c := &s.closing
	c.mu.Lock()
	idle := c.idle
	c.mu.Unlock()
	if idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Finish ends print mode's use of the session: it closes the session to
// new prompts, aborts the current run, lets the prompts already sent pass
// their input handlers (they are dropped after them) and waits until the
// session is idle.
func (s *Session) Finish(ctx context.Context) error {
	s.closeInput()
	s.cancelRun()
	if err := s.waitPrompts(ctx); err != nil {
		return err
	}
	return s.Close(ctx)
}

// haltedRequest reports, for the agent loop, that a closed session sends
// no more requests; the run then counts as aborted.
func (s *Session) haltedRequest() bool {
	s.closing.mu.Lock()
	g := s.closing.final
	s.closing.mu.Unlock()
	if g != nil && !s.Closed() {
		t := time.NewTimer(finalGrace)
		select {
		case <-g.closed:
		case <-t.C:
		}
		t.Stop()
	}
	if !s.Closed() {
		return false
	}
	s.mu.Lock()
	if s.streaming {
		s.aborted = true
	}
	s.mu.Unlock()
	return true
}

// setupAborted is the reply of a request aborted before it started, in
// the reference's shape: no content, zero usage, errorMessage before
// timestamp, timestamp when the request was due.
func setupAborted(m *Model, ts int64) *Message {
	msg := &Message{
		Role: RoleAssistant, Content: Contents{Blocks: []Content{}},
		StopReason: StopAborted, ErrorMessage: textSetupAborted, Timestamp: ts, ErrorFirst: true,
	}
	if m != nil {
		msg.API, msg.Provider, msg.Model = m.API, m.Provider, m.ID
	}
	return msg
}
