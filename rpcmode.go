package pi

import (
	"context"
	"io"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/rpc"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/internal/starttrace"
)

// ServeRPC serves the RPC protocol (JSONL commands on in, responses and
// events on out) until in ends or ctx is cancelled; the agent must have
// been created with Mode ModeRPC. Signals are the caller's.
func (app *Agent) ServeRPC(ctx context.Context, in io.Reader, out *rpc.Writer) error {
	host := &rpcHost{app: app}
	srv := rpc.NewServer(rpc.Options{
		Out: out, Session: app.session(), Store: app.currentStore(), Host: host,
		Templates: app.templates, Skills: app.skills,
		Stderr: app.stderr,
	})
	wireRPCExtras(srv)
	app.wireRPCExtensions(srv, out)
	app.wireUserBash(srv)
	starttrace.Step("rpc server")
	return srv.Serve(ctx, in)
}

// currentStore returns the session store in use.
func (app *Agent) currentStore() *session.File {
	app.mu.Lock()
	defer app.mu.Unlock()
	return app.store
}

// rpcHost gives the RPC server the program's models, settings, shell and
// session construction.
type rpcHost struct {
	app *Agent
}

// StartSession builds a runtime over store. The model the store's branch
// names wins when it is available; otherwise the previous session's model
// carries over.
func (h *rpcHost) StartSession(store *session.File, prev *engine.Session) (*engine.Session, error) {
	app := h.app
	model := app.model
	// A session without a recorded level starts at the default level, as
	// the reference's new sessions do; one with a level keeps it.
	var thinking engine.ThinkingLevel
	if level, set := app.settings.DefaultThinkingLevel(); set {
		thinking = level
	}
	if prev != nil {
		model = prev.Model()
	}
	branch := store.Branch()
	sc := engine.BuildContext(branch)
	if sc.Model != nil {
		if m := app.registry.Find(sc.Model.Provider, sc.Model.ModelID); m != nil && h.HasAuth(m) {
			model = m
		}
	}
	for _, e := range branch {
		if e.Type == engine.EntryThinkingLevelChange {
			thinking = ""
			break
		}
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

func (h *rpcHost) AvailableModels() []*engine.Model { return h.app.registry.Available() }

func (h *rpcHost) ScopedModels() []rpc.ScopedModel {
	patterns := h.app.opts.Models
	if len(patterns) == 0 {
		patterns = h.app.settings.EnabledModels()
	}
	if len(patterns) == 0 {
		return nil
	}
	scoped, _ := config.ScopeModels(patterns, h.app.registry.Available())
	out := make([]rpc.ScopedModel, 0, len(scoped))
	for _, s := range scoped {
		out = append(out, rpc.ScopedModel{Model: s.Model, ThinkingLevel: s.Thinking})
	}
	return out
}

// HasAuth reports whether a model's provider has credentials.
func (h *rpcHost) HasAuth(m *engine.Model) bool {
	return h.app.registry.HasConfiguredAuth(m.Provider)
}

func (h *rpcHost) SetGlobalSetting(path string, value any) error {
	return h.app.settings.SetGlobal(path, value)
}

func (h *rpcHost) RunBash(ctx context.Context, cwd, command string, onChunk func(string)) (rpc.BashResult, error) {
	cfg := builtins.ShellConfig{ShellPath: h.app.settings.ShellPath(), CommandPrefix: h.app.settings.ShellCommandPrefix()}
	o, err := builtins.RunBashWithConfig(ctx, cwd, command, cfg, onChunk)
	if err != nil {
		return rpc.BashResult{}, err
	}
	return rpc.BashResult{Output: o.Output, ExitCode: o.ExitCode, Cancelled: o.Cancelled, Truncated: o.Truncated, FullOutputPath: o.FullOutputPath}, nil
}
