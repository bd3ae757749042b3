package pi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config/login"
	"github.com/pi-go/pi/engine/llm/llamacpp/llamatest"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// llamaHome is a mock agent directory whose auth.json points the
// llama.cpp provider at router (the stored credential /login llama.cpp
// writes), so tests need no environment.
func llamaHome(t *testing.T, router *llamatest.Router, key string) (agentDir, project string) {
	t.Helper()
	agentDir, project, _ = sdktest.Home(t, mockllm.Script{})
	cred := map[string]any{"type": "api_key", "env": map[string]string{"LLAMA_BASE_URL": router.URL + "/v1"}}
	if key != "" {
		cred["key"] = key
	}
	b, _ := json.Marshal(map[string]any{"llama.cpp": cred})
	require.NoError(t, os.WriteFile(filepath.Join(agentDir, "auth.json"), b, 0o600))
	return agentDir, project
}

func newRouter(t *testing.T) *llamatest.Router {
	r := llamatest.New(false,
		llamatest.Model{ID: "qwen", Status: "loaded", NCtx: 8192, ChatTemplate: "enable_thinking"},
		llamatest.Model{ID: "gemma", Status: "unloaded"},
		llamatest.Model{ID: "jev", Status: "sleeping", Decision: true},
	)
	t.Cleanup(r.Close)
	return r
}

func startLlama(t *testing.T, o Options) *Agent {
	t.Helper()
	if o.Stderr == nil {
		o.Stderr = &bytes.Buffer{}
	}
	o.NoSession = true
	if o.Model == "" {
		o.Model = sdktest.Model
	}
	app, err := New(context.Background(), o)
	require.NoError(t, err)
	t.Cleanup(app.Close)
	return app
}

// In RPC mode the router's models arrive in the background after start:
// the loaded chat model (thinking, from its template) is selectable, the
// unloaded one is not, the decision model is only a classifier, the
// catalog is kept in models-store.json, and every request carries the
// stored key.
func TestLlamaRefreshAtStart(t *testing.T) {
	t.Parallel()
	r := newRouter(t)
	agentDir, project := llamaHome(t, r, "sekrit")
	app := startLlama(t, Options{AgentDir: agentDir, Cwd: project, Mode: ModeRPC})
	app.waitLlamaRefresh(context.Background())

	m := app.registry.Find("llama.cpp", "qwen")
	require.NotNil(t, m)
	assert.True(t, m.Reasoning)
	assert.Equal(t, r.URL+"/v1", m.BaseURL)
	assert.Nil(t, app.registry.Find("llama.cpp", "gemma"), "an unloaded model is not selectable")
	assert.Nil(t, app.registry.Find("llama.cpp", "jev"), "a decision model does not chat")
	var avail []string
	for _, m := range app.registry.Available() {
		if m.Provider == "llama.cpp" {
			avail = append(avail, m.ID)
		}
	}
	assert.Equal(t, []string{"qwen"}, avail)
	key, _, err := app.registry.RequestAuth(m)
	require.NoError(t, err)
	assert.Equal(t, "sekrit", key)

	var cls []string
	for _, c := range app.llamaClassifiers() {
		var h struct{ ID, API string }
		require.NoError(t, json.Unmarshal(c, &h))
		cls = append(cls, h.ID+" "+h.API)
	}
	assert.Equal(t, []string{"qwen llama-cpp-classify", "jev typesafe-system-one"}, cls)

	store, err := os.ReadFile(filepath.Join(agentDir, "models-store.json"))
	require.NoError(t, err)
	assert.Contains(t, string(store), `"llama.cpp"`)
	assert.Contains(t, string(store), `"checkedAt"`)
	for _, a := range r.Auth() {
		assert.Equal(t, "Bearer sekrit", a)
	}

	var names []string
	for _, c := range app.Commands() {
		names = append(names, c.Name)
	}
	assert.Equal(t, []string{"llama", "mcp"}, names, "the built-ins' commands in the reference's order")
}

// In print mode nothing reaches the router: the models a refresh kept
// are what is listed. Without a configured router they are listed but not
// available. (--offline in RPC mode is TestLlamaOffline and the e2e test:
// it sets PI_OFFLINE for the whole process.)
func TestLlamaStoredCatalog(t *testing.T) {
	t.Parallel()
	stored := `{"llama.cpp":{"models":[` +
		`{"id":"kept","name":"kept","api":"openai-completions","provider":"llama.cpp","baseUrl":"http://127.0.0.1:9/v1","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":4096,"maxTokens":4096},` +
		`{"type":"classifier","id":"kept","name":"kept","api":"llama-cpp-classify","provider":"llama.cpp","baseUrl":"http://127.0.0.1:9","input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":4096},` +
		`{"id":"other","api":"anthropic-messages","provider":"llama.cpp"}` +
		`],"checkedAt":1}}`
	for _, tc := range []struct {
		name      string
		mode      Mode
		router    bool
		available bool
	}{
		{name: "print", mode: ModePrint, router: true, available: true},
		{name: "no router", mode: ModePrint},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRouter(t)
			agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
			if tc.router {
				agentDir, project = llamaHome(t, r, "")
			}
			require.NoError(t, os.WriteFile(filepath.Join(agentDir, "models-store.json"), []byte(stored), 0o600))
			app := startLlama(t, Options{AgentDir: agentDir, Cwd: project, Mode: tc.mode})
			app.waitLlamaRefresh(context.Background())
			assert.Empty(t, r.Requests())
			require.NotNil(t, app.registry.Find("llama.cpp", "kept"))
			assert.Nil(t, app.registry.Find("llama.cpp", "other"), "a stored model of another API is dropped")
			assert.Equal(t, tc.available, app.registry.HasConfiguredAuth("llama.cpp"))
			assert.Len(t, app.llamaClassifiers(), 1)
			if tc.router {
				key, _, err := app.registry.RequestAuth(app.registry.Find("llama.cpp", "kept"))
				require.NoError(t, err)
				assert.Equal(t, "local", key, "no key configured: the reference sends \"local\"")
			}
		})
	}
}

// --offline and PI_OFFLINE (set to anything) keep the catalogs off the
// network.
func TestLlamaOffline(t *testing.T) {
	t.Parallel()
	assert.False(t, (&Agent{opts: &Options{Offline: true}}).modelNetworkAllowed())
	if _, set := os.LookupEnv("PI_OFFLINE"); !set {
		assert.True(t, (&Agent{opts: &Options{}}).modelNetworkAllowed())
	}
}

// -ne turns builtin:llama.cpp off (no /llama, no refresh), -e
// builtin:llama.cpp turns it back on, and a settings "-builtin:llama.cpp"
// turns it off.
func TestLlamaEnabled(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		noExt    bool
		exts     []string
		settings string
		on       bool
	}{
		{name: "default", on: true},
		{name: "-ne", noExt: true},
		{name: "-ne -e builtin:llama.cpp", noExt: true, exts: []string{"builtin:llama.cpp"}, on: true},
		{name: "settings", settings: `{"extensions":["-builtin:llama.cpp"]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRouter(t)
			agentDir, project := llamaHome(t, r, "")
			if tc.settings != "" {
				require.NoError(t, os.WriteFile(filepath.Join(agentDir, "settings.json"), []byte(tc.settings), 0o644))
			}
			app := startLlama(t, Options{AgentDir: agentDir, Cwd: project, Mode: ModeRPC, NoExtensions: tc.noExt, Extensions: tc.exts})
			app.waitLlamaRefresh(context.Background())
			listed := false
			for _, c := range app.Commands() {
				listed = listed || c.Name == "llama"
			}
			assert.Equal(t, tc.on, listed)
			assert.Equal(t, tc.on, app.registry.Find("llama.cpp", "qwen") != nil)
			assert.Equal(t, tc.on, len(r.Requests()) > 0)
		})
	}
}

// scriptUI answers the dialogs from a script and records everything.
type scriptUI struct {
	engine.NopUI
	mu      sync.Mutex
	answers []string
	log     []string
}

func (u *scriptUI) next(kind, title string, options []string) (string, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.log = append(u.log, fmt.Sprintf("%s %q %q", kind, title, options))
	if len(u.answers) == 0 {
		return "", false
	}
	a := u.answers[0]
	u.answers = u.answers[1:]
	return a, a != ""
}

func (u *scriptUI) Select(_ context.Context, title string, options []string, _ engine.DialogOptions) (string, bool) {
	return u.next("select", title, options)
}
func (u *scriptUI) Confirm(_ context.Context, title, message string, _ engine.DialogOptions) bool {
	a, _ := u.next("confirm", title+": "+message, nil)
	return a == "yes"
}
func (u *scriptUI) Input(_ context.Context, title, placeholder string, _ engine.DialogOptions) (string, bool) {
	return u.next("input", title, []string{placeholder})
}
func (u *scriptUI) Notify(message, kind string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.log = append(u.log, "notify "+kind+" "+message)
}
func (u *scriptUI) HasUI() bool { return true }

func (u *scriptUI) notes() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []string
	for _, l := range u.log {
		if strings.HasPrefix(l, "notify ") {
			out = append(out, strings.TrimPrefix(l, "notify "))
		}
	}
	return out
}

// Headless, /llama says it needs the terminal UI, as the reference does
// (RPC: an extension_ui_request notify).
func TestLlamaCommandHeadless(t *testing.T) {
	t.Parallel()
	r := newRouter(t)
	agentDir, project := llamaHome(t, r, "")
	app := startLlama(t, Options{AgentDir: agentDir, Cwd: project, Mode: ModeRPC})
	ui := &scriptUI{}
	app.setLlamaUI(ui)
	res, err := app.sessionHooks().Input(context.Background(), "/llama", nil, "rpc", "")
	require.NoError(t, err)
	assert.Equal(t, engine.InputHandled, res.Action)
	assert.Equal(t, []string{"warning /llama is available in interactive mode"}, ui.notes())
}

// In the terminal UI /llama lists the router's models (loaded first) and
// the download row; choosing the unloaded model with another loaded asks
// whether to unload it, keeping it loads beside it; choosing a loaded one
// unloads it once confirmed; a download of owner/repo:quant is the
// router's; the catalog follows each change.
func TestLlamaCommandTUI(t *testing.T) {
	t.Parallel()
	r := newRouter(t)
	agentDir, project := llamaHome(t, r, "")
	ui := &scriptUI{answers: []string{
		"gemma", "Keep loaded and load",
		"qwen · loaded · 8k context", "yes",
		llamaDownloadItem, "owner/repo:Q4_K_M",
		"",
	}}
	app := startLlama(t, Options{AgentDir: agentDir, Cwd: project, Mode: ModeInteractive, UI: ui})
	app.runLlamaCommand(context.Background())
	require.NotEmpty(t, ui.log)
	assert.Equal(t, fmt.Sprintf("select %q %q", "llama.cpp models\n"+r.URL, []string{"qwen · loaded · 8k context", "gemma", "jev · loaded", llamaDownloadItem}), ui.log[0])
	assert.Contains(t, ui.log, fmt.Sprintf("select %q %q", "2 models are loaded", []string{"Unload all and load", "Keep loaded and load", "Cancel"}))
	assert.Equal(t, "loaded", r.Status("gemma"))
	assert.Equal(t, "unloaded", r.Status("qwen"))
	assert.Equal(t, "unloaded", r.Status("owner/repo:Q4_K_M"))
	assert.Equal(t, []string{
		"info Loading model gemma", "info Loaded gemma", "info Unloaded qwen",
		"info Downloading model owner/repo:Q4_K_M", "info Downloaded owner/repo:Q4_K_M",
	}, ui.notes())
	assert.NotNil(t, app.registry.Find("llama.cpp", "gemma"), "the loaded model is selectable now")
	assert.Nil(t, app.registry.Find("llama.cpp", "qwen"), "the unloaded one is not")
}

// Without a configured router /llama points at /login.
func TestLlamaCommandUnconfigured(t *testing.T) {
	t.Parallel()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	ui := &scriptUI{}
	app := startLlama(t, Options{AgentDir: agentDir, Cwd: project, Mode: ModeInteractive, UI: ui})
	app.runLlamaCommand(context.Background())
	assert.Equal(t, []string{"warning Configure llama.cpp with /login llama.cpp"}, ui.notes())
}

// ctx.modelRegistry.classify with a router model as a classifier goes to
// the router with the provider's key; another classifier API is an error
// result that says it is not built.
func TestLlamaClassify(t *testing.T) {
	t.Parallel()
	r := newRouter(t)
	r.SetLogprobs(map[string]float64{"Yes": -0.5, "No": -1.5})
	agentDir, project := llamaHome(t, r, "")
	app := startLlama(t, Options{AgentDir: agentDir, Cwd: project, Mode: ModeRPC})
	app.waitLlamaRefresh(context.Background())
	cls := app.llamaClassifiers()
	require.NotEmpty(t, cls)
	out, err := registryModels{app.registry}.Classify(context.Background(), cls[0],
		json.RawMessage(`{"state":{"a":1},"questions":{"ok":{"type":"bool","instructions":"Fine?"}}}`), nil)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"answers":{"ok":{"type":"bool","probability":0.7310585786300049}},"stopReason":"stop"`)
	assert.Equal(t, "Bearer local", r.Auth()[len(r.Auth())-1])
	out, err = registryModels{app.registry}.Classify(context.Background(), cls[len(cls)-1], json.RawMessage(`{"state":1,"questions":{}}`), nil)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"stopReason":"error"`)
	assert.Contains(t, string(out), `"errorMessage":"Classifier API typesafe-system-one is not available in this build"`)
}

// askUI answers login prompts in order and records them.
type askUI struct {
	answers []string
	asked   []string
}

func (u *askUI) Ask(_ context.Context, p login.Prompt) (string, error) {
	u.asked = append(u.asked, p.Kind+" "+p.Message+" "+p.Placeholder)
	a := u.answers[0]
	u.answers = u.answers[1:]
	return a, nil
}
func (u *askUI) Notify(login.Event) {}

// /login llama.cpp asks for the router's URL (the default as the
// placeholder) and an optional key, checks the router, stores the
// reference's credential and makes the router's models available.
func TestLlamaLogin(t *testing.T) {
	t.Parallel()
	r := newRouter(t)
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	app := startLlama(t, Options{AgentDir: agentDir, Cwd: project, Mode: ModeRPC})
	var listed bool
	for _, p := range app.AuthProviders() {
		if p.ID == "llama.cpp" {
			listed = p.APIKey && !p.Configured
		}
	}
	assert.True(t, listed, "llama.cpp is offered by /login")
	ui := &askUI{answers: []string{r.URL + "/v1/", "sekrit"}}
	require.NoError(t, app.Login(context.Background(), "llama.cpp", true, ui))
	if os.Getenv("LLAMA_BASE_URL") == "" {
		assert.Equal(t, []string{"text llama.cpp server URL http://127.0.0.1:9931", "secret API key (optional) "}, ui.asked)
	}
	b, err := os.ReadFile(filepath.Join(agentDir, "auth.json"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"llama.cpp": {
    "type": "api_key",
    "key": "sekrit",
    "env": {
      "LLAMA_BASE_URL": "`+r.URL+`"
    }
  }`)
	require.NotNil(t, app.registry.Find("llama.cpp", "qwen"))
	assert.True(t, app.registry.HasConfiguredAuth("llama.cpp"))

	bad := &askUI{answers: []string{"http://127.0.0.1:1", ""}}
	require.ErrorContains(t, app.Login(context.Background(), "llama.cpp", true, bad), "Could not reach llama.cpp server at http://127.0.0.1:1")
}
