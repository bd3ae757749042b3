package anthropic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

// scenario04 reads the reference's recorded requests of conformance
// scenario 04 (thinking, text and a read tool call, then a final answer).
func scenario04(t *testing.T) (bodies []json.RawMessage, headers []map[string]string, paths []string) {
	t.Helper()
	f, err := os.Open("testdata/scenario04_llm.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Request struct {
				Path    string            `json:"path"`
				Headers map[string]string `json:"headers"`
				Body    json.RawMessage   `json:"body"`
			} `json:"request"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		var c bytes.Buffer
		if err := json.Compact(&c, rec.Request.Body); err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, c.Bytes())
		headers = append(headers, rec.Request.Headers)
		paths = append(paths, rec.Request.Path)
	}
	return bodies, headers, paths
}

// scenario04Request rebuilds the first request's inputs from its body:
// the system text and the tools exactly as the reference sent them.
func scenario04Request(t *testing.T, body json.RawMessage, url string) *engine.LLMRequest {
	t.Helper()
	var b struct {
		System []struct {
			Text string `json:"text"`
		} `json:"system"`
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	req := &engine.LLMRequest{
		Model: mockModel(url, true), SystemPrompt: b.System[0].Text, ThinkingLevel: engine.ThinkingMedium,
		MaxTokens: 16384, APIKey: "mock-key",
		Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("What is in notes.txt?")), Timestamp: 1}},
	}
	for _, tl := range b.Tools {
		req.Tools = append(req.Tools, engine.ToolInfo{Name: tl.Name, Description: tl.Description, Parameters: tl.InputSchema})
	}
	return req
}

func TestScenario04RequestMatchesReference(t *testing.T) {
	t.Parallel()
	bodies, headers, paths := scenario04(t)
	srv := newFakeServer(t,
		turn{Thinking: "I need to look at notes.txt first.", Text: "Let me read the file.",
			ToolCalls: []call{{Name: "read", Args: `{"path": "notes.txt"}`}}},
		turn{Text: "notes.txt has three lines: alpha, beta and gamma."})
	req := scenario04Request(t, bodies[0], srv.URL)

	_, first := run(context.Background(), req)
	if first.StopReason != engine.StopToolUse {
		t.Fatalf("first turn: stopReason %q (%s)", first.StopReason, first.ErrorMessage)
	}
	req.Messages = append(req.Messages, first, &engine.Message{
		Role: engine.RoleToolResult, ToolCallID: "toolu_mock_0_0", ToolName: "read",
		Content: engine.Blocks(engine.TextContent("alpha\nbeta\ngamma\n")), Timestamp: 3,
	})
	_, second := run(context.Background(), req)
	if second.StopReason != engine.StopStop {
		t.Fatalf("second turn: stopReason %q (%s)", second.StopReason, second.ErrorMessage)
	}

	got := srv.requests()
	if len(got) != 2 {
		t.Fatalf("got %d requests, want 2", len(got))
	}
	for i, r := range got {
		if r.Path != paths[i] {
			t.Errorf("request %d: path %q, want %q", i, r.Path, paths[i])
		}
		if !bytes.Equal(r.Body, bodies[i]) {
			t.Errorf("request %d body differs from the reference:\n got: %s\nwant: %s", i, firstDiff(r.Body, bodies[i]), firstDiff(bodies[i], r.Body))
		}
		for k, v := range headers[i] {
			if g := r.Header.Get(k); g != v {
				t.Errorf("request %d: header %s = %q, want %q", i, k, g, v)
			}
		}
		if g := r.Header.Get("anthropic-dangerous-direct-browser-access"); g != "true" {
			t.Errorf("request %d: anthropic-dangerous-direct-browser-access = %q", i, g)
		}
		if g := r.Header.Get("User-Agent"); !strings.HasPrefix(g, "pi/") {
			t.Errorf("request %d: User-Agent = %q", i, g)
		}
	}
}

// firstDiff shows a window of a around the first byte where a and b differ.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	hi := min(len(a), i+80)
	return string(a[lo:hi])
}
