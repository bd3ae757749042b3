package jsruntime

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/llm/faux"
)

// TestPiAIStreamFunctions checks pi-ai's own request functions
// (complete, streamSimple) and a wire API's built-in factory: a provider
// that registers a streamSimple for "openai-completions" and wraps
// openAICompletionsApi().streamSimple (pi-llamacpp-infra does) reaches
// the built-in implementation, not its own function again.
func TestPiAIStreamFunctions(t *testing.T) {
	t.Parallel()
	src := `
import { complete, streamSimple, openAICompletionsApi, streamSimpleOpenAICompletions } from "@earendil-works/pi-ai";
const note = (ctx, tag, v) => ctx.ui.notify(tag + "=" + JSON.stringify(v));
let wrapped = 0;
export default function (pi) {
  pi.registerProvider("wrapper", {
    baseUrl: "http://x/v1", apiKey: "k", api: "openai-completions",
    models: [{ id: "w1", name: "w1", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
    streamSimple: (model, context, options) => { wrapped++; return openAICompletionsApi().streamSimple(model, context, options); },
  });
  pi.registerCommand("ask", { handler: async (_a, ctx) => {
    const model = ctx.modelRegistry.find("acme", "m1");
    const c = await complete(ctx.modelRegistry.find("wrapper", "w1"), { messages: [{ role: "user", content: "hi", timestamp: 1 }] });
    note(ctx, "complete", c.content.map((b) => b.text).join("") + " wrapped=" + wrapped);
    const s = streamSimple(model, { messages: [{ role: "user", content: "again", timestamp: 2 }] });
    const types = [];
    for await (const ev of s) types.push(ev.type);
    note(ctx, "stream", types[types.length - 1] + " wrapped=" + wrapped);
    const r = await streamSimpleOpenAICompletions(model, { messages: [{ role: "user", content: "x", timestamp: 3 }] }).result();
    note(ctx, "alias", r.stopReason + " wrapped=" + wrapped);
    note(ctx, "factory", Object.keys(openAICompletionsApi()).sort());
  }});
}`
	reg, errs := config.LoadModels(t.TempDir())
	require.Empty(t, errs)
	require.NoError(t, reg.RegisterProvider("acme", []byte(`{"baseUrl":"http://x/v1","apiKey":"k","api":"openai-completions","models":[{"id":"m1"}]}`)))
	cr := completingRegistry{testRegistry: testRegistry{reg}, p: faux.New(faux.Turn{Text: "one"}, faux.Turn{Text: "two"}, faux.Turn{Text: "three"}), reqs: make(chan *engine.LLMRequest, 4)}
	ui := &scriptedUI{}
	var api *API
	h := runTS(t, map[string]string{"ext.ts": src}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd, UI: ui, Models: cr, Builtin: builtins.New, BuiltinNames: builtins.AllNames})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	require.NoError(t, api.FlushProviders())
	require.True(t, api.RunCommand(context.Background(), "/ask"))
	h.settle(t)
	got := (&providerHarness{fakeHost: h, ui: ui}).notes()
	// complete() goes to what serves the model's api: the wrapper's
	// streamSimple, which reaches the built-in API once.
	assert.Equal(t, `"one wrapped=1"`, got["complete"])
	assert.Equal(t, `"done wrapped=2"`, got["stream"])
	// The legacy alias is the built-in API itself.
	assert.Equal(t, `"stop wrapped=2"`, got["alias"])
	assert.Equal(t, `["stream","streamSimple"]`, got["factory"])
	for range 3 {
		req := <-cr.reqs
		assert.Equal(t, "openai-completions", req.Model.API)
	}
	assert.Empty(t, h.extErrors())
}
