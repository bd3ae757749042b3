package pi

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/rpc"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/internal/starttrace"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// The Agent is the session controller of every face: the RPC server and
// the extensions' ctx.newSession/fork/switchSession/reload drive it.
var (
	_ rpc.Controller           = (*Agent)(nil)
	_ engine.SessionController = (*Agent)(nil)
)

// Current is the active session and its store.
func (app *Agent) Current() (*engine.Session, *session.File) {
	if app.switcher == nil {
		return app.session(), app.Store()
	}
	return app.switcher.Current()
}

// NewSession replaces the session with an empty one, unless a
// session_before_switch handler cancels (cancelled is then true).
func (app *Agent) NewSession(ctx context.Context, parentSession string) (cancelled bool, err error) {
	return app.switcher.NewSession(ctx, parentSession)
}

// SwitchSession opens another session file (created when missing), unless
// a session_before_switch handler cancels.
func (app *Agent) SwitchSession(ctx context.Context, path string) (cancelled bool, err error) {
	return app.switcher.SwitchSession(ctx, path)
}

// Fork starts a new session from entryID: position "before" leaves that
// user message out and returns its text, "at" keeps the path up to and
// including it (ctx.fork).
func (app *Agent) Fork(ctx context.Context, entryID, position string) (cancelled bool, text string, err error) {
	return app.switcher.Fork(ctx, entryID, position)
}

// ForkUser is the RPC fork: entryID must be a user message.
func (app *Agent) ForkUser(ctx context.Context, entryID string) (cancelled bool, text string, err error) {
	return app.switcher.ForkUser(ctx, entryID)
}

// Clone copies the current branch into a new session.
func (app *Agent) Clone(ctx context.Context) (cancelled bool, err error) {
	return app.switcher.Clone(ctx)
}

// Reload loads settings, context files, resources and the extensions
// afresh over the same session (ctx.reload).
func (app *Agent) Reload(ctx context.Context) error { return app.reloadExtensions(ctx) }

// startOver builds a runtime over store, the replacement of prev. The
// model the store's branch names wins when it is available; otherwise
// the replacement starts as a start would, from the command line and
// the settings as they are now (a model an extension or set_model chose
// for the previous session does not carry over), as the reference's
// replacement runs its session factory again.
func (app *Agent) startOver(store *session.File, prev *engine.Session) (*engine.Session, error) {
	model := app.model
	// A session without a recorded level starts at the default level, as
	// the reference's new sessions do; one with a level keeps it.
	var thinking engine.ThinkingLevel
	if level, set := app.settings.DefaultThinkingLevel(); set {
		thinking = level
	}
	if prev != nil {
		model = prev.Model()
		a := app.opts
		// Warnings were printed at start; a failure (no model with
		// credentials any more) keeps the previous model.
		if m, level, _, err := config.Resolve(app.registry, app.settings, config.SelectFlags{
			Provider: a.Provider, Model: a.Model, Thinking: string(a.Thinking), APIKey: a.APIKey, Models: a.Models,
		}); err == nil && m != nil {
			model, thinking = m, level
		}
	}
	// The store's index answers without decoding the branch.
	sc := store.BranchState()
	// The selection (a virtual model's model_change) needs only the
	// entry types and the messages' provider and model.
	if app.registry.HasVirtualModels() {
		sc.Model = app.branchSelection(store.LightBranch())
	}
	if sc.Model != nil {
		if m := app.registry.Find(sc.Model.Provider, sc.Model.ModelID); m != nil && app.HasAuth(m) {
			model = m
		}
	}
	if sc.HasThinkingLevel {
		thinking = ""
	}
	app.mu.Lock()
	app.store, app.model, app.thinking = store, model, thinking
	if c := store.Cwd(); c != "" {
		// A switched-to session runs in its own directory.
		app.cwd = c
	}
	app.mu.Unlock()
	return app.startSession()
}

// switchLevel is the level a model switch starts at, as the reference's
// _getThinkingLevelForModelSwitch: the model's modelThinkingLevels entry,
// else defaultThinkingLevel when set, else (ok false) the current level.
func (app *Agent) switchLevel(m *engine.Model) (engine.ThinkingLevel, bool) {
	if l, ok := app.settings.ModelThinkingLevel(m.Provider, m.ID); ok {
		return l, true
	}
	return app.settings.DefaultThinkingLevel()
}

// switchHooks are the extensions' part in a replacement: the
// session_before_* events, then session_shutdown and a fresh generation
// (lifecycle.go).
func (app *Agent) switchHooks() session.SwitchHooks {
	current := app.ext.Hooks
	if !app.ext.Active() {
		// Without extensions a replacement still follows settings.json
		// as it is now, as the reference's fresh services do.
		return session.SwitchHooks{Teardown: func(context.Context, string, string) { app.reloadSettings(nil) }}
	}
	return session.SwitchHooks{
		BeforeSwitch: func(ctx context.Context, reason, target string) bool {
			return current().BeforeSwitch(ctx, reason, target)
		},
		BeforeFork: func(ctx context.Context, entryID, position string) bool {
			return current().BeforeFork(ctx, entryID, position)
		},
		Teardown: func(ctx context.Context, reason, target string) {
			current().Shutdown(ctx, reason, target)
			// The reference builds a replacement's services afresh, its
			// settings among them: the extensions and resources the new
			// session gets follow settings.json as it is now.
			app.reloadSettings(nil)
			app.ext.NextGeneration(ctx, false)
		},
		Switched: func(sess *engine.Session, reason, prev string) {
			app.startGeneration(context.Background(), sess, reason, prev, "startup")
		},
	}
}

// AvailableModels are the models whose provider has credentials.
func (app *Agent) AvailableModels() []*engine.Model { return app.registry.Available() }

// FindModel is any model the registry knows, with or without
// credentials (nil when none matches): what the cache-miss notices
// (cachewarm.ModelLookup) price a past request with, as the reference's
// transcript asks its model runtime.
func (app *Agent) FindModel(provider, id string) *engine.Model {
	return app.registry.Find(provider, id)
}

// ScopedModels is the --models scope (or the enabledModels setting); nil
// without one.
func (app *Agent) ScopedModels() []rpc.ScopedModel {
	patterns := app.opts.Models
	if len(patterns) == 0 {
		patterns = app.settings.EnabledModels()
	}
	if len(patterns) == 0 {
		return nil
	}
	scoped, _ := config.ScopeModels(patterns, app.registry.Available())
	out := make([]rpc.ScopedModel, 0, len(scoped))
	for _, s := range scoped {
		out = append(out, rpc.ScopedModel{Model: s.Model, ThinkingLevel: s.Thinking})
	}
	return out
}

// HasAuth reports whether a model's provider has credentials.
func (app *Agent) HasAuth(m *engine.Model) bool { return app.registry.HasConfiguredAuth(m.Provider) }

// SetGlobalSetting persists one setting to the global settings.json.
func (app *Agent) SetGlobalSetting(path string, value any) error {
	if err := app.settings.SetGlobal(path, value); err != nil {
		return err
	}
	if path == "httpIdleTimeoutMs" {
		// The reference reconfigures its HTTP dispatcher when /settings
		// changes the timeout: the next request uses the new value.
		applyHTTPIdleTimeout(app.settings)
	}
	return nil
}

// Commands are the extension commands (the loaded extensions', then the
// built-in extensions').
func (app *Agent) Commands() []prompts.CommandInfo { return app.extensionCommands() }

// Resources are the prompt templates and skills in use.
func (app *Agent) Resources() ([]prompts.Template, []skills.Skill) {
	app.mu.Lock()
	defer app.mu.Unlock()
	return app.templates, app.skills
}

// RunBash runs a user command as the reference's "!cmd" and RPC bash do:
// the extensions' user_bash handlers may answer it, run it through their
// own backend, or fail it; otherwise it runs in the session's directory
// with the configured shell. Output chunks stream to onChunk (cleaned),
// and the result is recorded in the session as a bashExecution message,
// which the model sees with the next prompt unless excludeFromContext.
func (app *Agent) RunBash(ctx context.Context, command string, excludeFromContext bool, onChunk func(string)) (engine.BashResult, error) {
	sess := app.session()
	cwd := sess.Cwd()
	if st, err := os.Stat(cwd); err != nil || !st.IsDir() {
		return engine.BashResult{}, fmt.Errorf("Working directory does not exist: %s", cwd)
	}
	run := func(ctx context.Context, onChunk func(string)) (engine.BashResult, error) {
		cfg := builtins.ShellConfig{ShellPath: app.settings.ShellPath(), CommandPrefix: app.settings.ShellCommandPrefix()}
		o, err := builtins.RunBashWithConfig(ctx, cwd, command, cfg, onChunk)
		if err != nil {
			return engine.BashResult{}, err
		}
		return engine.BashResult{Output: o.Output, ExitCode: o.ExitCode, Cancelled: o.Cancelled, Truncated: o.Truncated, FullOutputPath: o.FullOutputPath}, nil
	}
	if app.ext.Active() {
		api, _ := app.ext.Current()
		switch d := api.UserBash(ctx, command, excludeFromContext, cwd); {
		case d == nil:
		case d.Err != nil:
			return engine.BashResult{}, d.Err
		case d.Result != nil:
			r := d.Result
			res := engine.BashResult{Output: r.Output, ExitCode: r.ExitCode, Cancelled: r.Cancelled, Truncated: r.Truncated, FullOutputPath: r.FullOutputPath}
			recordBash(sess, command, res, excludeFromContext)
			return res, nil
		case d.Run != nil:
			run = func(ctx context.Context, onChunk func(string)) (engine.BashResult, error) {
				out, err := builtins.RunBashOutput(ctx, d.Run, onChunk)
				if err != nil {
					return engine.BashResult{}, err
				}
				return engine.BashResult(out), nil
			}
		}
	}
	res, err := run(ctx, onChunk)
	if err != nil {
		return engine.BashResult{}, err
	}
	recordBash(sess, command, res, excludeFromContext)
	return res, nil
}

// recordBash appends the bashExecution message that carries a user
// command's output to the model on the next prompt.
func recordBash(sess *engine.Session, command string, res engine.BashResult, exclude bool) {
	sess.AppendMessage(&engine.Message{
		Role: engine.RoleBashExecution, Command: command, Output: res.Output, ExitCode: res.ExitCode,
		Cancelled: res.Cancelled, Truncated: res.Truncated, FullOutputPath: res.FullOutputPath,
		ExcludeFromContext: exclude, Timestamp: engine.NowMillis(),
	})
}

// ExportHTML writes the current session as one self-contained HTML page
// and returns its path (outPath "" names it after the session).
func (app *Agent) ExportHTML(outPath string) (string, error) {
	_, store := app.Current()
	return rpc.ExportHTML(store.Header(), store.Entries(), outPath)
}

// ServeRPC serves the RPC protocol (JSONL commands on in, responses and
// events on out) until in ends or ctx is cancelled; the agent must have
// been created with Mode ModeRPC. Signals are the caller's.
func (app *Agent) ServeRPC(ctx context.Context, in io.Reader, out *rpc.Writer) error {
	srv := rpc.NewServer(rpc.Options{Out: out, Controller: app, Stderr: app.stderr})
	srv.ExportHTML = rpc.ExportHTML
	// Extension and skill errors go on the stream once the server exists.
	app.ext.SetPublish(func(e engine.Event) {
		if s := app.session(); s != nil {
			s.Publish(e)
			return
		}
		_ = out.WriteEvent(e)
	})
	if app.ext.Active() {
		// ctx.ui dialogs travel as extension_ui_request records.
		bridge := rpc.NewUIBridge(out)
		app.ext.SetUI(bridge)
		srv.OnUIResponse = bridge.HandleResponse
		srv.CancelDialogs = bridge.CancelAll
		app.ext.ReleaseStart()
		app.setMCPUI(bridge)
		app.setLlamaUI(bridge)
	} else if app.mcpManager() != nil || app.llamaOn() {
		// /mcp and /llama answer with notifications, extension_ui_request
		// records.
		bridge := rpc.NewUIBridge(out)
		srv.OnUIResponse = bridge.HandleResponse
		app.setMCPUI(bridge)
		app.setLlamaUI(bridge)
	}
	starttrace.Step("rpc server")
	return srv.Serve(ctx, in)
}
