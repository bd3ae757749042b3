package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestTools scripts a model that calls the Go tool and the extension's
// tool, then answers; it checks both results, the answer, and that the
// request carried both tools and the extension's system prompt line.
func TestTools(t *testing.T) {
	t.Parallel()
	agentDir, project, srv := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{
		{ToolCalls: []mockllm.ToolCall{
			{Name: "word_count", Arguments: json.RawMessage(`{"text":"to be or not to be"}`)},
			{Name: "shout", Arguments: json.RawMessage(`{"text":"six"}`)},
		}},
		{Text: "Six words: SIX!"},
	}})
	var out bytes.Buffer
	opts := pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model, NoSession: true}
	if err := run(context.Background(), &out, opts, "Count, then shout."); err != nil {
		t.Fatal(err)
	}
	want := "[word_count] 6\n[shout] SIX!\nSix words: SIX!\n"
	if got := out.String(); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	body := string(reqs[0].Body)
	for _, s := range []string{`"name":"word_count"`, `"name":"shout"`, `"name":"bash"`, "Shout when asked to."} {
		if !strings.Contains(body, s) {
			t.Errorf("first request lacks %s", s)
		}
	}
}
