package pi

import (
	"strings"
)

// What the interactive mode (engine/interactive) reads from the agent
// beyond the operations every face shares and the slash commands'
// (face_cmds.go): the settings warnings and the loaded resources its
// start-up header lists.

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
