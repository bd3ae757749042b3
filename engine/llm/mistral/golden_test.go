package mistral

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from this adapter's output")

// The golden files were recorded from the reference: its
// mistral-conversations streamSimple run on each testdata/*.case.json with
// a fetch that captured the request and answered with the case's stream.
// Each holds the request path, the headers pi sets (User-Agent aside, as it
// names the runtime), the exact body, the stream events (without partials)
// and the final message (without timestamp and duration).

// refCase is one recorded case: the model, the context and options in the
// reference's shapes, and the canned response.
type refCase struct {
	Model   engine.Model `json:"model"`
	Context struct {
		SystemPrompt string            `json:"systemPrompt"`
		Messages     []*engine.Message `json:"messages"`
		Tools        []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"tools"`
	} `json:"context"`
	Options struct {
		SessionID   string   `json:"sessionId"`
		MaxTokens   int      `json:"maxTokens"`
		Temperature *float64 `json:"temperature"`
		Reasoning   string   `json:"reasoning"`
	} `json:"options"`
	SSE    string `json:"sse"`
	Status int    `json:"status"`
}

type golden struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	Events  []json.RawMessage `json:"events"`
	Final   json.RawMessage   `json:"final"`
}

type captured struct {
	path    string
	headers http.Header
	body    string
}

func serve(t *testing.T, status int, sse string) (*httptest.Server, *captured) {
	t.Helper()
	got := &captured{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.path, got.headers, got.body = r.URL.Path, r.Header.Clone(), string(b)
		w.Header().Set("content-type", "text/event-stream")
		if status != 0 {
			w.WriteHeader(status)
		}
		_, _ = io.WriteString(w, sse)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func (c *refCase) request(baseURL string) *engine.LLMRequest {
	m := c.Model
	m.BaseURL = baseURL
	req := &engine.LLMRequest{
		Model: &m, SystemPrompt: c.Context.SystemPrompt, Messages: c.Context.Messages,
		ThinkingLevel: engine.ThinkingLevel(c.Options.Reasoning), MaxTokens: c.Options.MaxTokens,
		Temperature: c.Options.Temperature, APIKey: "k", SessionID: c.Options.SessionID,
	}
	if req.ThinkingLevel == "" {
		req.ThinkingLevel = engine.ThinkingOff
	}
	for _, tl := range c.Context.Tools {
		req.Tools = append(req.Tools, engine.ToolInfo{Name: tl.Name, Description: tl.Description, Parameters: tl.Parameters})
	}
	return req
}

// eventJSON is an event as the reference's stream yields it: the agent
// adds id and toolName to toolcall_start later, so they are left out.
func eventJSON(t *testing.T, e engine.AssistantEvent) json.RawMessage {
	t.Helper()
	if e.Type == engine.AEToolCallStart {
		e.ID, e.ToolName = "", ""
		b, err := engine.MarshalJSON(struct {
			Type         string `json:"type"`
			ContentIndex int    `json:"contentIndex"`
		}{e.Type, e.ContentIndex})
		require.NoError(t, err)
		return b
	}
	b, err := engine.MarshalJSON(e)
	require.NoError(t, err)
	return b
}

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, raw))
	return b.String()
}

func TestGoldenAgainstReference(t *testing.T) {
	t.Parallel()
	cases, err := filepath.Glob("testdata/*.case.json")
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.Base(path), ".case.json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			var c refCase
			require.NoError(t, json.Unmarshal(data, &c))
			srv, got := serve(t, c.Status, c.SSE)
			var events []json.RawMessage
			msg := New().Stream(context.Background(), c.request(srv.URL), func(e engine.AssistantEvent) {
				events = append(events, eventJSON(t, e))
			})
			msg.Timestamp, msg.DurationMs = 0, nil
			final, err := engine.MarshalJSON(msg)
			require.NoError(t, err)
			final = bytes.Replace(final, []byte(`"timestamp":0,`), nil, 1)
			ours := golden{URL: got.path, Headers: map[string]string{}, Body: got.body, Events: events, Final: final}
			for _, h := range []string{"accept", "authorization", "content-type", "x-affinity"} {
				if v := got.headers.Get(h); v != "" {
					ours.Headers[h] = v
				}
			}
			goldenPath := filepath.Join("testdata", name+".golden.json")
			if *update {
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				enc.SetIndent("", " ")
				require.NoError(t, enc.Encode(ours))
				require.NoError(t, os.WriteFile(goldenPath, buf.Bytes(), 0o644))
				return
			}
			wantData, err := os.ReadFile(goldenPath)
			require.NoError(t, err)
			var want golden
			require.NoError(t, json.Unmarshal(wantData, &want))
			assert.Equal(t, want.URL, ours.URL, "path")
			assert.Equal(t, want.Headers, ours.Headers, "headers")
			assert.Equal(t, want.Body, ours.Body, "body")
			wantEvents, gotEvents := make([]string, len(want.Events)), make([]string, len(ours.Events))
			for i, e := range want.Events {
				wantEvents[i] = compact(t, e)
			}
			for i, e := range ours.Events {
				gotEvents[i] = compact(t, e)
			}
			assert.Equal(t, wantEvents, gotEvents, "events")
			assert.Equal(t, compact(t, want.Final), compact(t, ours.Final), "final message")
		})
	}
}
