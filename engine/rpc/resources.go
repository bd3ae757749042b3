package rpc

import (
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// resources returns the current prompt templates and skills. The
// controller's lists change while commands run (extensions discover more
// after session_start; a reload or session replacement reads them again).
func (s *Server) resources() ([]prompts.Template, []skills.Skill) {
	return s.ctl.Resources()
}
