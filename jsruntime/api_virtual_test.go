package jsruntime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/dop251/goja"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine/config"
)

// virtualTestRegistry is the registry with virtual models, as the agent's
// adapter provides them.
type virtualTestRegistry struct{ testRegistry }

func (r virtualTestRegistry) RegisterVirtualModel(raw json.RawMessage) error {
	var def config.VirtualDef
	if err := json.Unmarshal(raw, &def); err != nil {
		return err
	}
	_, err := r.Registry.RegisterVirtualModel(def)
	return err
}

func (r virtualTestRegistry) UnregisterVirtualModel(provider, id string) {
	r.Registry.UnregisterVirtualModel(provider, id)
}

const virtualExt = `export default function (pi) {
  pi.registerVirtualModel({
    provider: "router", id: "auto", name: "Auto", thinkingLevels: ["low", "high"],
    route(request, ctx) {
      if (request.thinkingLevel === "low") throw new Error("no route for low");
      globalThis.__seen = JSON.stringify({
        reason: request.reason, model: request.model.api, previous: request.previous && request.previous.model.id,
        prevLevel: request.previous && request.previous.thinkingLevel, state: request.state,
        roles: request.messages.map((m) => m.role), signal: typeof request.signal.aborted, ctx: typeof ctx.modelRegistry.find,
      });
      const n = ((request.state && request.state.n) || 0) + 1;
      return { model: ctx.modelRegistry.find("mock", "m"), thinkingLevel: "high", state: n < 3 ? { n } : request.state };
    },
  });
  pi.registerCommand("conflict", { handler: async (_a, ctx) => {
    try { pi.registerVirtualModel({ provider: "mock", id: "m", route() {} }); } catch (e) { ctx.ui.notify("err " + e.message); }
    ctx.modelRegistry.unregisterVirtualModel("router", "auto");
    ctx.ui.notify("after " + String(ctx.modelRegistry.find("router", "auto")));
  }});
}`

// A router registered by an extension is listed by the registry and asked
// before a request: it sees the virtual model, the reason, the previous
// response's model, its stored state and the messages, gets a working
// ctx, and its answer (a physical model, a level, new or kept state) comes
// back; a router that throws is an error; unregistering removes it.
func TestVirtualModelRouting(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "models.json"), []byte(`{"providers":{"mock":{"baseUrl":"http://127.0.0.1:1/v1","api":"openai-completions","apiKey":"k","models":[{"id":"m"}]}}}`), 0o600))
	reg, errs := config.LoadModels(dir)
	require.Empty(t, errs)
	ui := &scriptedUI{}
	var api *API
	h := runTS(t, map[string]string{"ext.ts": virtualExt}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd, UI: ui, Models: virtualTestRegistry{testRegistry{reg}}, Builtin: builtins.New, BuiltinNames: builtins.AllNames})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	require.NoError(t, api.FlushProviders())
	require.NoError(t, api.Bind(context.Background(), nil))
	v := reg.Find("router", "auto")
	require.NotNil(t, v)
	assert.Equal(t, config.VirtualModelAPI, v.API)

	msgs := json.RawMessage(`[{"role":"system","content":""},{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}]`)
	r, err := api.RouteVirtual(context.Background(), VirtualRequest{Provider: "router", ID: "auto", ThinkingLevel: "high", Reason: "user",
		Previous: &VirtualPrevious{Provider: "mock", ID: "m", ThinkingLevel: "off"}, Messages: msgs})
	require.NoError(t, err)
	assert.Equal(t, VirtualRoute{Provider: "mock", ID: "m", ThinkingLevel: "high", State: json.RawMessage(`{"n":1}`)}, r)
	var seen string
	require.NoError(t, api.rt.loop.Do(context.Background(), func(vm *goja.Runtime) error {
		seen = vm.Get("__seen").String()
		return nil
	}))
	assert.JSONEq(t, `{"reason":"user","model":"pi-virtual","previous":"m","prevLevel":"off","roles":["system","user"],"signal":"boolean","ctx":"function"}`, seen)

	r, err = api.RouteVirtual(context.Background(), VirtualRequest{Provider: "router", ID: "auto", ThinkingLevel: "high", Reason: "continuation", State: json.RawMessage(`{"n":2}`), Messages: msgs})
	require.NoError(t, err)
	assert.True(t, r.Keep, "returning request.state keeps the state")

	_, err = api.RouteVirtual(context.Background(), VirtualRequest{Provider: "router", ID: "auto", ThinkingLevel: "low", Reason: "user", Messages: msgs})
	require.EqualError(t, err, "no route for low")
	_, err = api.RouteVirtual(context.Background(), VirtualRequest{Provider: "router", ID: "nope", Reason: "user", Messages: msgs})
	require.EqualError(t, err, "Virtual model router/nope is not registered.")

	require.True(t, api.RunCommand(context.Background(), "/conflict"))
	assert.Equal(t, []string{"err Virtual model mock/m conflicts with a physical model.", "after undefined"}, ui.notes())
	assert.Nil(t, reg.Find("router", "auto"))
	assert.Empty(t, h.extErrors())
}

// Classifier models are reached through the typed lookups, not getAll;
// getAvailableOfType keeps those whose provider has credentials.
func TestTypedModelLookups(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "models.json"), []byte(`{"providers":{"mock":{"baseUrl":"http://127.0.0.1:1/v1","api":"openai-completions","apiKey":"k","models":[{"id":"m"}]}}}`), 0o600))
	reg, errs := config.LoadModels(dir)
	require.Empty(t, errs)
	reg.SetTypedModels("mock", "classifier", []json.RawMessage{json.RawMessage(`{"type":"classifier","id":"c1","provider":"mock","api":"llama-cpp-classify"}`)})
	reg.SetTypedModels("nokey", "classifier", []json.RawMessage{json.RawMessage(`{"type":"classifier","id":"c2","provider":"nokey","api":"typesafe-system-one"}`)})
	ui := &scriptedUI{}
	src := `export default function (pi) {
  pi.registerCommand("types", { handler: async (_a, ctx) => {
    const r = ctx.modelRegistry;
    const ids = (l) => l.map((m) => m.provider + "/" + m.id).join(",");
    ctx.ui.notify("all " + ids(r.getModelsOfType("classifier")));
    ctx.ui.notify("mock " + ids(r.getModelsOfType("classifier", "mock")));
    ctx.ui.notify("avail " + ids(await r.getAvailableOfType("classifier")));
    ctx.ui.notify("find " + r.findOfType("classifier", "nokey", "c2").api);
    ctx.ui.notify("chat " + r.findOfType("chat", "mock", "m").id + " " + String(r.findOfType("classifier", "mock", "m")));
    ctx.ui.notify("image " + r.getModelsOfType("image").length);
    ctx.ui.notify("getAll " + r.getAll().some((m) => m.type === "classifier"));
  }});
}`
	var api *API
	h := runTS(t, map[string]string{"ext.ts": src}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd, UI: ui, Models: testRegistry{reg}, Builtin: builtins.New, BuiltinNames: builtins.AllNames})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	require.NoError(t, api.FlushProviders())
	require.NoError(t, api.Bind(context.Background(), nil))
	require.True(t, api.RunCommand(context.Background(), "/types"))
	assert.Equal(t, []string{"all mock/c1,nokey/c2", "mock mock/c1", "avail mock/c1", "find typesafe-system-one", "chat m undefined", "image 0", "getAll false"}, ui.notes())
	assert.Empty(t, h.extErrors())
}
