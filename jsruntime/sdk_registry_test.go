package jsruntime

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine/config"
)

// TestSDKModelRegistry checks that the package's ModelRegistry is the
// host's registry: new ModelRegistry() is ctx.modelRegistry, instanceof
// holds for both, its reads see the host's models, and a ModelRuntime
// argument (which pi-go cannot honour) fails with a clear error.
func TestSDKModelRegistry(t *testing.T) {
	t.Parallel()
	src := `import { ModelRegistry } from "@earendil-works/pi-coding-agent";
const note = (ctx, tag, v) => ctx.ui.notify(tag + "=" + JSON.stringify(v === undefined ? "<undefined>" : v));
export default function (pi) {
  pi.registerCommand("reg", { handler: async (_a, ctx) => {
    const r = new ModelRegistry();
    note(ctx, "same", r === ctx.modelRegistry);
    note(ctx, "instanceof", [r instanceof ModelRegistry, ctx.modelRegistry instanceof ModelRegistry, {} instanceof ModelRegistry]);
    note(ctx, "find", r.find("acme", "m1") && r.find("acme", "m1").id);
    note(ctx, "all", r.getAll().some((m) => m.provider === "acme"));
    try { new ModelRegistry({}); note(ctx, "runtime", "ok"); } catch (e) { note(ctx, "runtime", e.message); }
  }});
}`
	agentDir := t.TempDir()
	reg, errs := config.LoadModels(agentDir)
	require.Empty(t, errs)
	require.NoError(t, reg.RegisterProvider("acme", []byte(`{"baseUrl":"http://x/v1","apiKey":"k","api":"openai-completions","models":[{"id":"m1"}]}`)))
	ui := &scriptedUI{}
	var api *API
	h := runTS(t, map[string]string{"ext.ts": src}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd, UI: ui, Models: testRegistry{reg}, Builtin: builtins.New, BuiltinNames: builtins.AllNames})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	require.True(t, api.RunCommand(context.Background(), "/reg"))
	h.settle(t)
	got := (&providerHarness{fakeHost: h, ui: ui}).notes()
	assert.Equal(t, `true`, got["same"])
	assert.Equal(t, `[true,true,false]`, got["instanceof"])
	assert.Equal(t, `"m1"`, got["find"])
	assert.Equal(t, `true`, got["all"])
	assert.Contains(t, got["runtime"], "new ModelRegistry(runtime) is not supported in pi-go")
	assert.Empty(t, h.extErrors())
}
