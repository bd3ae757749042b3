package rpc

import (
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// SetResources replaces the prompt templates and skills that prompts
// expand and get_commands lists. The reference adds the resources its
// extensions discover after session_start, which RPC mode runs once the
// server exists; call it before Serve.
func (s *Server) SetResources(templates []prompts.Template, sk []skills.Skill) {
	s.opts.Templates, s.opts.Skills = templates, sk
}
