package pi

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/llamacpp"
	"github.com/pi-go/pi/prompts"
)

// builtin:llama.cpp, the reference's built-in extension for a local
// llama.cpp router, written in Go: the llama.cpp provider (its server
// from auth.json's llama.cpp credential or LLAMA_BASE_URL, its key from
// the credential, LLAMA_API_KEY or "local"), the router's models (kept in
// models-store.json, refreshed from GET /models in RPC and interactive
// mode unless offline), the same models as classifiers (the registry's
// typed models), and /llama.

const llamaBuiltinName = "llama.cpp"

// llamaCommandDescription is /llama's get_commands description.
const llamaCommandDescription = "Manage llama.cpp router models"

// llamaBuiltin is the agent's llama.cpp state.
type llamaBuiltin struct {
	mu sync.Mutex
	// on is set when builtin:llama.cpp runs in this session.
	on bool
	// serverURL is the configured router ("" when none is), key what
	// requests to it carry.
	serverURL, key string
	// ui shows /llama (set by the face: RPC's bridge, the terminal UI).
	ui engine.UI
	// refreshed is closed when the start's background refresh ends (tests
	// and /llama wait for it rather than racing it).
	refreshed chan struct{}
}

// llamaStored is the provider's models-store.json entry.
type llamaStored struct {
	Models    []json.RawMessage `json:"models"`
	CheckedAt int64             `json:"checkedAt"`
}

// llamaConnection is the configured router and its key: auth.json's
// llama.cpp credential (its env.LLAMA_BASE_URL and key), then the
// LLAMA_BASE_URL and LLAMA_API_KEY environment variables; the key is
// "local" when none is given. ok is false when no router is configured.
func (app *Agent) llamaConnection() (serverURL, key string, ok bool) {
	var cred struct {
		Type string            `json:"type"`
		Key  *string           `json:"key"`
		Env  map[string]string `json:"env"`
	}
	stored := false
	if raw := app.registry.StoredCredential(llamacpp.ProviderID); raw != nil && json.Unmarshal(raw, &cred) == nil && cred.Type == "api_key" {
		stored = true
	}
	if v := strings.TrimSpace(cred.Env["LLAMA_BASE_URL"]); stored && v != "" {
		serverURL = v
	} else {
		serverURL = strings.TrimSpace(os.Getenv("LLAMA_BASE_URL"))
	}
	if serverURL == "" {
		return "", "", false
	}
	u, err := llamacpp.NormalizeServerURL(serverURL)
	if err != nil {
		fmt.Fprintln(app.stderr, "Warning: llama.cpp:", err)
		return "", "", false
	}
	switch {
	case stored && cred.Key != nil:
		key = *cred.Key
	case os.Getenv("LLAMA_API_KEY") != "":
		key = os.Getenv("LLAMA_API_KEY")
	default:
		key = "local"
	}
	return u, key, true
}

// modelNetworkAllowed reports whether catalogs may be refreshed over the
// network: not with --offline or PI_OFFLINE set (to anything), as the
// reference decides.
func (app *Agent) modelNetworkAllowed() bool {
	if app.opts.Offline {
		return false
	}
	_, set := os.LookupEnv("PI_OFFLINE")
	return !set
}

// setupLlama registers the llama.cpp provider when builtin:llama.cpp is
// on: the models the last refresh kept, credentials when a router is
// configured, and, in RPC and interactive mode with network allowed, a
// refresh from the router in the background, as the reference starts
// one after start-up.
func (app *Agent) setupLlama() {
	if !app.builtinExtEnabled(llamaBuiltinName) {
		return
	}
	l := &app.llama
	l.mu.Lock()
	l.on = true
	l.mu.Unlock()
	app.applyLlamaStore()
	serverURL, key, ok := app.llamaConnection()
	if !ok {
		return
	}
	app.registry.AddModels(llamacpp.ProviderID, &key)
	l.mu.Lock()
	l.serverURL, l.key = serverURL, key
	l.mu.Unlock()
	if (app.mode == ModeRPC || app.mode == ModeInteractive) && app.modelNetworkAllowed() && !app.opts.ListModelsOnly {
		done := make(chan struct{})
		l.mu.Lock()
		l.refreshed = done
		l.mu.Unlock()
		go func() {
			defer close(done)
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			// A router that is down at start leaves the stored models, as
			// the reference's background refresh does; /llama reports it.
			_ = app.refreshLlama(ctx)
		}()
	}
}

// llamaOn reports whether builtin:llama.cpp runs.
func (app *Agent) llamaOn() bool {
	app.llama.mu.Lock()
	defer app.llama.mu.Unlock()
	return app.llama.on
}

// waitLlamaRefresh waits for the start's background refresh, if any.
func (app *Agent) waitLlamaRefresh(ctx context.Context) {
	app.llama.mu.Lock()
	done := app.llama.refreshed
	app.llama.mu.Unlock()
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// applyLlamaStore puts the models the last refresh kept in place: the
// chat models into the registry, the classifiers aside.
func (app *Agent) applyLlamaStore() {
	raw := app.registry.ReadModelsStore(llamacpp.ProviderID)
	if raw == nil {
		return
	}
	var st llamaStored
	if json.Unmarshal(raw, &st) != nil {
		return
	}
	chat, classifiers := splitLlamaModels(st.Models)
	_ = app.registry.SetProviderModels(llamacpp.ProviderID, chat)
	app.registry.SetTypedModels(llamacpp.ProviderID, "classifier", classifiers)
}

// splitLlamaModels separates stored chat models from classifiers, and
// drops entries of another kind or API (a store an older build wrote).
func splitLlamaModels(models []json.RawMessage) (chat, classifiers []json.RawMessage) {
	for _, m := range models {
		var head struct {
			Type string `json:"type"`
			API  string `json:"api"`
		}
		if json.Unmarshal(m, &head) != nil {
			continue
		}
		switch {
		case (head.Type == "" || head.Type == "chat") && head.API == "openai-completions":
			chat = append(chat, m)
		case head.Type == "classifier" && (head.API == "llama-cpp-classify" || head.API == "typesafe-system-one"):
			classifiers = append(classifiers, m)
		}
	}
	return chat, classifiers
}

// llamaClient is a client for the configured router, or nil.
func (app *Agent) llamaClient() *llamacpp.Client {
	app.llama.mu.Lock()
	serverURL, key := app.llama.serverURL, app.llama.key
	app.llama.mu.Unlock()
	if serverURL == "" {
		return nil
	}
	c, err := llamacpp.NewClient(serverURL, key)
	if err != nil {
		return nil
	}
	return c
}

// refreshLlama reads the router's models, keeps them in models-store.json
// and puts them in place of the provider's models.
func (app *Agent) refreshLlama(ctx context.Context) error {
	c := app.llamaClient()
	if c == nil {
		return nil
	}
	cached := map[string]int{}
	if raw := app.registry.ReadModelsStore(llamacpp.ProviderID); raw != nil {
		var st llamaStored
		if json.Unmarshal(raw, &st) == nil {
			for _, m := range st.Models {
				var head struct {
					ID            string `json:"id"`
					ContextWindow int    `json:"contextWindow"`
				}
				if json.Unmarshal(m, &head) == nil && head.ContextWindow > 0 {
					cached[head.ID] = head.ContextWindow
				}
			}
		}
	}
	cat, err := llamacpp.Fetch(ctx, c, cached)
	if err != nil {
		return err
	}
	all := append(append([]json.RawMessage{}, cat.Chat...), cat.Classifiers...)
	entry, err := json.Marshal(llamaStored{Models: all, CheckedAt: time.Now().UnixMilli()})
	if err != nil {
		return err
	}
	if err := app.registry.WriteModelsStore(llamacpp.ProviderID, entry); err != nil {
		return err
	}
	if err := app.registry.SetProviderModels(llamacpp.ProviderID, cat.Chat); err != nil {
		return err
	}
	app.registry.SetTypedModels(llamacpp.ProviderID, "classifier", cat.Classifiers)
	return nil
}

// llamaClassifiers are the router's models as classifier models.
func (app *Agent) llamaClassifiers() []json.RawMessage {
	var out []json.RawMessage
	for _, m := range app.registry.TypedModels("classifier", false) {
		var head struct {
			Provider string `json:"provider"`
		}
		if json.Unmarshal(m, &head) == nil && head.Provider == llamacpp.ProviderID {
			out = append(out, m)
		}
	}
	return out
}

// llamaCommandInfo is /llama in get_commands, as a command of the
// built-in extension builtin:llama.cpp; nil when it is off.
func (app *Agent) llamaCommandInfo() *prompts.CommandInfo {
	if !app.llamaOn() {
		return nil
	}
	d := llamaCommandDescription
	return &prompts.CommandInfo{Name: "llama", Description: &d, Source: "extension",
		SourceInfo: &prompts.SourceInfo{Path: builtinPrefix + llamaBuiltinName, Source: "builtin", Scope: "temporary", Origin: "top-level"},
		Location:   prompts.SeedLocation("temporary"), Path: builtinPrefix + llamaBuiltinName}
}

// setLlamaUI makes ui show /llama.
func (app *Agent) setLlamaUI(ui engine.UI) {
	app.llama.mu.Lock()
	app.llama.ui = ui
	app.llama.mu.Unlock()
}

// llamaNotify shows one /llama message: on the face's UI, or on stderr
// in print and JSON mode.
func (app *Agent) llamaNotify(message, kind string) {
	app.llama.mu.Lock()
	ui := app.llama.ui
	app.llama.mu.Unlock()
	if ui != nil {
		ui.Notify(message, kind)
		return
	}
	prefix := ""
	switch kind {
	case "warning":
		prefix = "Warning: "
	case "error":
		prefix = "Error: "
	}
	fmt.Fprintln(app.stderr, prefix+message)
}

// withLlamaHooks puts /llama in front of the input handlers when
// builtin:llama.cpp is on.
func (app *Agent) withLlamaHooks(inner engine.Hooks) engine.Hooks {
	if !app.llamaOn() {
		return inner
	}
	_, nop := inner.(engine.NopHooks)
	if n, ok := inner.(engine.ProviderHooksNop); ok {
		nop = n.ProviderHooksNop()
	}
	return llamaHooks{Hooks: inner, app: app, nop: nop}
}

// llamaHooks runs /llama; every other event goes to inner.
type llamaHooks struct {
	engine.Hooks
	app *Agent
	nop bool
}

// ProviderHooksNop keeps the fast path of a session without extensions.
func (h llamaHooks) ProviderHooksNop() bool { return h.nop }

func (h llamaHooks) Input(ctx context.Context, text string, images []engine.Content, source, streamingBehavior string) (engine.InputResult, error) {
	if name, _, _ := strings.Cut(strings.TrimSpace(text), " "); name == "/llama" {
		h.app.runLlamaCommand(ctx)
		return engine.InputResult{Action: engine.InputHandled}, nil
	}
	return h.Hooks.Input(ctx, text, images, source, streamingBehavior)
}
