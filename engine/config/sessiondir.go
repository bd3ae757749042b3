package config

import (
	"os"
	"path/filepath"
	"strings"
)

// SessionDir decides where sessions are stored and looked up: --session-dir
// (flagDir), else PI_CODING_AGENT_SESSION_DIR, else the sessionDir setting,
// else <agentDir>/sessions. "~" is expanded. The setting is read from the
// global and the project settings regardless of trust, as the reference
// reads it before the trust decision (a session may belong to another
// project, so the cwd that trust applies to is not known yet).
func SessionDir(agentDir, cwd, flagDir string) string {
	if flagDir != "" {
		return ExpandHome(flagDir)
	}
	if env := os.Getenv("PI_CODING_AGENT_SESSION_DIR"); env != "" {
		return ExpandHome(env)
	}
	if s, err := Load(agentDir, cwd, true); err == nil {
		if d := s.SessionDir(); d != "" {
			return d
		}
	}
	return filepath.Join(agentDir, "sessions")
}

// ModelsLoadWarning formats LoadModels errors the way the reference prints
// them: one "errors loading models.json:" header followed by the errors
// separated by blank lines. The caller prefixes "Warning: ". It returns ""
// when there are no errors.
func ModelsLoadWarning(errs []error) string {
	if len(errs) == 0 {
		return ""
	}
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = e.Error()
	}
	return "errors loading models.json:\n" + strings.Join(parts, "\n\n")
}
