package pi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/config/login"
	"github.com/pi-go/pi/engine/interactive/slash"
	"github.com/pi-go/pi/engine/interactive/slash/authinfo"
	"github.com/pi-go/pi/engine/session"
)

// This file holds the operations the interactive mode's built-in slash
// commands (engine/interactive/slash) need and the rest of *Agent does not
// offer: small, face-neutral wrappers over the session, the settings, the
// session store and the credential store. *Agent satisfies slash.Agent
// (checked in face_cmds_test.go); it does not import slash, so embedding
// pi does not link the TUI.

// Model is the current session's model (nil before one is chosen).
func (app *Agent) Model() *engine.Model { return app.session().Model() }

// ThinkingLevel is the current session's thinking level.
func (app *Agent) ThinkingLevel() engine.ThinkingLevel { return app.session().ThinkingLevel() }

// SetThinkingLevel sets the session's level, clamped to what the model
// supports, and returns the level in effect.
func (app *Agent) SetThinkingLevel(level engine.ThinkingLevel) engine.ThinkingLevel {
	return app.session().SetThinkingLevel(level)
}

// IsStreaming reports whether the agent is working on a prompt.
func (app *Agent) IsStreaming() bool { return app.session().IsStreaming() }

// IsCompacting reports whether a compaction or a branch summary runs.
func (app *Agent) IsCompacting() bool { return app.session().IsCompacting() }

// Compact summarises the session's older context (/compact), with
// optional extra instructions for the summary.
func (app *Agent) Compact(ctx context.Context, instructions string) (*engine.CompactionResult, error) {
	return app.session().Compact(ctx, instructions)
}

// NavigateTree moves the session to another entry of its tree (/tree),
// optionally summarising the branch it leaves.
func (app *Agent) NavigateTree(ctx context.Context, entryID string, o engine.NavigateOptions) (engine.NavigateResult, error) {
	return app.session().NavigateTree(ctx, entryID, o)
}

// SetSessionName names the current session and returns the name as
// stored (control characters folded).
func (app *Agent) SetSessionName(name string) (string, error) {
	return app.session().SetSessionName(name)
}

// SetLabel labels an entry of the current session; "" removes the label.
func (app *Agent) SetLabel(entryID, label string) error {
	var l *string
	if label != "" {
		l = &label
	}
	return app.session().AppendLabel(entryID, l)
}

// Setting is the effective value of a settings.json key (the global file
// under the trusted project's), nil when unset.
func (app *Agent) Setting(key string) any { return app.settings.Raw(key) }

// AgentDir is the agent directory (~/.pi/agent unless configured).
func (app *Agent) AgentDir() string { return app.agentDir }

// ProjectTrusted reports whether this process loaded the project
// folder's resources.
func (app *Agent) ProjectTrusted() bool {
	app.mu.Lock()
	defer app.mu.Unlock()
	return app.trusted
}

// SetModelScope replaces the models Ctrl+P cycles through for this
// process ("provider/id" each; nil: every model with credentials), as
// /scoped-models does before its changes are saved.
func (app *Agent) SetModelScope(ids []string) {
	app.mu.Lock()
	defer app.mu.Unlock()
	if ids == nil {
		// No scope at all, not even the enabledModels setting's.
		ids = []string{"*"}
	}
	app.opts.Models = slices.Clone(ids)
}

// customSessionDir is the session folder when one is configured
// (--session-dir, PI_CODING_AGENT_SESSION_DIR, the sessionDir setting);
// "" means the per-project folders under <agentDir>/sessions.
func (app *Agent) customSessionDir() string {
	switch {
	case app.opts.SessionDir != "":
		return config.ExpandHome(app.opts.SessionDir)
	case os.Getenv("PI_CODING_AGENT_SESSION_DIR") != "":
		return config.ExpandHome(os.Getenv("PI_CODING_AGENT_SESSION_DIR"))
	}
	return app.settings.SessionDir()
}

// ListSessions lists the sessions of the current folder, or (all) of
// every project, newest first, as /resume shows them.
func (app *Agent) ListSessions(all bool) ([]session.Info, error) {
	if all {
		return session.ListAll(app.agentDir, app.customSessionDir())
	}
	return session.List(app.agentDir, app.Cwd(), app.customSessionDir())
}

// ExportJSONL writes the current session file (header and every entry)
// to outPath and returns the path written.
func (app *Agent) ExportJSONL(outPath string) (string, error) {
	_, store := app.Current()
	if outPath == "" {
		return "", errors.New("no output path")
	}
	abs, err := filepath.Abs(config.ExpandHome(outPath))
	if err != nil {
		return "", err
	}
	var buf []byte
	header := store.HeaderJSON()
	buf = append(append(buf, header...), '\n')
	for _, e := range store.Entries() {
		raw := store.EntryJSON(e.ID)
		if raw == nil {
			if raw, err = engine.MarshalJSON(e); err != nil {
				return "", err
			}
		}
		buf = append(append(buf, raw...), '\n')
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(abs, buf, 0o644); err != nil {
		return "", err
	}
	return abs, nil
}

// ImportSession copies a session file into the session folder of the
// directory it ran in (keeping its id and working directory) and switches
// to it, unless an extension cancels. A session whose directory no
// longer exists is refused.
func (app *Agent) ImportSession(ctx context.Context, path string) (cancelled bool, err error) {
	src, err := filepath.Abs(config.ExpandHome(path))
	if err != nil {
		return false, err
	}
	header, _, err := session.Load(src)
	if err != nil {
		return false, err
	}
	if header.Cwd == "" {
		return false, fmt.Errorf("%s has no working directory in its header", path)
	}
	if st, err := os.Stat(header.Cwd); err != nil || !st.IsDir() {
		return false, fmt.Errorf("the session's working directory %s does not exist", header.Cwd)
	}
	dir := app.customSessionDir()
	if dir == "" {
		dir = session.AgentSessionsDir(app.agentDir, header.Cwd)
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if filepath.Clean(dst) != filepath.Clean(src) {
		if _, err := os.Stat(dst); err == nil {
			return false, fmt.Errorf("%s already exists", dst)
		}
		if err := copyFile(src, dst); err != nil {
			return false, err
		}
	}
	return app.SwitchSession(ctx, dst)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	return out.Close()
}

// AuthProviders lists the providers of the model registry and the login
// flows, in catalogue order, with what each can do and has.
func (app *Agent) AuthProviders() []authinfo.Provider {
	reg := app.registry
	stored, _ := reg.StoredCredentialTypes()
	seen := map[string]bool{}
	var ids []string
	for _, m := range reg.All() {
		if !seen[m.Provider] {
			seen[m.Provider] = true
			ids = append(ids, m.Provider)
		}
	}
	extra := login.LoginProviders()
	slices.Sort(extra)
	// models.json's Radius providers sign in before they have models.
	extra = append(extra, reg.RadiusProviders()...)
	for _, p := range extra {
		if !seen[p] {
			seen[p] = true
			ids = append(ids, p)
		}
	}
	out := make([]authinfo.Provider, 0, len(ids))
	for _, id := range ids {
		_, hasFlow := login.OAuthFlow(id)
		_, hasKey := login.APIKeyName(id)
		custom := config.CatalogProviderName(id) == "" && reg.HasProvider(id)
		if _, radius := reg.RadiusGateway(id); radius {
			hasFlow = true
		}
		out = append(out, authinfo.Provider{
			ID: id, Name: reg.ProviderDisplayName(id), OAuth: hasFlow, APIKey: hasKey || custom,
			Configured: reg.HasConfiguredAuth(id), Stored: stored[id],
		})
	}
	return out
}

// Login runs a provider's sign-in (account, or API key when apiKey) with
// ui answering its questions, and stores the credential in auth.json.
func (app *Agent) Login(ctx context.Context, provider string, apiKey bool, ui login.Interaction) error {
	reg := app.registry
	var cred json.RawMessage
	var err error
	switch {
	case !apiKey:
		flow, ok := login.OAuthFlow(provider)
		if gw, radius := reg.RadiusGateway(provider); radius && provider != "radius" {
			flow, ok = login.RadiusFlow(reg.ProviderDisplayName(provider), gw), true
		}
		if !ok {
			return fmt.Errorf("account sign-in for %s is not available in this build", reg.ProviderDisplayName(provider))
		}
		ep := &login.Endpoints{
			CopilotKnownModel: func(m string) bool { return reg.Find("github-copilot", m) != nil },
			// The ChatGPT sign-in names this installation by its device id.
			DeviceID: config.DeviceID(app.agentDir),
		}
		cred, err = flow.Run(ctx, ui, ep)
	case config.CatalogProviderName(provider) == "" && reg.HasProvider(provider):
		if _, radius := reg.RadiusGateway(provider); radius {
			// A models.json Radius provider's key login is Radius's.
			cred, err = login.APIKeyLogin(ctx, "radius", ui)
			break
		}
		cred, err = login.NamedAPIKeyLogin(ctx, "API key", ui)
	default:
		cred, err = login.APIKeyLogin(ctx, provider, ui)
	}
	if err != nil {
		return err
	}
	if err := reg.EnsureAuthFile(); err != nil {
		return err
	}
	return reg.SaveCredential(ctx, provider, cred)
}

// AfterLogin finishes a login as the reference's /login does: it refreshes
// the provider's account-specific model list (a Radius account's models;
// 15 seconds at most), then, when no model is selected yet, selects the
// provider's default model (for Radius, else its first). selected is the
// model chosen, note why none could be, and refreshErr a failed or timed
// out refresh (the login stands; the cached models stay).
func (app *Agent) AfterLogin(ctx context.Context, provider string) (selected, note string, refreshErr error) {
	reg := app.registry
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	_, refreshErr = reg.RefreshProviderCatalog(rctx, nil, provider)
	if refreshErr != nil && rctx.Err() == context.DeadlineExceeded {
		refreshErr = fmt.Errorf("%w: %w", context.DeadlineExceeded, refreshErr)
	}
	cancel()
	if m := app.Model(); m != nil && !m.Placeholder && !(m.Provider == "unknown" && m.ID == "unknown") {
		// A model chosen before (or while) the login stays.
		return "", "", refreshErr
	}
	var models []*engine.Model
	for _, m := range reg.Available() {
		if m.Provider == provider {
			models = append(models, m)
		}
	}
	id, hasDefault := config.DefaultModelID(provider)
	var pick *engine.Model
	for _, m := range models {
		if m.ID == id {
			pick = m
			break
		}
	}
	if pick == nil && provider == "radius" && len(models) > 0 {
		// Radius catalogs vary by account: the first stands in for its default.
		pick = models[0]
	}
	switch {
	case !hasDefault && pick == nil:
		return "", fmt.Sprintf("no default model is configured for provider %q. Use /model to select a model.", provider), refreshErr
	case len(models) == 0:
		return "", "no models are available for that provider. Use /model to select a model.", refreshErr
	case pick == nil:
		return "", fmt.Sprintf("its default model %q is not available. Use /model to select a model.", id), refreshErr
	}
	if _, err := app.SetModel(ctx, pick.Provider, pick.ID); err != nil {
		return "", fmt.Sprintf("selecting its default model failed: %s. Use /model to select a model.", err), refreshErr
	}
	return pick.ID, "", refreshErr
}

// Logout removes what auth.json holds for provider.
func (app *Agent) Logout(ctx context.Context, provider string) error {
	_, err := app.registry.RemoveCredential(ctx, provider)
	return err
}

// AuthPath is the credential file /login writes.
func (app *Agent) AuthPath() string { return app.registry.AuthPath() }

// shareTool is one tool of the pi.share entry: what the session viewer
// shows of the tools the session had.
type shareTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

type shareEntry struct {
	Type       string  `json:"type"`
	CustomType string  `json:"customType"`
	ID         string  `json:"id"`
	ParentID   *string `json:"parentId"`
	Timestamp  string  `json:"timestamp"`
	Data       struct {
		SystemPrompt string      `json:"systemPrompt"`
		Tools        []shareTool `json:"tools"`
	} `json:"data"`
}

// ShareJSONL is the current branch as /share and /bug send it: a fresh
// session header, the branch's entries, and a trailing "pi.share" custom
// entry with the system prompt and the tools' schemas for the viewer, as
// the reference serialises it.
func (app *Agent) ShareJSONL() ([]byte, error) {
	sess, store := app.Current()
	if store == nil || sess == nil {
		return nil, errors.New("no session")
	}
	now := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	h := store.Header()
	version := h.Version
	if version == 0 {
		version = 3
	}
	header, err := engine.MarshalJSON(engine.Header{Type: "session", Version: version, ID: h.ID, Timestamp: now, Cwd: h.Cwd})
	if err != nil {
		return nil, err
	}
	buf := append(header, '\n')
	var parent *string
	// A branch is a chain from the root, so each entry's stored parentId
	// already names the entry before it.
	for _, e := range store.Branch() {
		raw := store.EntryJSON(e.ID)
		if raw == nil {
			if raw, err = engine.MarshalJSON(e); err != nil {
				return nil, err
			}
		}
		buf = append(append(buf, raw...), '\n')
		id := e.ID
		parent = &id
	}
	tail := shareEntry{Type: "custom", CustomType: "pi.share", ID: strings.ReplaceAll(uuid.NewString(), "-", "")[:8], ParentID: parent, Timestamp: now}
	tail.Data.SystemPrompt = sess.SystemPromptText()
	tail.Data.Tools = []shareTool{}
	for _, t := range sess.Tools() {
		in := t.Info()
		params := in.Parameters
		if len(params) == 0 {
			params = json.RawMessage("{}")
		}
		tail.Data.Tools = append(tail.Data.Tools, shareTool{Name: in.Name, Description: in.Description, Parameters: params})
	}
	raw, err := engine.MarshalJSON(tail)
	if err != nil {
		return nil, err
	}
	return append(append(buf, raw...), '\n'), nil
}

// RadiusToken is the Radius sign-in's bearer token for /share and /bug
// ("" when Radius is not signed in): the OAuth token, refreshed when it
// is about to expire, or a stored API key.
func (app *Agent) RadiusToken(ctx context.Context) (string, error) {
	if app.registry == nil || !app.registry.HasProvider("radius") {
		return "", nil
	}
	if key, ok, err := app.registry.ResolveOAuthKey(ctx, "radius"); ok || err != nil {
		return key, err
	}
	key, _ := app.registry.APIKey("radius")
	return key, nil
}

// The interactive mode's /share and /bug use these.
var _ slash.Sharer = (*Agent)(nil)

// RefreshModelCatalogs refreshes the catalogues of the providers that
// load their models, as the /model picker does while it shows: every
// extension provider with refreshModels (with network, an expired OAuth
// token refreshed first) and, when signed in, Radius. Failures come back
// by provider name; offline (PI_OFFLINE) nothing is fetched.
func (app *Agent) RefreshModelCatalogs(ctx context.Context) map[string]string {
	errs := map[string]string{}
	if os.Getenv("PI_OFFLINE") != "" {
		return errs
	}
	if api, _ := app.ext.Current(); api != nil {
		for name, e := range api.RefreshProviderModels(ctx, true) {
			errs[name] = e
		}
	}
	if tok, err := app.RadiusToken(ctx); err == nil && tok != "" {
		gateway := os.Getenv("PI_RADIUS_GATEWAY")
		if err := app.registry.RefreshRadiusCatalog(ctx, http.DefaultClient, "radius", gateway, time.Now()); err != nil {
			errs["radius"] = err.Error()
		}
	}
	return errs
}

var _ slash.CatalogRefresher = (*Agent)(nil)
