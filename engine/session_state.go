package engine

import "fmt"

// Getters and setters of a session's state: model, thinking level, queue
// modes, retry and compaction switches, tools.

// State returns the get_state payload.
func (s *Session) State() SessionState {
	s.mu.Lock()
	st := SessionState{
		Model: s.model, ThinkingLevel: s.thinking, IsStreaming: s.streaming, IsCompacting: s.cmp.running,
		SessionFile: s.store.Path(), SessionID: s.store.Header().ID,
		AutoCompactionEnabled: s.settings.AutoCompaction, MessageCount: s.messageCountLocked(),
	}
	s.mu.Unlock()
	st.SteeringMode = s.steering.getMode()
	st.FollowUpMode = s.followUp.getMode()
	st.PendingMessageCount = s.PendingMessageCount()
	st.SessionName = StateOfBranch(s.store).SessionName
	return st
}

// IsIdle reports whether no run and no compaction is going on, what an
// extension's ctx.isIdle() answers: the reference counts a compaction
// (manual or automatic) as work, so session_compact handlers see a busy
// session.
func (s *Session) IsIdle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.streaming && !s.cmp.running
}

// Model returns the current model.
func (s *Session) Model() *Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}

// ThinkingLevel returns the effective thinking level.
func (s *Session) ThinkingLevel() ThinkingLevel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.thinking
}

// SetModel switches the model, records a model_change entry (even when
// unchanged, as the reference does) and sets the thinking level the
// switch starts at (SessionOptions.SwitchLevel, else the current one),
// clamped to m: a "high" default comes back on a reasoning model after a
// model that had it off.
func (s *Session) SetModel(m *Model) error {
	if m == nil {
		return ErrNoModel
	}
	s.mu.Lock()
	s.model = m
	want := s.thinking
	s.mu.Unlock()
	if s.opts.SwitchLevel != nil {
		if l, ok := s.opts.SwitchLevel(m); ok {
			want = l
		}
	}
	if err := s.store.Append(&Entry{Type: EntryModelChange, Provider: m.Provider, ModelID: m.ID}); err != nil {
		return fmt.Errorf("record model: %w", err)
	}
	s.SetThinkingLevel(want)
	return nil
}

// SetThinkingLevel clamps level to the model and, when the effective
// level changes, records it and emits thinking_level_changed.
func (s *Session) SetThinkingLevel(level ThinkingLevel) ThinkingLevel {
	s.mu.Lock()
	eff := ClampThinkingLevel(s.model, level)
	changed := eff != s.thinking
	s.thinking = eff
	s.mu.Unlock()
	if changed {
		_ = s.store.Append(&Entry{Type: EntryThinkingLevelChange, ThinkingLevel: string(eff)})
		s.publish(ThinkingLevelChanged{Level: eff})
	}
	return eff
}

// SetSteeringMode sets how steering messages drain ("all" or "one-at-a-time").
func (s *Session) SetSteeringMode(mode string) { s.steering.setMode(mode) }

// SetFollowUpMode sets how follow-up messages drain.
func (s *Session) SetFollowUpMode(mode string) { s.followUp.setMode(mode) }

// SetAutoRetry turns automatic retry on or off.
func (s *Session) SetAutoRetry(enabled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings.Retry.Enabled = enabled
}

// SetAutoCompaction records whether automatic compaction is on.
func (s *Session) SetAutoCompaction(enabled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings.AutoCompaction = enabled
}

// SetTools replaces the active tools; the change is declared to the
// model by a system message before the next request.
func (s *Session) SetTools(tools []Tool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tools = append([]Tool(nil), tools...)
}

// Tools returns the active tools.
func (s *Session) Tools() []Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Tool(nil), s.tools...)
}

// Store returns the session's store.
func (s *Session) Store() Store { return s.store }
