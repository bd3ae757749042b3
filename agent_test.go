package pi_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestEmbedderOptions checks the options an embedder overrides: in-memory
// settings (defaultTools) instead of the files, a Go tool that replaces a
// built-in of the same name, and a seeded in-memory store whose history
// reaches the model; the settings file the agent directory holds is not
// read, and a setting written stays in memory.
func TestEmbedderOptions(t *testing.T) {
	t.Parallel()
	agentDir, project, srv := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "ok"}}})
	// A file setting that must be ignored.
	if err := os.WriteFile(filepath.Join(agentDir, "settings.json"), []byte(`{"defaultTools":["ls"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	settings := config.FromMaps(map[string]any{"defaultTools": []any{"read", "grep"}}, nil)
	grep := pi.NewTool("grep", "Our own grep", `{"type":"object","properties":{}}`,
		func(context.Context, struct{}) (string, error) { return "mine", nil })
	seed, err := session.InMemoryWith(project, "", []*engine.Entry{{
		Type: engine.EntryMessage, ID: "a1", Timestamp: "2026-01-01T00:00:00.000Z",
		Message: &engine.Message{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("remembered question"))},
	}})
	if err != nil {
		t.Fatal(err)
	}
	agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
		Settings: settings, ExtraTools: []engine.Tool{grep}, Store: seed})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	var names []string
	for _, tool := range agent.Session().Tools() {
		names = append(names, tool.Info().Name+":"+tool.Info().Description)
	}
	if got := strings.Join(names, " "); !strings.HasPrefix(got, "read:") || !strings.Contains(got, "grep:Our own grep") || strings.Contains(got, "ls:") {
		t.Errorf("tools %s", got)
	}
	if err := agent.Prompt(context.Background(), "new question", nil); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(body.Messages); !strings.Contains(string(b), "remembered question") || !strings.Contains(string(b), "new question") {
		t.Errorf("request messages %s", b)
	}
	if err := agent.SetGlobalSetting("steeringMode", "all"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(agentDir, "settings.json")); string(b) != `{"defaultTools":["ls"]}` {
		t.Errorf("settings file written: %s", b)
	}
}
