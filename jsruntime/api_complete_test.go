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

// completingRegistry answers modelRegistry.complete from a faux provider
// and records the requests.
type completingRegistry struct {
	testRegistry
	p    *faux.Provider
	reqs chan *engine.LLMRequest
}

func (r completingRegistry) Complete(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
	r.reqs <- req
	return r.p.Stream(ctx, req, emit)
}

func TestModelRegistryCompleteAndStream(t *testing.T) {
	t.Parallel()
	src := `
const note = (ctx, tag, v) => ctx.ui.notify(tag + "=" + JSON.stringify(v === undefined ? "<undefined>" : v));
export default function (pi) {
  pi.registerCommand("ask", { handler: async (_a, ctx) => {
    const model = ctx.modelRegistry.find("acme", "m1");
    const r = await ctx.modelRegistry.complete(model, { systemPrompt: "be brief", messages: [{ role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 }] }, { maxTokens: 50, reasoning: "high" });
    note(ctx, "complete", r.role + ":" + r.stopReason + ":" + r.content.filter((c) => c.type === "text").map((c) => c.text).join(""));
    const s = ctx.modelRegistry.streamSimple(model, { messages: [{ role: "user", content: "again", timestamp: 2 }] });
    const types = [];
    for await (const ev of s) types.push(ev.type);
    note(ctx, "types", types);
    note(ctx, "result", (await s.result()).stopReason);
  }});
}`
	agentDir := t.TempDir()
	reg, errs := config.LoadModels(agentDir)
	require.Empty(t, errs)
	require.NoError(t, reg.RegisterProvider("acme", []byte(`{"baseUrl":"http://x/v1","apiKey":"k","api":"openai-completions","models":[{"id":"m1","reasoning":true}]}`)))
	cr := completingRegistry{testRegistry: testRegistry{reg}, p: faux.New(faux.Turn{Text: "short answer"}, faux.Turn{Text: "streamed"}), reqs: make(chan *engine.LLMRequest, 4)}
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
	ph := &providerHarness{fakeHost: h, ui: ui}
	got := ph.notes()
	assert.Equal(t, `"assistant:stop:short answer"`, got["complete"])
	assert.Equal(t, `"stop"`, got["result"])
	assert.Contains(t, got["types"], `"text_delta"`)
	assert.Contains(t, got["types"], `"done"]`)
	req := <-cr.reqs
	assert.Equal(t, "be brief", req.SystemPrompt)
	assert.Equal(t, 50, req.MaxTokens)
	assert.Equal(t, engine.ThinkingHigh, req.ThinkingLevel)
	assert.Equal(t, "acme", req.Model.Provider)
	require.Len(t, req.Messages, 1)
	assert.Empty(t, h.extErrors())
}
