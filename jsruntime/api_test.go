package jsruntime

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// scriptedUI answers dialogs from a script and records every call.
type scriptedUI struct {
	engine.NopUI
	mu      sync.Mutex
	selects []string // answers, in order
	calls   []string
}

func (u *scriptedUI) HasUI() bool  { return true }
func (u *scriptedUI) Mode() string { return "rpc" }
func (u *scriptedUI) Select(_ context.Context, title string, opts []string, _ engine.DialogOptions) (string, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.calls = append(u.calls, "select:"+title)
	if len(u.selects) == 0 {
		return "", false
	}
	a := u.selects[0]
	u.selects = u.selects[1:]
	return a, true
}
func (u *scriptedUI) Notify(m, _ string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.calls = append(u.calls, "notify:"+m)
}

// apiHarness is a loaded extension bound to a session over a faux
// provider.
type apiHarness struct {
	*fakeHost
	api      *API
	sess     *engine.Session
	provider *faux.Provider
	store    *session.File
	mu       sync.Mutex
	events   []engine.Event
}

func newAPIHarness(t *testing.T, src string, ui engine.UI, turns ...faux.Turn) *apiHarness {
	t.Helper()
	h := &apiHarness{provider: faux.New(turns...)}
	var api *API
	h.fakeHost = runTS(t, map[string]string{"ext.ts": src}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd, UI: ui, Builtin: builtins.New, BuiltinNames: builtins.AllNames})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	h.api = api
	var tools []engine.Tool
	for _, n := range []string{"read", "bash"} {
		tl, _ := builtins.New(n, h.dir)
		tools = append(tools, tl)
	}
	for _, tl := range api.ExtTools() {
		tools = append(tools, tl)
	}
	h.store = session.InMemory(h.dir, "s1")
	model := &engine.Model{ID: "m", Provider: "faux", API: "faux", ContextWindow: 100000, MaxTokens: 1000}
	sess, err := engine.NewSession(engine.SessionOptions{
		Store: h.store, Cwd: h.dir, Model: model, Tools: tools, Hooks: api.Hooks(),
		ProviderFor: func(string) (engine.Provider, error) { return h.provider, nil },
		SystemPrompt: func([]engine.ToolInfo) engine.Sections {
			base := "base prompt"
			return engine.Sections{{Name: "preamble", Value: &base}}
		},
		Settings: engine.DefaultRuntimeSettings(),
	})
	require.NoError(t, err)
	sess.Subscribe(func(e engine.Event) {
		h.mu.Lock()
		h.events = append(h.events, e)
		h.mu.Unlock()
	})
	h.sess = sess
	require.NoError(t, api.Bind(context.Background(), sess))
	return h
}

func (h *apiHarness) prompt(t *testing.T, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := h.sess.Prompt(ctx, text, nil, engine.PromptOptions{Source: "rpc"})
	require.NoError(t, err)
	require.NoError(t, h.sess.WaitIdle(ctx))
	h.settle(t)
}

// toolEnd returns the first tool_execution_end event.
func (h *apiHarness) toolEnd(t *testing.T) engine.ToolExecutionEnd {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range h.events {
		if te, ok := e.(engine.ToolExecutionEnd); ok {
			return te
		}
	}
	t.Fatal("no tool_execution_end")
	return engine.ToolExecutionEnd{}
}

func resultText(r engine.ToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

func TestAPIPermissionGateBlocksRmRf(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash" || !/rm -rf/.test(event.input.command)) return undefined;
    const choice = await ctx.ui.select("Dangerous command", ["Yes", "No"]);
    if (choice !== "Yes") return { block: true, reason: "Blocked by user" };
    return undefined;
  });
}`
	tests := []struct {
		name    string
		answers []string
		blocked bool
	}{
		{"denied", []string{"No"}, true},
		{"cancelled", nil, true},
		{"allowed", []string{"Yes"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ui := &scriptedUI{selects: tc.answers}
			h := newAPIHarness(t, src, ui,
				faux.Turn{ToolCalls: []faux.ToolCall{{Name: "bash", Args: `{"command":"rm -rf ./nothing-here-xyz"}`}}},
				faux.Turn{Text: "done"})
			h.prompt(t, "clean up")
			end := h.toolEnd(t)
			if tc.blocked {
				assert.True(t, end.IsError)
				assert.Equal(t, "Blocked by user", resultText(end.Result))
			} else {
				assert.NotEqual(t, "Blocked by user", resultText(end.Result))
			}
			assert.Equal(t, []string{"select:Dangerous command"}, ui.calls)
		})
	}
}

func TestAPITypeboxToolCalledByModel(t *testing.T) {
	t.Parallel()
	src := `import { Type } from "typebox";
export default function (pi) {
  pi.registerTool({
    name: "greet", label: "Greet", description: "Greets someone",
    parameters: Type.Object({ name: Type.String({ description: "who" }) }),
    async execute(id, params, signal, onUpdate, ctx) {
      onUpdate({ content: [{ type: "text", text: "working" }], details: {} });
      return { content: [{ type: "text", text: "Hello, " + params.name + "!" }], details: { id, mode: ctx.mode } };
    },
  });
}`
	h := newAPIHarness(t, src, nil,
		faux.Turn{ToolCalls: []faux.ToolCall{{ID: "c1", Name: "greet", Args: `{"name":"Ada"}`}}},
		faux.Turn{Text: "done"})
	tools := h.api.ExtTools()
	require.Len(t, tools, 1)
	assert.JSONEq(t, `{"type":"object","required":["name"],"properties":{"name":{"type":"string","description":"who"}}}`, string(tools[0].Info().Parameters))
	h.prompt(t, "greet Ada")
	end := h.toolEnd(t)
	assert.False(t, end.IsError)
	assert.Equal(t, "Hello, Ada!", resultText(end.Result))
	assert.JSONEq(t, `{"id":"c1","mode":"rpc"}`, string(end.Result.Details))
	// The schema reached the model.
	reqs := h.provider.Requests()
	require.NotEmpty(t, reqs)
	found := false
	for _, ti := range reqs[0].Tools {
		found = found || ti.Name == "greet"
	}
	assert.True(t, found)
}

func TestAPIInputTransformAndSystemPrompt(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("input", (e) => ({ action: "transform", text: e.text + " (transformed)" }));
  pi.on("before_agent_start", (e) => ({ systemPrompt: e.systemPrompt + "\nBe a pirate." }));
  pi.on("tool_result", (e) => ({ content: [{ type: "text", text: "rewritten" }] }));
}`
	h := newAPIHarness(t, src, nil,
		faux.Turn{ToolCalls: []faux.ToolCall{{Name: "bash", Args: `{"command":"echo hi"}`}}},
		faux.Turn{Text: "ok"})
	h.prompt(t, "hello")
	msgs := h.sess.Messages()
	var user string
	for _, m := range msgs {
		if m.Role == engine.RoleUser {
			b, _ := json.Marshal(m.Content)
			user = string(b)
			break
		}
	}
	assert.Contains(t, user, "hello (transformed)")
	reqs := h.provider.Requests()
	require.NotEmpty(t, reqs)
	assert.Contains(t, reqs[0].SystemPrompt, "Be a pirate.")
	assert.Equal(t, "rewritten", resultText(h.toolEnd(t).Result))
}

func TestAPICommandSelectThenSendUserMessage(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.registerCommand("pick", {
    description: "pick one",
    handler: async (args, ctx) => {
      const c = await ctx.ui.select("Pick", ["a", "b"]);
      pi.sendUserMessage("picked " + c + " " + args);
    },
  });
}`
	ui := &scriptedUI{selects: []string{"b"}}
	h := newAPIHarness(t, src, ui, faux.Turn{Text: "fine"})
	cmds := h.api.Commands(context.Background())
	require.Len(t, cmds, 1)
	assert.Equal(t, "pick", cmds[0].Name)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	disp, err := h.sess.Prompt(ctx, "/pick now", nil, engine.PromptOptions{})
	require.NoError(t, err)
	assert.Equal(t, engine.DispositionHandled, disp)
	// The handler's prompt starts a run of its own.
	require.Eventually(t, func() bool {
		for _, m := range h.sess.Messages() {
			b, _ := json.Marshal(m.Content)
			if m.Role == engine.RoleUser && strings.Contains(string(b), "picked b now") {
				return true
			}
		}
		return false
	}, 15*time.Second, 10*time.Millisecond)
	require.NoError(t, h.sess.WaitIdle(ctx))
}

func TestAPIAppendEntryAndThrowingHandler(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("agent_start", () => { throw new Error("boom in handler"); });
  pi.on("agent_end", () => { pi.appendEntry("marker", { n: 1 }); });
}`
	h := newAPIHarness(t, src, nil, faux.Turn{Text: "still fine"})
	h.prompt(t, "go")
	require.Eventually(t, func() bool {
		for _, e := range h.store.Entries() {
			if e.Type == engine.EntryCustom && e.CustomType == "marker" {
				return string(e.Data) == `{"n":1}`
			}
		}
		return false
	}, 10*time.Second, 10*time.Millisecond)
	errs := h.extErrors()
	require.NotEmpty(t, errs)
	assert.Equal(t, "agent_start", errs[0].Event)
	assert.Equal(t, "boom in handler", errs[0].Error)
	last := h.sess.Messages()[len(h.sess.Messages())-1]
	assert.Equal(t, engine.RoleAssistant, last.Role)
}

func TestAPIActionsThrowDuringLoad(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `export default function (pi) { pi.getActiveTools(); }`}, func(o *LoadOptions) {
		o.Host = NewAPI(APIOptions{Mode: "print", Cwd: o.Cwd}).Host()
	})
	require.Len(t, h.loadErrs, 1)
	assert.Contains(t, h.loadErrs[0].Message, "Extension runtime not initialized. Action methods cannot be called during extension loading.")
}
