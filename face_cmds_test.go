package pi_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/interactive/slash"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

var _ slash.Agent = (*pi.Agent)(nil)

// TestCommandOperations drives the operations face_cmds.go adds for the
// slash commands against a real agent over the mock provider.
func TestCommandOperations(t *testing.T) {
	t.Parallel()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "hello back"}}})
	var stderr bytes.Buffer
	ctx := context.Background()
	agent, err := pi.New(ctx, pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model, Mode: pi.ModeRPC, Stderr: &stderr})
	if err != nil {
		t.Fatalf("New: %v (%s)", err, stderr.String())
	}
	defer agent.Close()
	if err := agent.Prompt(ctx, "hi", nil); err != nil {
		t.Fatal(err)
	}
	store := agent.Store()
	if agent.Model() == nil || agent.Model().ID != "mock-model" || agent.IsStreaming() || agent.IsCompacting() {
		t.Fatalf("model %v streaming %v", agent.Model(), agent.IsStreaming())
	}

	// Names and labels are recorded in the session.
	if got, err := agent.SetSessionName("demo\nsession"); err != nil || got != "demo session" || store.SessionName() != "demo session" {
		t.Fatalf("SetSessionName: %q %v", got, err)
	}
	first := store.Entries()[0].ID
	if err := agent.SetLabel(first, "start"); err != nil {
		t.Fatal(err)
	}
	if l, _ := store.Label(first); l != "start" {
		t.Fatalf("label %q", l)
	}

	// Settings read back what was written.
	if err := agent.SetGlobalSetting("treeFilterMode", "user-only"); err != nil {
		t.Fatal(err)
	}
	if agent.Setting("treeFilterMode") != "user-only" {
		t.Fatalf("setting %v", agent.Setting("treeFilterMode"))
	}

	// The session-only model scope is what Ctrl+P cycles.
	agent.SetModelScope([]string{"mock/mock-model"})
	if sc := agent.ScopedModels(); len(sc) != 1 || sc[0].Model.ID != "mock-model" {
		t.Fatalf("scoped %v", sc)
	}

	// The current folder's sessions include this one.
	infos, err := agent.ListSessions(false)
	if err != nil || len(infos) != 1 || infos[0].Path != store.Path() || infos[0].Name != "demo session" {
		t.Fatalf("ListSessions: %+v %v", infos, err)
	}
	if all, err := agent.ListSessions(true); err != nil || len(all) != 1 {
		t.Fatalf("ListSessions(all): %d %v", len(all), err)
	}

	// JSONL export writes the header and every entry, one per line.
	out := filepath.Join(t.TempDir(), "copy.jsonl")
	if p, err := agent.ExportJSONL(out); err != nil || p != out {
		t.Fatalf("ExportJSONL: %q %v", p, err)
	}
	b, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 1+len(store.Entries()) || !strings.Contains(lines[0], `"type":"session"`) {
		t.Fatalf("export has %d lines for %d entries:\n%s", len(lines), len(store.Entries()), b)
	}

	// Importing it copies it into this folder's sessions and switches.
	if cancelled, err := agent.ImportSession(ctx, out); cancelled || err != nil {
		t.Fatalf("ImportSession: %v %v", cancelled, err)
	}
	if cur := agent.Store(); filepath.Base(cur.Path()) != "copy.jsonl" || cur.Header().ID != store.Header().ID || len(cur.Entries()) != len(store.Entries()) {
		t.Fatalf("imported store %s id %s", cur.Path(), cur.Header().ID)
	}
	if _, err := agent.ImportSession(ctx, out); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("second import: %v", err)
	}
	if _, err := agent.ImportSession(ctx, filepath.Join(t.TempDir(), "missing.jsonl")); err == nil {
		t.Fatal("missing file imported")
	}

	// Thinking levels clamp to the model (mock-model has no reasoning).
	if got := agent.SetThinkingLevel(engine.ThinkingHigh); got != engine.ThinkingOff || agent.ThinkingLevel() != engine.ThinkingOff {
		t.Fatalf("level %q", got)
	}

	// The mock provider's key comes from models.json.
	found := false
	for _, p := range agent.AuthProviders() {
		if p.ID == "mock" {
			found = p.Configured && p.APIKey && !p.OAuth
		}
	}
	if !found {
		t.Fatalf("mock provider not listed as configured with an API key login: %+v", agent.AuthProviders())
	}
	if agent.AgentDir() == "" || agent.AuthPath() == "" || !agent.ProjectTrusted() {
		t.Fatalf("agentDir %q authPath %q trusted %v", agent.AgentDir(), agent.AuthPath(), agent.ProjectTrusted())
	}
}

// ShareJSONL is the branch under a fresh header with the trailing
// pi.share entry (system prompt and tools) the viewer reads; without a
// Radius sign-in there is no Radius token.
func TestShareJSONL(t *testing.T) {
	t.Parallel()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "shared reply"}}})
	ctx := context.Background()
	agent, err := pi.New(ctx, pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model, Mode: pi.ModeRPC, Stderr: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	if err := agent.Prompt(ctx, "share me", nil); err != nil {
		t.Fatal(err)
	}
	out, err := agent.ShareJSONL()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	branch := agent.Store().Branch()
	if len(lines) != len(branch)+2 || !strings.HasPrefix(lines[0], `{"type":"session","version":3,"id":"`+agent.Store().Header().ID+`"`) {
		t.Fatalf("%d lines for %d entries: %s", len(lines), len(branch), lines[0])
	}
	tail := lines[len(lines)-1]
	for _, want := range []string{`{"type":"custom","customType":"pi.share","id":"`, `"parentId":"` + branch[len(branch)-1].ID + `"`,
		`"data":{"systemPrompt":"`, `"tools":[{"name":"read","description":"`} {
		if !strings.Contains(tail, want) {
			t.Errorf("pi.share entry lacks %q: %.300s", want, tail)
		}
	}
	if tok, err := agent.RadiusToken(ctx); tok != "" || err != nil {
		t.Fatalf("radius token %q %v", tok, err)
	}
}
