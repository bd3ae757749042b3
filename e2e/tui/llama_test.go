package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/llm/llamacpp/llamatest"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestLlamaCommand drives /llama in the terminal UI against a fake
// llama.cpp router: the list shows the router's models, choosing the
// unloaded one with another loaded asks whether to unload it first, and
// keeping it loads the model beside it (the router sees the load, and
// the list shows it loaded). Escape closes the list.
func TestLlamaCommand(t *testing.T) {
	t.Parallel()
	r := llamatest.New(false,
		llamatest.Model{ID: "qwen", Status: "loaded", NCtx: 8192},
		llamatest.Model{ID: "gemma", Status: "unloaded"},
	)
	defer r.Close()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	cred, _ := json.Marshal(map[string]any{"llama.cpp": map[string]any{"type": "api_key", "env": map[string]string{"LLAMA_BASE_URL": r.URL}}})
	if err := os.WriteFile(filepath.Join(agentDir, "auth.json"), cred, 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startPi(t, agentDir, project, 100, 30, "--model", sdktest.Model)
	tm.waitFor("mock-model")
	tm.send("/llama")
	tm.waitFor("/llama")
	tm.send("\r")
	s := tm.waitFor("llama.cpp models")
	for _, want := range []string{r.URL, "qwen · loaded · 8k context", "gemma", "Download model…"} {
		if !strings.Contains(s, want) {
			t.Errorf("the list lacks %q:\n%s", want, s)
		}
	}
	tm.send("\x1b[B")
	tm.send("\r")
	tm.waitFor("1 model is loaded")
	tm.send("\x1b[B")
	tm.send("\r")
	tm.waitFor("gemma · loaded")
	if got := r.Status("gemma"); got != "loaded" {
		t.Errorf("gemma is %q on the router, want loaded", got)
	}
	if got := r.Status("qwen"); got != "loaded" {
		t.Errorf("qwen is %q on the router, want it kept loaded", got)
	}
	tm.send("\x1b")
	// Escape alone closes the list; Ctrl+C goes only once it is gone, so
	// the two are not read as one Alt+Ctrl+C.
	deadline := time.Now().Add(30 * time.Second)
	for strings.Contains(tm.screen(), "llama.cpp models") {
		if time.Now().After(deadline) {
			t.Fatalf("Escape did not close the list:\n%s", tm.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	tm.send("\x03\x03")
	if code := tm.exitCode(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}
