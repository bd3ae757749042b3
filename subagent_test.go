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

// TestSubAgentMatchesReference runs extensions whose commands run a
// sub-agent in process as @tintinweb/pi-subagents's Agent tool does (a
// DefaultResourceLoader with a replaced system prompt, createAgentSession
// with the parent's model, a tool allowlist and an in-memory
// SessionManager, prompt with its events subscribed) and compares what
// they print, and the sub-agent's LLM request, with the reference's
// answers. The goldens were recorded with the reference pi 1.6.0 against
// the conformance mock (an exhausted script), for sub_ext.ts with
// testdata/subagent/helper.ts installed in the agent's extensions folder:
//
//	pi --provider mock --model mock-model --no-session -e sub.ts -p /sub
//	pi --provider mock --model mock-model --no-session -e sub_ext.ts -p /subext
//
// sub.ts (without helper.ts) observes events, transcript, session
// entries, name, model, stats and the state getters after waitForIdle,
// setModel and setThinkingLevel; sub_ext.ts has the loader load the global extension (its
// factory runs a second time, its tool is allowed) and session_start
// reach it only on bindExtensions.
func TestSubAgentMatchesReference(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ext, golden, prompt string
		helper              bool
	}{
		{"sub.ts", "reference.golden", "/sub", false},
		{"sub_ext.ts", "reference_ext.golden", "/subext", true},
	} {
		t.Run(tc.ext, func(t *testing.T) {
			t.Parallel()
			golden, err := os.ReadFile(filepath.Join("testdata", "subagent", tc.golden))
			if err != nil {
				t.Fatal(err)
			}
			var wantLines []string
			var wantReq string
			for _, l := range strings.Split(strings.TrimSpace(string(golden)), "\n") {
				if r, ok := strings.CutPrefix(l, "REQUEST "); ok {
					wantReq = r
					continue
				}
				wantLines = append(wantLines, l)
			}
			agentDir, project, srv := sdktest.Home(t, mockllm.Script{})
			if tc.helper {
				helper, err := os.ReadFile(filepath.Join("testdata", "subagent", "helper.ts"))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Join(agentDir, "extensions"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(agentDir, "extensions", "helper.ts"), helper, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ext, err := filepath.Abs(filepath.Join("testdata", "subagent", tc.ext))
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
				NoSession: true, Mode: pi.ModePrint, Extensions: []string{ext}, Stderr: &stderr})
			if err != nil {
				t.Fatalf("New: %v\n%s", err, stderr.String())
			}
			if err := agent.Prompt(context.Background(), tc.prompt, nil); err != nil {
				t.Fatal(err)
			}
			agent.Close()
			var gotLines []string
			for _, l := range strings.Split(stderr.String(), "\n") {
				for _, p := range []string{"HELPER", "SUB", "BIND", "BOUND"} {
					if strings.HasPrefix(l, p) {
						gotLines = append(gotLines, l)
						break
					}
				}
			}
			if strings.Join(gotLines, "\n") != strings.Join(wantLines, "\n") {
				t.Errorf("output\n got: %s\nwant: %s\n(stderr: %s)", strings.Join(gotLines, "\n"), strings.Join(wantLines, "\n"), stderr.String())
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
			if err := json.Unmarshal([]byte(wantReq), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("sub-agent request\n got: %v\nwant: %v", got, want)
			}
		})
	}
}
