package engine

import (
	"context"
	"fmt"
)

// This file holds the session operations the extension API (pi.*) needs
// beyond what the RPC commands use. They are additive helpers over the
// runtime's state; none of them runs hooks synchronously on the caller's
// behalf except SendCustom when it starts a run.

// AppendEntry stores a non-message entry (custom, label, session_info) and
// announces it with entry_appended, as the reference does for entries that
// extensions append.
func (s *Session) AppendEntry(e *Entry) error {
	if err := s.store.Append(e); err != nil {
		return fmt.Errorf("append %s entry: %w", e.Type, err)
	}
	s.publish(EntryAppended{Entry: e})
	return nil
}

// SendCustom delivers an extension's custom message. While a run is active
// it is queued as a steering message, or a follow-up for deliverAs
// "followUp". When idle it starts a run with the message as the prompt if
// triggerTurn is set; otherwise it is appended to the transcript as is.
// deliverAs "nextTurn" always waits for the next prompt.
func (s *Session) SendCustom(m *Message, deliverAs string, triggerTurn bool) error {
	if m.Timestamp == 0 {
		m.Timestamp = s.now().UnixMilli()
	}
	s.mu.Lock()
	streaming := s.streaming
	s.mu.Unlock()
	if deliverAs == "nextTurn" {
		s.mu.Lock()
		s.nextTurn = append(s.nextTurn, m)
		s.mu.Unlock()
		return nil
	}
	if streaming {
		if deliverAs == "followUp" {
			s.followUp.push("", m)
		} else {
			s.steering.push("", m)
		}
		return nil
	}
	if !triggerTurn {
		s.publish(MessageStart{Message: m})
		s.loopEmit(MessageEnd{Message: m})
		return nil
	}
	s.mu.Lock()
	model := s.model
	s.mu.Unlock()
	if model == nil {
		return ErrNoModel
	}
	provider, apiKey, err := s.resolveProvider(model)
	if err != nil {
		return err
	}
	s.startRun(func(ctx context.Context) {
		s.mu.Lock()
		tools := append([]Tool(nil), s.tools...)
		history := append([]*Message(nil), s.messages...)
		s.mu.Unlock()
		sysMsg, sysText := s.systemMessage(history, toolInfos(tools))
		prompts := []*Message{}
		if sysMsg != nil {
			prompts = append(prompts, sysMsg)
		}
		prompts = append(prompts, m)
		s.runWithRetry(ctx, provider, apiKey, tools, sysText, prompts)
	})
	return nil
}

// takeNextTurn returns and clears the custom messages queued for the next
// prompt.
func (s *Session) takeNextTurn() []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.nextTurn
	s.nextTurn = nil
	return out
}

// PendingCount is the number of queued steering and follow-up messages.
func (s *Session) PendingCount() int { return s.steering.len() + s.followUp.len() }
