package pi

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
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
