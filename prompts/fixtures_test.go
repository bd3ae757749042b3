package prompts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-go/pi/engine"
)

// toolFixtures stand in for the built-in tools' prompt metadata. The words
// are placeholders of our own; the builtins package owns the real ones. The
// number of guidelines per tool follows the reference (read 1, bash 1,
// edit 2, write 1, grep/find/ls none) so rule lists have a realistic shape.
var toolFixtures = map[string]engine.ToolInfo{
	"read":  {Name: "read", PromptSnippet: "Show a file's contents", PromptGuidelines: []string{"Look at files with read rather than cat or sed."}},
	"bash":  {Name: "bash", PromptSnippet: "Run a bash command", PromptGuidelines: []string{"PI_* environment variables describe the current model and session."}},
	"edit":  {Name: "edit", PromptSnippet: "Replace exact text in a file, several places at once if needed", PromptGuidelines: []string{"Prefer edit for small, targeted changes; group a file's changes in one call.", "Every edits[].oldText must match the file exactly and only once."}},
	"write": {Name: "write", PromptSnippet: "Create a file or replace it whole", PromptGuidelines: []string{"Keep write for new files and full rewrites."}},
	"grep":  {Name: "grep", PromptSnippet: "Search file contents (honours .gitignore)"},
	"find":  {Name: "find", PromptSnippet: "Find files by glob (honours .gitignore)"},
	"ls":    {Name: "ls", PromptSnippet: "List a directory"},
}

func tools(names ...string) []engine.ToolInfo {
	out := make([]engine.ToolInfo, 0, len(names))
	for _, n := range names {
		out = append(out, toolFixtures[n])
	}
	return out
}

var (
	defaultTools = []string{"read", "bash", "edit", "write"}
	allTools     = []string{"read", "bash", "edit", "write", "grep", "find", "ls"}
)

// writeFiles creates files (relative path -> content) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func str(s string) *string { return &s }
