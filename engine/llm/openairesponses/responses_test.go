package openairesponses

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// scenario is one scripted exchange (testdata/scenarios): the model, the
// request options, one context per request, and what the server answers.
// Contexts may name an earlier final message as "$prevN" so a later
// request replays it.
type scenario struct {
	Model json.RawMessage `json:"model"`
	// Env is the environment the Azure flavor reads.
	Env     map[string]string `json:"env"`
	Options struct {
		APIKey    string `json:"apiKey"`
		SessionID string `json:"sessionId"`
		Reasoning string `json:"reasoning"`
	} `json:"options"`
	Context   *scenarioContext  `json:"context"`
	Contexts  []scenarioContext `json:"contexts"`
	Responses []scenarioReply   `json:"responses"`
}

type scenarioContext struct {
	SystemPrompt string            `json:"systemPrompt"`
	Messages     []json.RawMessage `json:"messages"`
	Tools        []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		// ConstrainedSampling is the tool's own; a scenario tool without
		// one asks for none, as a bare pi-ai tool does.
		ConstrainedSampling json.RawMessage `json:"constrainedSampling"`
	} `json:"tools"`
}

type scenarioReply struct {
	Events   []json.RawMessage `json:"events"`
	Status   int               `json:"status"`
	Body     string            `json:"body"`
	CType    string            `json:"ctype"`
	CutAfter *int              `json:"cutAfter"`
	Delay    int               `json:"delay"`
	AbortOn  string            `json:"abortOn"`
	Hang     bool              `json:"hang"`
	PreAbort bool              `json:"preAbort"`
}

// exchange is one request and its outcome, the golden file's unit.
type exchange struct {
	// URL and Headers are recorded for the Azure and Codex flavors: the
	// request path and query, and the headers pi sets itself.
	URL     string          `json:"url,omitempty"`
	Headers []string        `json:"headers,omitempty"`
	Request json.RawMessage `json:"request"`
	Events  []string        `json:"events"`
	Message json.RawMessage `json:"message"`
}

// server answers POST /v1/responses from the scenario's replies in order.
type server struct {
	t       *testing.T
	replies []scenarioReply
	mu      sync.Mutex
	n       int
	bodies  [][]byte
	headers []http.Header
	urls    []string
	got     chan struct{} // receives when a hanging request has arrived
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	i := s.n
	s.n++
	s.bodies = append(s.bodies, body)
	s.headers = append(s.headers, r.Header.Clone())
	s.urls = append(s.urls, r.URL.RequestURI())
	s.mu.Unlock()
	if (r.URL.Path != "/v1/responses" && r.URL.Path != "/v1/codex/responses") || i >= len(s.replies) {
		http.Error(w, "unexpected request", http.StatusNotFound)
		return
	}
	rep := s.replies[i]
	if rep.Hang {
		s.got <- struct{}{}
		<-r.Context().Done()
		return
	}
	if rep.Status != 0 {
		ct := rep.CType
		if ct == "" {
			ct = "application/json"
		}
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(rep.Status)
		_, _ = io.WriteString(w, rep.Body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fl := w.(http.Flusher)
	for n, ev := range rep.Events {
		if rep.CutAfter != nil && n == *rep.CutAfter {
			// Closing the connection mid-body is what a dropped stream
			// looks like to the client.
			panic(http.ErrAbortHandler)
		}
		var head struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(ev, &head)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", head.Type, ev)
		fl.Flush()
		if rep.Delay > 0 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Duration(rep.Delay) * time.Millisecond):
			}
		}
	}
	if rep.CutAfter != nil {
		panic(http.ErrAbortHandler)
	}
}

// providerFor is the flavor of a model's API, with a fixed environment
// and clock.
func providerFor(api string, env map[string]string) *Provider {
	p := &Provider{getenv: func(k string) string { return env[k] },
		now: func() time.Time { return time.Unix(1_700_000_000, 0) }}
	switch api {
	case engine.APIAzureOpenAIResponses:
		p.flavor = flavorAzure
	case engine.APIOpenAICodexResponses:
		p.flavor = flavorCodex
	}
	return p
}

// ownHeaders lists the request headers pi chose, as "name: value" sorted
// by name, leaving out those the HTTP client adds on its own.
func ownHeaders(h http.Header) []string {
	var out []string
	for k, vs := range h {
		lk := strings.ToLower(k)
		if strings.HasPrefix(lk, "x-stainless") || lk == "accept-encoding" || lk == "content-length" || lk == "user-agent" {
			continue
		}
		out = append(out, lk+": "+strings.Join(vs, ", "))
	}
	sort.Strings(out)
	return out
}

func loadScenario(t *testing.T, name string) scenario {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "scenarios", name+".json"))
	require.NoError(t, err)
	var sc scenario
	require.NoError(t, json.Unmarshal(data, &sc))
	return sc
}

// runScenario plays a scenario against an httptest server and returns
// every exchange, with volatile fields (timestamp, durationMs) zeroed.
func runScenario(t *testing.T, sc scenario) ([]exchange, *server) {
	t.Helper()
	srv := &server{t: t, replies: sc.Responses, got: make(chan struct{}, 1)}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	var model engine.Model
	require.NoError(t, json.Unmarshal(sc.Model, &model))
	model.BaseURL = hs.URL + "/v1"
	var finals []*engine.Message
	var out []exchange
	for i, rep := range sc.Responses {
		c := sc.Context
		if sc.Contexts != nil {
			c = &sc.Contexts[i]
		}
		req := &engine.LLMRequest{Model: &model, SystemPrompt: c.SystemPrompt, APIKey: sc.Options.APIKey,
			SessionID: sc.Options.SessionID, ThinkingLevel: engine.ThinkingLevel(sc.Options.Reasoning)}
		for _, raw := range c.Messages {
			var ref string
			if json.Unmarshal(raw, &ref) == nil && strings.HasPrefix(ref, "$prev") {
				var n int
				_, err := fmt.Sscanf(ref, "$prev%d", &n)
				require.NoError(t, err)
				req.Messages = append(req.Messages, finals[n])
				continue
			}
			var m engine.Message
			require.NoError(t, json.Unmarshal(raw, &m))
			req.Messages = append(req.Messages, &m)
		}
		for _, tool := range c.Tools {
			req.Tools = append(req.Tools, engine.ToolInfo{Name: tool.Name, Description: tool.Description, Parameters: tool.Parameters,
				OwnSampling: true, ConstrainedSampling: tool.ConstrainedSampling})
		}
		ctx, cancel := context.WithCancel(context.Background())
		if rep.PreAbort {
			cancel()
		}
		if rep.Hang {
			go func() {
				<-srv.got
				cancel()
			}()
		}
		var events []string
		msg := providerFor(model.API, sc.Env).Stream(ctx, req, func(e engine.AssistantEvent) {
			require.NotNil(t, e.Partial)
			b, err := e.MarshalJSON()
			require.NoError(t, err)
			events = append(events, string(b))
			if rep.AbortOn != "" && e.Type == rep.AbortOn {
				cancel()
			}
		})
		cancel()
		require.NotNil(t, msg.DurationMs)
		finals = append(finals, msg)
		cp := *msg
		cp.Timestamp, cp.DurationMs = 0, nil
		mj, err := engine.MarshalJSON(cp)
		require.NoError(t, err)
		ex := exchange{Events: events, Message: mj, Request: json.RawMessage("null")}
		srv.mu.Lock()
		if i < len(srv.bodies) {
			ex.Request = srv.bodies[i]
			if model.API != engine.APIOpenAIResponses {
				ex.URL, ex.Headers = srv.urls[i], ownHeaders(srv.headers[i])
			}
		}
		srv.mu.Unlock()
		out = append(out, ex)
	}
	return out, srv
}

// TestScenarios compares each scenario's request bodies, event sequences
// and final messages with testdata/<name>.golden. The goldens were checked
// against what the reference's pi-ai produces for the same scripted
// streams.
func TestScenarios(t *testing.T) {
	t.Parallel()
	names := []string{"text", "reasoning", "tool", "status529", "status500text", "status400empty", "openai400",
		"cut", "noterminal", "abort", "abortwait", "preabort", "length", "filter", "failed", "errorev", "backfill", "sampling",
		"azure", "azure400", "azuretool", "codextool", "codexdone", "codexerror", "codexfailed", "codex400", "codex429",
		"codexcatalog", "azurestrict", "strictrequire", "openaieffort", "codexendturn", "grammar", "grammarbad"}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, _ := runScenario(t, loadScenario(t, name))
			var buf bytes.Buffer
			for _, ex := range got {
				b, err := engine.MarshalJSON(ex)
				require.NoError(t, err)
				var pretty bytes.Buffer
				require.NoError(t, json.Indent(&pretty, b, "", " "))
				buf.Write(pretty.Bytes())
				buf.WriteByte('\n')
			}
			path := filepath.Join("testdata", name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(want), buf.String())
		})
	}
}
