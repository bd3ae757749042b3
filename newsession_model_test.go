package pi_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestNewSessionReturnsToDefaultModel checks that a new session starts
// with the model and level a start would pick (the reference reruns its
// session factory), not the model the previous session was switched to.
func TestNewSessionReturnsToDefaultModel(t *testing.T) {
	t.Parallel()
	agentDir, project, srv := sdktest.Home(t, mockllm.Script{})
	models := fmt.Sprintf(`{"providers":{"mock":{"baseUrl":%q,"api":"openai-completions","apiKey":"mock-key",`+
		`"models":[{"id":"mock-model"},{"id":"mock-model-2","reasoning":true}]}}}`, srv.URL())
	if err := os.WriteFile(filepath.Join(agentDir, "models.json"), []byte(models), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	ctx := context.Background()
	agent, err := pi.New(ctx, pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
		NoSession: true, Mode: pi.ModeRPC, Stderr: &stderr})
	if err != nil {
		t.Fatalf("New: %v (%s)", err, stderr.String())
	}
	defer agent.Close()
	s := agent.Session()
	var other *engine.Model
	for _, m := range agent.AvailableModels() {
		if m.ID == "mock-model-2" {
			other = m
		}
	}
	if other == nil {
		t.Fatal("mock-model-2 not available")
	}
	if err := s.SetModel(other); err != nil {
		t.Fatal(err)
	}
	s.SetThinkingLevel(engine.ThinkingHigh)
	if cancelled, err := agent.NewSession(ctx, ""); cancelled || err != nil {
		t.Fatalf("NewSession: %v %v", cancelled, err)
	}
	s = agent.Session()
	if got := s.Model(); got == nil || got.ID != "mock-model" || s.ThinkingLevel() != engine.ThinkingOff {
		t.Errorf("new session: model %v, level %q; want mock-model, off", got, s.ThinkingLevel())
	}
}

// TestFindModelForCacheNotices checks that the agent prices past
// requests with any registry model, as the cache-miss notices need (the
// interactive mode reads them only when showCacheMissNotices is on; RPC
// and JSON output carry no notices, as in the reference).
func TestFindModelForCacheNotices(t *testing.T) {
	t.Parallel()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	var stderr bytes.Buffer
	agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
		NoSession: true, Mode: pi.ModeRPC, Stderr: &stderr})
	if err != nil {
		t.Fatalf("New: %v (%s)", err, stderr.String())
	}
	defer agent.Close()
	if m := agent.FindModel("mock", "mock-model"); m == nil || m.ContextWindow != 128000 {
		t.Errorf("FindModel(mock, mock-model) = %v", m)
	}
	if m := agent.FindModel("anthropic", "claude-sonnet-4-5"); m == nil || m.Cost.Input == 0 {
		t.Errorf("a built-in model without credentials is found with its prices: %v", m)
	}
	if m := agent.FindModel("mock", "nope"); m != nil {
		t.Errorf("unknown model found: %v", m)
	}
}
