package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrEmptySessionName is the reference's answer to a blank set_session_name.
var ErrEmptySessionName = errors.New("Session name cannot be empty")

// Cwd is the directory the session's tools and user bash commands run in.
func (s *Session) Cwd() string { return s.opts.Cwd }

// AppendMessage adds a message to the transcript and the store without
// any event, the way the reference records a user bash execution. While
// a run is active the message is held until the run has settled, so that
// it never lands between an assistant tool call and its result; the
// returned channel is closed once the message is recorded.
func (s *Session) AppendMessage(m *Message) <-chan struct{} {
	recorded := make(chan struct{})
	record := func() {
		defer close(recorded)
		s.mu.Lock()
		s.messages = append(s.historyLocked(), m)
		s.mu.Unlock()
		_ = s.store.Append(&Entry{Type: EntryMessage, Message: m})
	}
	s.mu.Lock()
	done := s.done
	streaming := s.streaming
	s.mu.Unlock()
	if !streaming || done == nil {
		record()
		return recorded
	}
	go func() {
		<-done
		record()
	}()
	return recorded
}

// SetSessionName records the session's display name (trimmed, line
// breaks folded to spaces) as a session_info entry and announces it with
// session_info_changed. A blank name fails with ErrEmptySessionName.
func (s *Session) SetSessionName(name string) (string, error) {
	clean := SanitizeSessionName(name)
	if clean == "" {
		return "", ErrEmptySessionName
	}
	if err := s.store.Append(&Entry{Type: EntrySessionInfo, Name: &clean}); err != nil {
		return "", fmt.Errorf("record session name: %w", err)
	}
	s.publish(SessionInfoChanged{Name: clean})
	return clean, nil
}

// SanitizeSessionName replaces every run of CR/LF with one space and
// trims the result, as the reference cleans session names.
func SanitizeSessionName(name string) string {
	var b strings.Builder
	inBreak := false
	for _, r := range name {
		if r == '\r' || r == '\n' {
			if !inBreak {
				b.WriteByte(' ')
			}
			inBreak = true
			continue
		}
		inBreak = false
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// Close aborts any run and waits, bounded by ctx, for it to settle. The
// store stays open; its owner closes it.
func (s *Session) Close(ctx context.Context) error {
	s.cancelRun()
	return s.WaitIdle(ctx)
}

// cancelRun cancels the current run, if any, marking a streaming one
// aborted, and returns at once.
func (s *Session) cancelRun() {
	s.mu.Lock()
	cancel := s.cancel
	if s.streaming {
		s.aborted = true
	}
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Publish delivers an event the runtime did not produce itself (an
// extension error raised while expanding a prompt, a renamed session) to
// subscribers and hooks, in order with the runtime's own events.
func (s *Session) Publish(e Event) { s.publish(e) }
