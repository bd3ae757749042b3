package engine

import "fmt"

// This file holds the synchronous effects of the extensions' action
// methods. The extension loop calls them while a handler runs, possibly
// in the middle of an event dispatch, so they record and notify
// subscribers at once and never wait for extension hooks.

// appendCustomMessage records an extension's custom message while the
// session is idle: it joins the transcript and the store, then listeners
// (not extensions) see message_start and message_end, as the reference
// announces a custom message it appends outside a run.
func (s *Session) appendCustomMessage(m *Message) {
	s.mu.Lock()
	s.messages = append(s.historyLocked(), m)
	s.mu.Unlock()
	_ = s.store.Append(messageEntry(m))
	s.notify(MessageStart{Message: m})
	s.notify(MessageEnd{Message: m})
}

// AppendLabel records a label change for targetID (nil label clears it).
// The reference announces no event for it, and refuses a target that is
// not in the session with "Entry <id> not found".
func (s *Session) AppendLabel(targetID string, label *string) error {
	if _, ok := s.store.Get(targetID); !ok {
		return fmt.Errorf("Entry %s not found", targetID)
	}
	if err := s.store.Append(&Entry{Type: EntryLabel, TargetID: targetID, Label: label}); err != nil {
		return fmt.Errorf("append label entry: %w", err)
	}
	return nil
}
