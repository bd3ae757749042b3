package pi

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// A router's answer is checked before the request goes out: a virtual
// model or an unknown one is not a physical model, a provider without a
// key has no credentials, and a thrown error is the request's error; the
// routed level is clamped to the model.
func TestRouteVirtualChecks(t *testing.T) {
	t.Parallel()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	ext := filepath.Join(project, "router.ts")
	require.NoError(t, os.WriteFile(ext, []byte(`export default function (pi) {
  pi.registerVirtualModel({ provider: "router", id: "auto", thinkingLevels: ["off", "high"], route(request) {
    const last = request.messages[request.messages.length - 1].content[0].text;
    if (last === "throw") throw new Error("router failed");
    const [provider, id] = last.split("/");
    return { model: { provider, id }, thinkingLevel: "high" };
  }});
}`), 0o644))
	app := startLlama(t, Options{AgentDir: agentDir, Cwd: project, Mode: ModeRPC, Extensions: []string{ext}})
	v := app.registry.Find("router", "auto")
	require.NotNil(t, v)
	route := func(text string) (*engine.Model, engine.ThinkingLevel, error) {
		req := &engine.LLMRequest{Model: v, ThinkingLevel: engine.ThinkingHigh, Messages: []*engine.Message{
			{Role: engine.RoleUser, Content: engine.Contents{Blocks: []engine.Content{{Type: "text", Text: text}}}}}}
		return app.routeVirtual(context.Background(), req)
	}
	m, level, err := route("mock/mock-model")
	require.NoError(t, err)
	assert.Equal(t, "mock-model", m.ID)
	assert.Equal(t, engine.ThinkingOff, level, "the mock does not think")
	_, _, err = route("router/auto")
	require.EqualError(t, err, "Virtual model router/auto routed to router/auto, which is not a physical model.")
	_, _, err = route("mock/nope")
	require.EqualError(t, err, "Virtual model router/auto routed to mock/nope, which is not a physical model.")
	_, _, err = route("anthropic/claude-sonnet-4-5")
	require.EqualError(t, err, "Virtual model router/auto routed to anthropic/claude-sonnet-4-5, which has no credentials.")
	_, _, err = route("throw")
	require.EqualError(t, err, "router failed")
}

func TestRouteReason(t *testing.T) {
	t.Parallel()
	u := &engine.Message{Role: engine.RoleUser}
	a := &engine.Message{Role: engine.RoleAssistant, Provider: "p", Model: "m", ThinkingLevel: "low", StopReason: engine.StopToolUse}
	tr := &engine.Message{Role: engine.RoleToolResult}
	failed := &engine.Message{Role: engine.RoleAssistant, Provider: "x", Model: "y", StopReason: engine.StopError}
	assert.Equal(t, "user", routeReason([]*engine.Message{u}))
	assert.Equal(t, "continuation", routeReason([]*engine.Message{u, a, tr}))
	assert.Equal(t, "user", routeReason([]*engine.Message{u, a, tr, a, u}))
	prev := latestResponse([]*engine.Message{u, a, tr, failed})
	require.NotNil(t, prev)
	assert.Equal(t, "p/m low", prev.Provider+"/"+prev.ID+" "+prev.ThinkingLevel, "a failed response is skipped")
	assert.Nil(t, latestResponse([]*engine.Message{u}))
}

// A virtual model_change holds across the physical responses after it; a
// physical one gives way to the latest response; a virtual model no
// longer registered gives way too.
func TestBranchSelection(t *testing.T) {
	t.Parallel()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	app := startLlama(t, Options{AgentDir: agentDir, Cwd: project, Mode: ModePrint})
	_, err := app.registry.RegisterVirtualModel(config.VirtualDef{Provider: "router", ID: "auto"})
	require.NoError(t, err)
	change := func(p, id string) *engine.Entry {
		return &engine.Entry{Type: engine.EntryModelChange, Provider: p, ModelID: id}
	}
	reply := func(p, id, api string) *engine.Entry {
		return &engine.Entry{Type: engine.EntryMessage, Message: &engine.Message{Role: engine.RoleAssistant, Provider: p, Model: id, API: api}}
	}
	user := &engine.Entry{Type: engine.EntryMessage, Message: &engine.Message{Role: engine.RoleUser}}
	cases := []struct {
		name   string
		branch []*engine.Entry
		want   string
	}{
		{"virtual holds", []*engine.Entry{change("router", "auto"), user, reply("mock", "mock-model", "openai-completions")}, "router/auto"},
		{"physical follows the response", []*engine.Entry{change("mock", "other"), user, reply("mock", "mock-model", "openai-completions")}, "mock/mock-model"},
		{"unregistered virtual", []*engine.Entry{change("router", "gone"), user, reply("mock", "mock-model", "openai-completions")}, "mock/mock-model"},
		{"failed routing is skipped", []*engine.Entry{change("mock", "mock-model"), user, reply("router", "auto", config.VirtualModelAPI)}, "mock/mock-model"},
		{"latest change", []*engine.Entry{user, reply("mock", "mock-model", "openai-completions"), change("router", "auto")}, "router/auto"},
		{"none", []*engine.Entry{user}, ""},
	}
	for _, tc := range cases {
		got := ""
		if m := app.branchSelection(tc.branch); m != nil {
			got = m.Provider + "/" + m.ModelID
		}
		assert.Equal(t, tc.want, got, tc.name)
	}
}
