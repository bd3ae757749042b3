package slash

import (
	"strings"

	"github.com/pi-go/pi/engine"
)

// Command is one entry of the "/" menu.
type Command struct {
	Name        string
	Description string
	// ArgumentHint shows what the command takes ("<provider/model>").
	ArgumentHint string
	// args: the command takes an argument; a command without one is
	// left to the next handler when text follows its name, as the
	// reference does.
	args bool
}

// builtins are the built-in commands in the reference's menu order.
// /llama and /mcp belong to the llama.cpp and MCP support, which list
// their own.
var builtins = []Command{
	{Name: "settings", Description: "Open the settings list"},
	{Name: "model", Description: "Switch model (a picker without an argument)", ArgumentHint: "<provider/model>", args: true},
	{Name: "tree", Description: "Browse the session tree and jump to another point"},
	{Name: "thinking", Description: "Change the thinking level", ArgumentHint: "<level>", args: true},
	{Name: "scoped-models", Description: "Choose the models Ctrl+P cycles through"},
	{Name: "export", Description: "Save the session as HTML (default) or JSONL (a .jsonl path)", args: true},
	{Name: "import", Description: "Open a JSONL session file, keeping its ID and working directory", args: true},
	{Name: "share", Description: "Upload the session as a Radius artifact or a private GitHub gist"},
	{Name: "bug", Description: "Send a bug report to the Pi developers", ArgumentHint: "<description>", args: true},
	{Name: "copy", Description: "Copy the last agent reply to the clipboard"},
	{Name: "name", Description: "Name this session (shows the name without an argument)", args: true},
	{Name: "session", Description: "Show this session's file, message counts, tokens and cost"},
	{Name: "changelog", Description: "Show what changed in recent releases"},
	{Name: "hotkeys", Description: "List the keyboard shortcuts"},
	{Name: "fork", Description: "Start a new session from an earlier user message"},
	{Name: "clone", Description: "Copy the session as it stands into a new one"},
	{Name: "trust", Description: "Remember whether this project folder is trusted"},
	{Name: "login", Description: "Sign in to a provider or store its API key", ArgumentHint: "<provider>", args: true},
	{Name: "logout", Description: "Remove a provider's stored credentials"},
	{Name: "new", Description: "Start a fresh session"},
	{Name: "compact", Description: "Summarise older context to free up the window", args: true},
	{Name: "resume", Description: "Open another saved session"},
	{Name: "reload", Description: "Reload keybindings, extensions, skills, prompts, themes and context files"},
	{Name: "quit", Description: "Leave pi"},
}

// Builtins returns the built-in commands in menu order.
func Builtins() []Command { return append([]Command(nil), builtins...) }

// Completion is one argument suggestion.
type Completion struct {
	Value, Description string
}

// ArgumentCompletions suggests arguments for a built-in command: model
// references for /model, levels for /thinking, providers for /login.
func ArgumentCompletions(a Agent, name, prefix string) []Completion {
	var out []Completion
	add := func(v, d string) {
		if strings.HasPrefix(strings.ToLower(v), strings.ToLower(prefix)) {
			out = append(out, Completion{v, d})
		}
	}
	switch name {
	case "model":
		for _, m := range a.AvailableModels() {
			add(m.Provider+"/"+m.ID, m.Name)
		}
	case "thinking":
		for _, l := range engine.SupportedThinkingLevels(a.Model()) {
			add(string(l), "")
		}
	case "login":
		for _, p := range a.AuthProviders() {
			if p.OAuth || p.APIKey {
				add(p.ID, p.Name)
			}
		}
	}
	return out
}

func lookup(name string) (Command, bool) {
	for _, c := range builtins {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}
