package engine

// Read-only views of the session that the extension context (ctx.*)
// needs and the RPC layer does not.

// RunState reports the run in progress: a value unique to that run (nil
// when the session is idle) and whether it was aborted. Extensions get one
// AbortSignal per run from it.
func (s *Session) RunState() (run any, aborted bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.streaming || s.done == nil {
		return nil, false
	}
	return s.done, s.aborted
}

// SystemPromptText is the system prompt as the session would send it now:
// built for the active tools.
func (s *Session) SystemPromptText() string {
	if s.opts.SystemPrompt == nil {
		return ""
	}
	// Info runs outside the lock: codemode's description asks the
	// session for its tools, which takes the lock again.
	return SectionsText(s.opts.SystemPrompt(toolInfos(s.Tools())))
}

// RefreshModel replaces the current model with m when m is a newer
// definition of it (same provider and id), without recording a model
// change: an extension re-registered the provider, and requests must
// follow its new baseUrl.
func (s *Session) RefreshModel(m *Model) {
	if m == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.model != nil && s.model != m && s.model.Provider == m.Provider && s.model.ID == m.ID {
		s.model = m
	}
}

// WasAborted reports whether the latest run was aborted; it stays true
// after that run ends, until the next one starts.
func (s *Session) WasAborted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.aborted
}
