package pi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pi-go/pi"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestSubAgentMatchesReference runs testdata/subagent/sub.ts, whose
// command runs a sub-agent in process as @tintinweb/pi-subagents's Agent
// tool does (a DefaultResourceLoader with a replaced system prompt,
// createAgentSession with the parent's model, a tool allowlist and an
// in-memory SessionManager, prompt with its events subscribed), and
// compares what the extension observes, and the sub-agent's LLM request,
// with the reference's answers. reference.golden was recorded with the
// reference pi 1.6.0 against the conformance mock (an exhausted script):
//
//	pi --provider mock --model mock-model --no-session -e sub.ts -p /sub
func TestSubAgentMatchesReference(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile(filepath.Join("testdata", "subagent", "reference.golden"))
	if err != nil {
		t.Fatal(err)
	}
	wantSub, wantReq, _ := strings.Cut(strings.TrimSpace(string(golden)), "\n")
	agentDir, project, srv := sdktest.Home(t, mockllm.Script{})
	ext, err := filepath.Abs(filepath.Join("testdata", "subagent", "sub.ts"))
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
		NoSession: true, Mode: pi.ModePrint, Extensions: []string{ext}, Stderr: &stderr})
	if err != nil {
		t.Fatalf("New: %v\n%s", err, stderr.String())
	}
	defer agent.Close()
	if err := agent.Prompt(context.Background(), "/sub", nil); err != nil {
		t.Fatal(err)
	}
	_, line, ok := strings.Cut(stderr.String(), "SUB ")
	if !ok {
		t.Fatalf("no sub-agent report in:\n%s", stderr.String())
	}
	line, _, _ = strings.Cut(line, "\n")
	if "SUB "+line != wantSub {
		t.Errorf("sub-agent report\n got: SUB %s\nwant: %s", line, wantSub)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d LLM requests, want the sub-agent's one", len(reqs))
	}
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	got := map[string]any{"messages": []any{}, "tools": []any{}}
	var system string
	_ = json.Unmarshal(body.Messages[0].Content, &system)
	got["system"] = strings.ReplaceAll(system, project, "<PROJECT>")
	for _, m := range body.Messages {
		got["messages"] = append(got["messages"].([]any), m.Role)
	}
	for _, tl := range body.Tools {
		got["tools"] = append(got["tools"].([]any), tl.Function.Name)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(strings.TrimPrefix(wantReq, "REQUEST ")), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sub-agent request\n got: %v\nwant: %v", got, want)
	}
}
