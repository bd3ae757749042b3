package rpc

import (
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// SetResources replaces the prompt templates and skills that prompts
// expand and get_commands lists. The reference adds the resources its
// extensions discover after session_start, which RPC mode runs once the
// server exists. A reload or session replacement sets them again while
// commands run, so they are read under the server's lock.
func (s *Server) SetResources(templates []prompts.Template, sk []skills.Skill) {
	s.mu.Lock()
	s.opts.Templates, s.opts.Skills = templates, sk
	s.mu.Unlock()
}

// resources returns the current prompt templates and skills.
func (s *Server) resources() ([]prompts.Template, []skills.Skill) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.Templates, s.opts.Skills
}
