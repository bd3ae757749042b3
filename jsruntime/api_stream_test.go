package jsruntime

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

const echoStreamExt = `
import { createAssistantMessageEventStream } from "@earendil-works/pi-ai";
export default function (pi) {
  pi.registerProvider("echo", {
    baseUrl: "http://unused/v1", apiKey: "k", api: "echo-api", models: [{ id: "e1" }],
    streamSimple(model, context, options) {
      const stream = createAssistantMessageEventStream();
      const last = context.messages[context.messages.length - 1];
      const text = context.systemPrompt + "|" + last.content.map((c) => c.text).join("") + "|" + options.apiKey;
      const msg = { role: "assistant", content: [], api: model.api, provider: model.provider, model: model.id, stopReason: "stop", timestamp: 1 };
      if (last.content[0].text === "fail") {
        queueMicrotask(() => stream.push({ type: "error", reason: "error", error: { ...msg, stopReason: "error", errorMessage: "boom" } }));
        return stream;
      }
      queueMicrotask(() => {
        stream.push({ type: "start", partial: msg });
        msg.content.push({ type: "text", text });
        stream.push({ type: "text_start", contentIndex: 0, partial: msg });
        stream.push({ type: "text_delta", contentIndex: 0, delta: text, partial: msg });
        stream.push({ type: "text_end", contentIndex: 0, content: text, partial: msg });
        stream.push({ type: "done", reason: "stop", message: msg });
      });
      return stream;
    },
  });
}`

func TestCustomStreamProvider(t *testing.T) {
	t.Parallel()
	reg, errs := config.LoadModels(t.TempDir())
	require.Empty(t, errs)
	var api *API
	h := runTS(t, map[string]string{"ext.ts": echoStreamExt}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "print", Cwd: o.Cwd, Models: testRegistry{reg}, Builtin: builtins.New, BuiltinNames: builtins.AllNames})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	require.NoError(t, api.FlushProviders())
	model := reg.Find("echo", "e1")
	require.NotNil(t, model)
	_, ok := api.StreamProvider("openai-completions")
	assert.False(t, ok)
	p, ok := api.StreamProvider("echo-api")
	require.True(t, ok)
	tests := []struct {
		prompt, wantText, wantStop string
		wantTypes                  []string
	}{
		{"hello", "sys|hello|key", "stop", []string{"start", "text_start", "text_delta", "text_end", "done"}},
		{"fail", "", "error", []string{"error"}},
	}
	for _, tc := range tests {
		var types []string
		req := &engine.LLMRequest{Model: model, SystemPrompt: "sys", APIKey: "key",
			Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Contents{Blocks: []engine.Content{{Type: "text", Text: tc.prompt}}}}}}
		msg := p.Stream(context.Background(), req, func(e engine.AssistantEvent) { types = append(types, e.Type) })
		require.NotNil(t, msg)
		assert.Equal(t, tc.wantTypes, types, tc.prompt)
		assert.Equal(t, engine.StopReason(tc.wantStop), msg.StopReason, "%s: %s", tc.prompt, msg.ErrorMessage)
		if tc.wantText != "" {
			require.Len(t, msg.Content.Blocks, 1)
			assert.Equal(t, tc.wantText, msg.Content.Blocks[0].Text)
		} else {
			assert.Equal(t, "boom", msg.ErrorMessage)
		}
	}
	assert.Empty(t, h.extErrors())
}

// TestCustomStreamComplete checks that modelRegistry.complete on a model
// an extension streams itself goes to its streamSimple, with the
// registry's key.
func TestCustomStreamComplete(t *testing.T) {
	t.Parallel()
	reg, errs := config.LoadModels(t.TempDir())
	require.Empty(t, errs)
	ui := &scriptedUI{}
	src := echoStreamExt
	src = strings.Replace(src, "export default function (pi) {", `export default function (pi) {
  pi.registerCommand("ask", { handler: async (_a, ctx) => {
    const r = await ctx.modelRegistry.complete(ctx.modelRegistry.find("echo", "e1"), { messages: [{ role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 }] });
    ctx.ui.notify("text=" + JSON.stringify(r.content[0].text));
  }});`, 1)
	var api *API
	h := runTS(t, map[string]string{"ext.ts": src}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd, UI: ui, Models: testRegistry{reg}, Builtin: builtins.New, BuiltinNames: builtins.AllNames})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	require.NoError(t, api.FlushProviders())
	require.True(t, api.RunCommand(context.Background(), "/ask"))
	h.settle(t)
	got := (&providerHarness{fakeHost: h, ui: ui}).notes()
	assert.Equal(t, `"|hi|k"`, got["text"])
	assert.Empty(t, h.extErrors())
}
