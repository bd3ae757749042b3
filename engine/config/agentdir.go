package config

import (
	"os"
	"path/filepath"
	"strings"
)

// AgentDir returns pi's agent directory: PI_CODING_AGENT_DIR with a
// leading "~" expanded, or ~/.pi/agent.
func AgentDir() string {
	if d := os.Getenv("PI_CODING_AGENT_DIR"); d != "" {
		return ExpandHome(d)
	}
	return filepath.Join(homeDir(), ".pi", "agent")
}

// ExpandHome replaces a leading "~" or "~/" with the home directory.
func ExpandHome(p string) string {
	if p == "~" {
		return homeDir()
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(homeDir(), p[2:])
	}
	return p
}

// homeDir prefers $HOME, as the reference does, so tests and throwaway
// homes work without touching the real one.
func homeDir() string {
	if h := os.Getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}
