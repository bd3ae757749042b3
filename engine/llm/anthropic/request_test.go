package anthropic

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

func bodyOf(t *testing.T, req *engine.LLMRequest) (string, []string) {
	t.Helper()
	o := resolveOptions(req)
	b, err := engine.MarshalJSON(buildBody(req, o))
	if err != nil {
		t.Fatal(err)
	}
	return string(b), o.betas
}

func TestThinkingAndTemperature(t *testing.T) {
	t.Parallel()
	temp := 0.5
	cases := []struct {
		name      string
		reasoning bool
		level     engine.ThinkingLevel
		maxTokens int
		compat    string
		levelMap  string
		budgets   map[engine.ThinkingLevel]int
		want      []string // substrings of the body
		absent    []string
		betas     string
	}{
		{name: "off on a reasoning model", reasoning: true, level: engine.ThinkingOff,
			want: []string{`"temperature":0.5,"tools":`, `"thinking":{"type":"disabled"}}`}},
		{name: "off with map.off null", reasoning: true, level: engine.ThinkingOff, levelMap: `{"off":null}`,
			want: []string{`"temperature":0.5,`}, absent: []string{`"thinking"`}},
		{name: "non-reasoning model", reasoning: false, level: engine.ThinkingOff,
			want: []string{`"max_tokens":16384,"stream":true,"system"`, `"temperature":0.5`}, absent: []string{`"thinking"`}},
		{name: "medium budget", reasoning: true, level: engine.ThinkingMedium,
			want:   []string{`"max_tokens":16384,`, `"thinking":{"type":"enabled","budget_tokens":8192,"display":"summarized"}`},
			absent: []string{`"temperature"`}, betas: betaInterleavedThinking},
		{name: "high on an 8192 model", reasoning: true, level: engine.ThinkingHigh, maxTokens: 8192,
			want:  []string{`"max_tokens":8192,`, `"budget_tokens":7168,`},
			betas: betaInterleavedThinking},
		{name: "custom low budget", reasoning: true, level: engine.ThinkingLow,
			budgets: map[engine.ThinkingLevel]int{engine.ThinkingLow: 3000, engine.ThinkingMedium: 5000},
			want:    []string{`"max_tokens":16384,`, `"budget_tokens":3000,`}, betas: betaInterleavedThinking},
		{name: "default budget beside custom ones", reasoning: true, level: engine.ThinkingMinimal,
			budgets: map[engine.ThinkingLevel]int{engine.ThinkingLow: 3000},
			want:    []string{`"budget_tokens":1024,`}, betas: betaInterleavedThinking},
		{name: "custom high budget for xhigh, clamped under max_tokens", reasoning: true, level: engine.ThinkingXHigh,
			budgets: map[engine.ThinkingLevel]int{engine.ThinkingHigh: 20000},
			want:    []string{`"max_tokens":16384,`, `"budget_tokens":15360,`}, betas: betaInterleavedThinking},
		{name: "adaptive ignores budgets", reasoning: true, level: engine.ThinkingLow, compat: `{"forceAdaptiveThinking":true}`,
			budgets: map[engine.ThinkingLevel]int{engine.ThinkingLow: 3000},
			want:    []string{`"output_config":{"effort":"low"}`}, absent: []string{`budget_tokens`}},
		{name: "adaptive", reasoning: true, level: engine.ThinkingMinimal, compat: `{"forceAdaptiveThinking":true}`,
			want: []string{`"thinking":{"type":"adaptive","display":"summarized"},"output_config":{"effort":"low"}`}},
		{name: "adaptive xhigh from the map", reasoning: true, level: engine.ThinkingXHigh, compat: `{"forceAdaptiveThinking":true}`,
			levelMap: `{"xhigh":"max"}`, want: []string{`"output_config":{"effort":"max"}`}},
		{name: "no eager streaming", reasoning: false, level: engine.ThinkingOff, compat: `{"supportsEagerToolInputStreaming":false}`,
			absent: []string{`eager_input_streaming`}, betas: betaFineGrainedToolStream},
		{name: "no temperature support", reasoning: false, level: engine.ThinkingOff, compat: `{"supportsTemperature":false}`,
			absent: []string{`"temperature"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := textRequest("http://127.0.0.1:1", tc.reasoning)
			req.ThinkingLevel = tc.level
			req.Temperature = &temp
			req.ThinkingBudgets = tc.budgets
			req.Tools = []engine.ToolInfo{{Name: "read", Description: "Read.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}}
			if tc.maxTokens != 0 {
				req.Model.MaxTokens = tc.maxTokens
				req.MaxTokens = tc.maxTokens
			}
			if tc.compat != "" {
				req.Model.Compat = json.RawMessage(tc.compat)
			}
			if tc.levelMap != "" {
				req.Model.ThinkingLevelMap = json.RawMessage(tc.levelMap)
			}
			body, betas := bodyOf(t, req)
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("body lacks %s:\n%s", w, body)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(body, a) {
					t.Errorf("body has %s:\n%s", a, body)
				}
			}
			if got := strings.Join(betas, ","); got != tc.betas {
				t.Errorf("betas %q, want %q", got, tc.betas)
			}
		})
	}
}

func TestMessageConversion(t *testing.T) {
	t.Parallel()
	model := mockModel("http://127.0.0.1:1", true)
	model.Input = []string{"text", "image"}
	img := engine.ImageContent("AAAA", "image/png")
	other := &engine.Message{Role: engine.RoleAssistant, API: "openai-completions", Provider: "other", Model: "gpt",
		StopReason: engine.StopToolUse, Content: engine.Blocks(
			engine.Content{Type: engine.ContentThinking, Thinking: "secret", ThinkingSignature: "sig"},
			engine.Content{Type: engine.ContentToolCall, ID: "call|1.x", Name: "read", Arguments: json.RawMessage(`{"b":1,"a":2}`)},
			engine.Content{Type: engine.ContentToolCall, ID: "call_2", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)},
		)}
	same := &engine.Message{Role: engine.RoleAssistant, API: model.API, Provider: model.Provider, Model: model.ID,
		StopReason: engine.StopStop, Content: engine.Blocks(
			engine.Content{Type: engine.ContentThinking, Thinking: "kept", ThinkingSignature: "s1"},
			engine.Content{Type: engine.ContentThinking, Thinking: "unsigned"},
			engine.Content{Type: engine.ContentThinking, Thinking: "[Reasoning redacted]", ThinkingSignature: "opaque", Redacted: true},
			engine.TextContent("  "),
			engine.TextContent("answer"),
		)}
	failed := &engine.Message{Role: engine.RoleAssistant, API: model.API, Provider: model.Provider, Model: model.ID,
		StopReason: engine.StopError, Content: engine.Blocks(engine.TextContent("dropped"))}
	req := &engine.LLMRequest{Model: model, APIKey: "k", MaxTokens: 1000, Messages: []*engine.Message{
		{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("look"), img, engine.TextContent(" "))},
		other,
		{Role: engine.RoleToolResult, ToolCallID: "call|1.x", ToolName: "read", Content: engine.Blocks(engine.TextContent("a"), engine.TextContent("b"))},
		{Role: engine.RoleToolResult, ToolCallID: "call_2", ToolName: "bash", IsError: true, Content: engine.Blocks(engine.TextContent("failed"), img)},
		same,
		failed,
		{Role: engine.RoleUser, Content: engine.StringContents("next")},
	}}
	body, _ := bodyOf(t, req)
	var b struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatal(err)
	}
	golden(t, "conversion", string(b.Messages))
}

func TestPayloadHookAndHeaders(t *testing.T) {
	t.Parallel()
	srv := newFakeServer(t, turn{Text: "ok"})
	req := textRequest(srv.URL, true)
	req.ThinkingLevel = engine.ThinkingLow
	req.Model.Headers = map[string]string{"X-Model": "m", "x-api-key": "from-model"}
	req.Headers = map[string]string{"X-Request": "r"}
	var seen string
	req.OnPayload = func(body json.RawMessage) json.RawMessage {
		seen = string(body)
		// Drop the stream flag and add a field; stream must come back.
		return json.RawMessage(`{"model":"other","messages":[{"role":"user","content":"hi"}],"max_tokens":5,"stream":false,"betas":["b1","b2"],"extra":1}`)
	}
	_, msg := run(context.Background(), req)
	if msg.StopReason != engine.StopStop {
		t.Fatalf("%q %q", msg.StopReason, msg.ErrorMessage)
	}
	if !strings.Contains(seen, `"stream":true,"betas":["interleaved-thinking-2025-05-14"],"system"`) {
		t.Errorf("hook saw %s", seen)
	}
	r := srv.requests()[0]
	if got, want := string(r.Body), `{"model":"other","messages":[{"role":"user","content":"hi"}],"max_tokens":5,"stream":true,"extra":1}`; got != want {
		t.Errorf("body %s, want %s", got, want)
	}
	for k, v := range map[string]string{"anthropic-beta": "b1,b2", "X-Model": "m", "X-Request": "r", "x-api-key": "from-model", "anthropic-version": "2023-06-01", "accept": "application/json"} {
		if g := r.Header.Get(k); g != v {
			t.Errorf("header %s = %q, want %q", k, g, v)
		}
	}
}

func TestConfiguredBetaHeader(t *testing.T) {
	t.Parallel()
	req := textRequest("http://127.0.0.1:1", true)
	req.ThinkingLevel = engine.ThinkingHigh
	req.Model.Headers = map[string]string{"anthropic-beta": " a, b ,a,"}
	_, betas := bodyOf(t, req)
	if got := strings.Join(betas, ","); got != "a,b" {
		t.Errorf("betas %q", got)
	}
}

func TestNormalizeToolCallID(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"toolu_01-AB":           "toolu_01-AB",
		"call|x.y":              "call_x_y",
		"a😀b":                   "a__b",
		strings.Repeat("a", 70): strings.Repeat("a", 64),
	}
	for in, want := range cases {
		if got := normalizeToolCallID(in); got != want {
			t.Errorf("normalizeToolCallID(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCacheRetention checks the request's cache preference: summaries
// send "none" (no cache_control, no affinity header), as the reference's
// one-off requests do; the environment only ever asks for "long".
func TestCacheRetention(t *testing.T) {
	t.Parallel()
	cases := []struct {
		retention    string
		wantCache    string // substring of the body, "" for none at all
		wantAffinity string
	}{
		{retention: "none", wantCache: "", wantAffinity: ""},
		{retention: "short", wantCache: `"cache_control":{"type":"ephemeral"}`, wantAffinity: "sess-1"},
		{retention: "long", wantCache: `"cache_control":{"type":"ephemeral","ttl":"1h"}`, wantAffinity: "sess-1"},
	}
	for _, tc := range cases {
		t.Run(tc.retention, func(t *testing.T) {
			t.Parallel()
			req := textRequest("http://127.0.0.1:1", false)
			req.SessionID = "sess-1"
			req.CacheRetention = tc.retention
			req.Model.Compat = json.RawMessage(`{"sendSessionAffinityHeaders":true}`)
			body, _ := bodyOf(t, req)
			if tc.wantCache == "" && strings.Contains(body, "cache_control") {
				t.Errorf("body has cache_control:\n%s", body)
			}
			if tc.wantCache != "" && !strings.Contains(body, tc.wantCache) {
				t.Errorf("body lacks %s:\n%s", tc.wantCache, body)
			}
			r, err := http.NewRequest(http.MethodPost, "http://127.0.0.1:1/v1/messages", nil)
			if err != nil {
				t.Fatal(err)
			}
			setHeaders(r, req, resolveOptions(req), nil)
			// setHeaders writes names as given, not canonicalised.
			if got := strings.Join(r.Header["x-session-affinity"], ","); got != tc.wantAffinity {
				t.Errorf("x-session-affinity %q, want %q", got, tc.wantAffinity)
			}
		})
	}
}
