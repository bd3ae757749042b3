package pi

import (
	"strings"
)

// What the interactive mode (engine/interactive) reads from the agent
// beyond the operations every face shares: the agent directory (for
// keybindings.json and themes), raw settings (tuiMode, quietStartup,
// hideThinkingBlock, externalEditor, …) and the loaded resources its
// start-up header lists.

// AgentDir is the agent's configuration directory.
func (app *Agent) AgentDir() string { return app.agentDir }

// SettingValue is one merged setting by its dotted path (nil when unset),
// as settings.json holds it.
func (app *Agent) SettingValue(path string) any { return app.settings.Raw(path) }

// SettingWarnings are the problems found while reading the settings files.
func (app *Agent) SettingWarnings() []string { return app.settings.Warnings() }

// LoadedExtensions are the paths of the loaded extensions, without pi's
// built-in ones, in load order.
func (app *Agent) LoadedExtensions() []string {
	if app.ext == nil || !app.ext.Active() {
		return nil
	}
	_, rt := app.ext.Current()
	if rt == nil {
		return nil
	}
	var out []string
	for _, e := range rt.Extensions() {
		if !strings.HasPrefix(e.Path, builtinPrefix) {
			out = append(out, e.Path)
		}
	}
	return out
}

// ContextFiles are the paths of the context files (AGENTS.md, …) in the
// system prompt.
func (app *Agent) ContextFiles() []string {
	o := app.promptBase()
	if o.NoContextFiles {
		return nil
	}
	out := make([]string, 0, len(o.ContextFiles))
	for _, f := range o.ContextFiles {
		out = append(out, f.Path)
	}
	return out
}
