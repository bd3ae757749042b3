package jsruntime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// testRegistry adapts config.Registry the way cmd/pi does.
type testRegistry struct{ *config.Registry }

func (r testRegistry) HasAuth(m *engine.Model) bool {
	return m != nil && r.HasConfiguredAuth(m.Provider)
}
func (r testRegistry) AuthStatus(p string) any { return r.ProviderAuthStatus(p) }

func (r testRegistry) HeaderOrder(p string, names []string) []string {
	return r.Registry.HeaderOrder(p, names)
}

func (r testRegistry) SetProviderOAuth(p string, o ProviderOAuth) {
	if o == nil {
		r.SetOAuthHandler(p, nil)
		return
	}
	r.SetOAuthHandler(p, o)
}

var (
	_ ProviderRegistry = testRegistry{}
	_ OAuthRegistry    = testRegistry{}
)

// providerHarness loads src with a real model registry, flushes the
// queued registrations and binds a session over a faux provider.
type providerHarness struct {
	*fakeHost
	api      *API
	reg      testRegistry
	ui       *scriptedUI
	sess     *engine.Session
	flushErr error
}

func newProviderHarness(t *testing.T, src string, turns ...faux.Turn) *providerHarness {
	t.Helper()
	return newProviderHarnessIn(t, t.TempDir(), src, turns...)
}

// newProviderHarnessIn is newProviderHarness over an agent directory the
// test prepared (auth.json, models.json).
func newProviderHarnessIn(t *testing.T, agentDir, src string, turns ...faux.Turn) *providerHarness {
	t.Helper()
	h := &providerHarness{ui: &scriptedUI{}}
	reg, errs := config.LoadModels(agentDir)
	require.Empty(t, errs)
	h.reg = testRegistry{reg}
	var api *API
	h.fakeHost = runTS(t, map[string]string{"ext.ts": src}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd, UI: h.ui, Models: h.reg, Builtin: builtins.New, BuiltinNames: builtins.AllNames})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	h.api = api
	assert.Nil(t, reg.Find("acme", "m1"), "registrations wait for FlushProviders")
	h.flushErr = api.FlushProviders()
	model := &engine.Model{ID: "m", Provider: "faux", API: "faux", ContextWindow: 1000, MaxTokens: 100}
	p := faux.New(turns...)
	sess, err := engine.NewSession(engine.SessionOptions{
		Store: session.InMemory(h.dir, "s1"), Cwd: h.dir, Model: model, Hooks: api.Hooks(),
		ProviderFor: func(string) (engine.Provider, error) { return p, nil },
		SystemPrompt: func([]engine.ToolInfo) engine.Sections {
			base := "base prompt"
			return engine.Sections{{Name: "preamble", Value: &base}}
		},
		Settings: engine.DefaultRuntimeSettings(),
	})
	require.NoError(t, err)
	h.sess = sess
	require.NoError(t, api.Bind(context.Background(), sess))
	return h
}

// notes returns what the extension reported through ctx.ui.notify, each
// "tag=json".
func (h *providerHarness) notes() map[string]string {
	h.ui.mu.Lock()
	defer h.ui.mu.Unlock()
	out := map[string]string{}
	for _, c := range h.ui.calls {
		if rest, ok := strings.CutPrefix(c, "notify:"); ok {
			tag, val, _ := strings.Cut(rest, "=")
			out[tag] = val
		}
	}
	return out
}

func (h *providerHarness) command(t *testing.T, text string) map[string]string {
	t.Helper()
	require.True(t, h.api.RunCommand(context.Background(), text))
	h.settle(t)
	return h.notes()
}

const providerExt = `
const note = (ctx, tag, v) => ctx.ui.notify(tag + "=" + JSON.stringify(v === undefined ? "<undefined>" : v));
export default function (pi) {
  pi.registerProvider("acme", {
    baseUrl: "http://127.0.0.1:9/v1", apiKey: "K1", api: "openai-completions", headers: { "X-Z": "z", "X-A": "a" },
    models: [{ id: "m1", name: "One", contextWindow: 1000, maxTokens: 100 }, { id: "m2", compat: { x: 1 } }],
  });
  pi.registerProvider("gone", { baseUrl: "http://x/v1", apiKey: "k", api: "openai-completions", models: [{ id: "g" }] });
  pi.unregisterProvider("gone");
  pi.registerCommand("probe", { handler: async (_a, ctx) => {
    const mr = ctx.modelRegistry;
    note(ctx, "find", mr.find("acme", "m2"));
    note(ctx, "gone", mr.find("gone", "g"));
    note(ctx, "avail", mr.getAvailable().filter((m) => m.provider === "acme").map((m) => m.id));
    const p = mr.getApiKeyAndHeaders(mr.find("acme", "m1"));
    note(ctx, "promise", p instanceof Promise);
    note(ctx, "akh", await p);
    note(ctx, "akp", await mr.getApiKeyForProvider("acme"));
    note(ctx, "akpNone", await mr.getApiKeyForProvider("nope"));
    note(ctx, "status", mr.getProviderAuthStatus("acme"));
    note(ctx, "statusNone", mr.getProviderAuthStatus("nope"));
    note(ctx, "hasAuth", mr.hasConfiguredAuth(mr.find("acme", "m1")));
    note(ctx, "oauth", mr.isUsingOAuth(mr.find("acme", "m1")));
    note(ctx, "cfg", mr.getRegisteredProviderConfig("acme").apiKey);
    note(ctx, "proto", Object.keys(mr).length === 0 && typeof Object.getPrototypeOf(mr).getAll);
    try { pi.registerProvider("bad", { models: [{ id: "b" }] }); } catch (e) { note(ctx, "bad", e.message); }
    pi.registerProvider("late", { baseUrl: "http://l/v1", apiKey: "k", api: "anthropic-messages", models: [{ id: "l1" }] });
    note(ctx, "late", mr.find("late", "l1"));
    pi.registerProvider("ss", { api: "x", apiKey: "k", baseUrl: "http://s/v1", streamSimple: () => null, models: [{ id: "s" }] });
    note(ctx, "ss", mr.find("ss", "s"));
    note(ctx, "providerAuth", await mr.getProviderAuth("acme"));
    await pi.setModel(mr.find("acme", "m2"));
    note(ctx, "usageNoWindow", ctx.getContextUsage());
    pi.registerProvider("oa", { baseUrl: "http://o/v1", api: "openai-completions", oauth: { name: "O", login: async () => ({}) }, models: [{ id: "o1" }] });
    note(ctx, "oaAvail", mr.getAvailable().some((m) => m.provider === "oa"));
  }});
}
`

func TestRegisterProviderThroughExtension(t *testing.T) {
	t.Parallel()
	h := newProviderHarness(t, providerExt)
	require.NoError(t, h.flushErr)
	got := h.command(t, "/probe")
	tests := []struct{ tag, want string }{
		{"find", `{"id":"m2","compat":{"x":1},"api":"openai-completions","provider":"acme","baseUrl":"http://127.0.0.1:9/v1"}`},
		{"gone", `"<undefined>"`},
		{"avail", `["m1","m2"]`},
		{"promise", `true`},
		{"akh", `{"ok":true,"apiKey":"K1","headers":{"X-Z":"z","X-A":"a"}}`},
		{"akp", `"K1"`},
		{"akpNone", `"<undefined>"`},
		{"status", `{"configured":true,"source":"fallback"}`},
		{"statusNone", `{"configured":false}`},
		{"hasAuth", `true`},
		{"oauth", `false`},
		{"cfg", `"K1"`},
		{"proto", `"function"`},
		{"bad", `"Provider bad, model b: no \"api\" specified. Set it at model level or provider level."`},
		{"late", `{"id":"l1","api":"anthropic-messages","provider":"late","baseUrl":"http://l/v1"}`},
		{"ss", `{"id":"s","api":"x","provider":"ss","baseUrl":"http://s/v1"}`},
		{"oaAvail", `false`},
		{"providerAuth", `{"auth":{"apiKey":"K1","headers":{"X-Z":"z","X-A":"a"}},"source":"configured API key"}`},
		{"usageNoWindow", `"<undefined>"`},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, got[tc.tag], tc.tag)
	}
	for _, e := range h.extErrors() {
		assert.NotEqual(t, "register_provider", e.Event, "oauth is supported: %v", e)
	}
}

func TestRegisterProviderLoadError(t *testing.T) {
	t.Parallel()
	h := newProviderHarness(t, `export default function (pi) { pi.registerProvider("bad", { baseUrl: "http://x" , models: [{ id: "b" }] }); }`)
	var pe *ProviderLoadError
	require.ErrorAs(t, h.flushErr, &pe)
	assert.Equal(t, `Extension "`+pe.Path+`" error: Provider bad, model b: no "api" specified. Set it at model level or provider level.`, pe.Error())
	assert.True(t, strings.HasSuffix(pe.Path, "ext.ts"), pe.Path)
}

func TestCtxStateGetters(t *testing.T) {
	t.Parallel()
	src := `
const note = (ctx, tag, v) => ctx.ui.notify(tag + "=" + JSON.stringify(v === undefined ? "<undefined>" : v));
export default function (pi) {
  pi.on("before_agent_start", () => ({ systemPrompt: "forced prompt" }));
  pi.on("turn_end", (_e, ctx) => {
    note(ctx, "turnPrompt", ctx.getSystemPrompt());
    note(ctx, "turnSignal", typeof ctx.signal + ":" + ctx.signal.aborted);
    note(ctx, "turnUsage", ctx.getContextUsage());
  });
  pi.registerCommand("probe", { handler: async (_a, ctx) => {
    note(ctx, "usage", ctx.getContextUsage());
    note(ctx, "prompt", ctx.getSystemPrompt());
    note(ctx, "signal", typeof ctx.signal);
  }});
}`
	h := newProviderHarness(t, src, faux.Turn{Text: "hi", Usage: &engine.Usage{Input: 100, Output: 20}})
	got := h.command(t, "/probe")
	assert.Equal(t, `{"tokens":0,"contextWindow":1000,"percent":0}`, got["usage"])
	assert.Equal(t, `"base prompt"`, got["prompt"])
	assert.Equal(t, `"undefined"`, got["signal"])
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := h.sess.Prompt(ctx, "hello", nil, engine.PromptOptions{Source: "rpc"})
	require.NoError(t, err)
	require.NoError(t, h.sess.WaitIdle(ctx))
	h.settle(t)
	got = h.notes()
	assert.Equal(t, `"object:false"`, got["turnSignal"])
	assert.Equal(t, `"forced prompt"`, got["turnPrompt"], "during a run, the prompt before_agent_start settled on")
	var u struct {
		Tokens        int     `json:"tokens"`
		ContextWindow int     `json:"contextWindow"`
		Percent       float64 `json:"percent"`
	}
	require.NoError(t, json.Unmarshal([]byte(got["turnUsage"]), &u))
	assert.Equal(t, 1000, u.ContextWindow)
	assert.Positive(t, u.Tokens)
}
