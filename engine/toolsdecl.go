package engine

// midRunDeclarations is the system message that declares the tools added
// (or withdrawn) while a run goes on, such as tool_search's matches,
// before the next model call, as the reference records it: toolsAdded and
// toolsRemoved only, so the prompt's sections (which before_agent_start
// may have rebuilt for this run) stay as they are. Nil when the declared
// tools did not change.
func (s *Session) midRunDeclarations(history []*Message, tools []Tool) *Message {
	cur, _, _ := foldSystem(history)
	m, _ := s.systemMessageFor(history, toolInfos(tools), cur)
	if m != nil {
		m.Sections = nil
	}
	return m
}
