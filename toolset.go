package pi

import (
	"os"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/builtins/codemode"
	"github.com/pi-go/pi/engine"
)

// tools builds the active tool set from the selection flags and the
// defaultTools setting. Names that match no tool are ignored, as the
// reference ignores unknown names in an allowlist.
func (app *Agent) tools() ([]engine.Tool, error) {
	defaults, _ := app.settings.DefaultTools()
	names := SelectTools(ToolSelectionInput{Options: app.opts, SettingDefaults: defaults, Available: builtins.AllNames})
	var out []engine.Tool
	for _, name := range names {
		if t := app.builtin(name); t != nil {
			out = append(out, t)
		}
	}
	// Extension tools, then the embedder's Go tools, join the active set;
	// one named like an earlier tool replaces it.
	for _, t := range append(app.ext.Tools(), app.opts.ExtraTools...) {
		name := t.Info().Name
		replaced := false
		for i, b := range out {
			if b.Info().Name == name {
				out[i], replaced = t, true
			}
		}
		if !replaced {
			out = append(out, t)
		}
	}
	return app.codemodeLoadout(out), nil
}

// builtin constructs one built-in tool with the session's options.
func (app *Agent) builtin(name string) engine.Tool {
	switch name {
	case "bash":
		return builtins.NewBashWithOptions(app.cwd, builtins.BashOptions{
			Shell:      builtins.ShellConfig{ShellPath: app.settings.ShellPath(), CommandPrefix: app.settings.ShellCommandPrefix()},
			SessionEnv: app.sessionEnv,
		})
	case "powershell":
		return builtins.NewPowerShellWithOptions(app.cwd, builtins.BashOptions{SessionEnv: app.sessionEnv})
	case codemode.Name, codemode.SearchName:
		return app.builtinExtTool(name)
	case "read":
		return builtins.NewReadWithOptions(app.cwd, builtins.ReadOptions{
			NoAutoResize: !app.settings.ImagesAutoResize(),
			ModelSupportsImages: func() (string, bool) {
				app.mu.Lock()
				s := app.sess
				app.mu.Unlock()
				if s == nil || s.Model() == nil {
					return "", true
				}
				m := s.Model()
				return m.ID, m.SupportsImages()
			},
		})
	}
	t, ok := builtins.New(name, app.cwd)
	if !ok {
		return nil
	}
	return t
}

// sessionEnv is the PI_* environment of bash-tool commands.
func (app *Agent) sessionEnv() map[string]string {
	app.mu.Lock()
	s := app.sess
	app.mu.Unlock()
	env := map[string]string{}
	if app.store != nil {
		env["PI_SESSION_ID"] = app.store.Header().ID
		if p := app.store.Path(); p != "" {
			env["PI_SESSION_FILE"] = p
		}
	}
	if s != nil {
		if m := s.Model(); m != nil {
			env["PI_PROVIDER"] = m.Provider
			env["PI_MODEL"] = m.ID
		}
		env["PI_REASONING_LEVEL"] = string(s.ThinkingLevel())
	}
	return env
}

func init() {
	// Child processes can tell they run under pi.
	_ = os.Setenv("AI_AGENT", "pi")
	_ = os.Setenv("PI_CODING_AGENT", "true")
}
