package anthropic

import (
	"strings"

	"github.com/pi-go/pi/engine"
)

// Two kinds of requests authenticate differently from an API key:
//
//   - A Claude Pro/Max OAuth access token (it contains "sk-ant-oat") goes
//     out as a bearer token, with Claude Code's identity: its user agent
//     and x-app header, the claude-code and oauth betas, Claude Code's
//     identity as the first system block, and the tool names Claude Code
//     uses (read becomes Read). Tool calls in the reply are mapped back to
//     the request's tool names.
//   - GitHub Copilot's Anthropic models take the Copilot token as a bearer
//     token and carry Copilot's per-request headers.
//
// These are the reference's facts; the servers check them.

// claudeCodeVersion is the Claude Code version an OAuth request claims.
const claudeCodeVersion = "2.1.322"

// claudeCodeIdentity is the system block OAuth requests start with.
const claudeCodeIdentity = "You are Claude Code, Anthropic's official CLI for Claude."

// Betas every OAuth request announces, before the computed ones.
const (
	betaClaudeCode = "claude-code-20250219"
	betaOAuth      = "oauth-2025-04-20"
)

// claudeCodeTools are Claude Code's tool names in their canonical casing;
// a tool whose name matches one case-insensitively is sent under it.
var claudeCodeTools = func() map[string]string {
	names := []string{"Read", "Write", "Edit", "Bash", "Grep", "Glob", "AskUserQuestion", "EnterPlanMode",
		"ExitPlanMode", "KillShell", "NotebookEdit", "Skill", "Task", "TaskOutput", "TodoWrite", "WebFetch", "WebSearch"}
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[strings.ToLower(n)] = n
	}
	return m
}()

// isOAuthToken reports whether a key is an Anthropic OAuth access token.
func isOAuthToken(key string) bool { return strings.Contains(key, "sk-ant-oat") }

// isCopilot reports whether the request goes to GitHub Copilot.
func isCopilot(m *engine.Model) bool { return m.Provider == "github-copilot" }

// toClaudeCodeName is the name an OAuth request declares a tool under.
func toClaudeCodeName(name string) string {
	if n, ok := claudeCodeTools[strings.ToLower(name)]; ok {
		return n
	}
	return name
}

// fromClaudeCodeName maps a tool name in an OAuth reply back to the
// request's tool of that name, compared case-insensitively.
func fromClaudeCodeName(name string, tools []engine.ToolInfo) string {
	for _, t := range tools {
		if strings.EqualFold(t.Name, name) {
			return t.Name
		}
	}
	return name
}

// wireToolName is the tool name as the request sends it.
func (o options) wireToolName(name string) string {
	if o.oauth {
		return toClaudeCodeName(name)
	}
	return name
}
