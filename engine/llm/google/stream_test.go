package google

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// sse writes chunks as the Gemini API does: "data: <json>" events
// separated by CRLF blank lines.
func sse(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\r\n\r\n")
	}
	return b.String()
}

const (
	thoughtChunk = `{"candidates":[{"content":{"parts":[{"text":"Let me think","thought":true}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":100,"totalTokenCount":110,"thoughtsTokenCount":10},"responseId":"resp1"}`
	thoughtSig   = `{"candidates":[{"content":{"parts":[{"text":" about it.","thought":true,"thoughtSignature":"c2lnMQ=="}],"role":"model"},"index":0}],"responseId":"resp1"}`
	textAndCall  = `{"candidates":[{"content":{"parts":[{"text":"I'll run it."},{"functionCall":{"name":"bash","args":{"command":"echo hi"}},"thoughtSignature":"c2lnMg=="}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":20,"totalTokenCount":140,"thoughtsTokenCount":20,"cachedContentTokenCount":30},"responseId":"resp1"}`
)

// TestStream runs canned responses through the provider and compares the
// events and the final message with golden files.
func TestStream(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
	}{
		{name: "thinking_text_call", body: sse(thoughtChunk, thoughtSig, textAndCall)},
		{name: "text_stop", body: sse(
			`{"candidates":[{"content":{"parts":[{"text":"Done: "}],"role":"model"},"index":0}],"responseId":"r2"}`,
			`{"candidates":[{"content":{"parts":[{"text":"hi","thoughtSignature":"c2lnMw=="}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":200,"candidatesTokenCount":5,"totalTokenCount":205}}`)},
		{name: "call_ids", body: sse(
			`{"candidates":[{"content":{"parts":[{"functionCall":{"id":"fc1","name":"read","args":{"path":"a"}}},{"functionCall":{"id":"fc1","name":"read","args":{"path":"b"}}}],"role":"model"},"finishReason":"STOP","index":0}]}`)},
		{name: "max_tokens", body: sse(
			`{"candidates":[{"content":{"parts":[{"text":"cut"}],"role":"model"},"finishReason":"MAX_TOKENS","index":0}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":1,"totalTokenCount":6}}`)},
		{name: "safety", body: sse(
			`{"candidates":[{"content":{"parts":[{"text":"no"}],"role":"model"},"finishReason":"SAFETY","index":0}]}`)},
		{name: "unknown_reason", body: sse(
			`{"candidates":[{"finishReason":"SOMETHING_NEW","index":0}]}`)},
		{name: "no_finish_reason", body: sse(
			`{"candidates":[{"content":{"parts":[{"text":"partial"}],"role":"model"},"index":0}]}`)},
		{name: "incomplete_event", body: sse(
			`{"candidates":[{"content":{"parts":[{"text":"partial"}],"role":"model"},"index":0}]}`) + `data: {"candid`},
		{name: "stream_error_chunk", body: sse(
			`{"candidates":[{"content":{"parts":[{"text":"partial"}],"role":"model"},"index":0}]}`,
			`{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}`)},
		{name: "status_400_json", status: 400, contentType: "application/json; charset=UTF-8",
			body: "{\n  \"error\": {\n    \"code\": 400,\n    \"message\": \"API key not valid.\",\n    \"status\": \"INVALID_ARGUMENT\"\n  }\n}\n"},
		{name: "status_502_text", status: 502, contentType: "text/html", body: "<html>bad gateway</html>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.status != 0 {
					w.Header().Set("Content-Type", tt.contentType)
					w.WriteHeader(tt.status)
				} else {
					w.Header().Set("Content-Type", "text/event-stream")
				}
				fmt.Fprint(w, tt.body)
			}))
			defer srv.Close()
			m := testModel("gemini-2.5-pro")
			m.BaseURL = srv.URL + "/v1beta"
			req := &engine.LLMRequest{Model: m, APIKey: "k", ThinkingLevel: engine.ThinkingMedium,
				Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi"))}}}
			var lines []string
			msg := New().Stream(context.Background(), req, func(e engine.AssistantEvent) {
				b, err := engine.MarshalJSON(e)
				if err != nil {
					t.Fatal(err)
				}
				lines = append(lines, string(b))
			})
			b, err := engine.MarshalJSON(msg)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, string(b))
			checkGolden(t, tt.name, normalize(strings.Join(lines, "\n")+"\n"))
		})
	}
}

var (
	timestampRE = regexp.MustCompile(`"(timestamp|durationMs)":\d+`)
	genIDRE     = regexp.MustCompile(`(bash|read)_\d+_\d+`)
)

func normalize(s string) string {
	s = timestampRE.ReplaceAllString(s, `"$1":0`)
	return genIDRE.ReplaceAllString(s, "${1}_ID")
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

// TestAbort cancels the request while the stream is open.
func TestAbort(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, sse(thoughtChunk))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	m := testModel("gemini-2.5-pro")
	m.BaseURL = srv.URL
	ctx, cancel := context.WithCancel(context.Background())
	req := &engine.LLMRequest{Model: m, APIKey: "k",
		Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi"))}}}
	msg := New().Stream(ctx, req, func(e engine.AssistantEvent) {
		if e.Type == engine.AEThinkingDelta {
			cancel()
		}
	})
	if msg.StopReason != engine.StopAborted || msg.ErrorMessage != ErrAbortedInFlight {
		t.Fatalf("got %s %q", msg.StopReason, msg.ErrorMessage)
	}
	// Aborted before the request: no request is sent.
	msg = New().Stream(ctx, req, nil)
	if msg.StopReason != engine.StopAborted || msg.ErrorMessage != ErrAbortedBeforeRequest {
		t.Fatalf("got %s %q", msg.StopReason, msg.ErrorMessage)
	}
}

// TestRequestHeaders checks the URL, the key header, header precedence
// and a header an extension deleted.
func TestRequestHeaders(t *testing.T) {
	t.Parallel()
	var got *http.Request
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(context.Background())
		body = make([]byte, r.ContentLength)
		_, _ = r.Body.Read(body)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, sse(`{"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}]}`))
	}))
	defer srv.Close()
	m := testModel("gemini-2.5-flash")
	m.BaseURL = srv.URL + "/v1beta/"
	m.Provider = "opencode"
	m.Headers = map[string]string{"X-Model": "m", "X-Both": "model"}
	req := &engine.LLMRequest{Model: m, APIKey: "secret", ThinkingLevel: engine.ThinkingHigh,
		Headers:     map[string]string{"X-Both": "request", "X-Drop": "x"},
		DropHeaders: []string{"x-drop", "x-goog-api-client"},
		Messages:    []*engine.Message{{Role: engine.RoleUser, Content: engine.Contents{IsString: true, Blocks: []engine.Content{engine.TextContent("hi")}}}}}
	var payload json.RawMessage
	req.OnPayload = func(b json.RawMessage) json.RawMessage { payload = b; return nil }
	msg := New().Stream(context.Background(), req, nil)
	if msg.StopReason != engine.StopStop {
		t.Fatalf("stop %s: %s", msg.StopReason, msg.ErrorMessage)
	}
	if got.URL.String() != "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse" {
		t.Errorf("url %s", got.URL)
	}
	for k, want := range map[string]string{"X-Goog-Api-Key": "secret", "X-Model": "m", "X-Both": "request",
		"Content-Type": "application/json", "X-Drop": "", "X-Goog-Api-Client": "", "X-Opencode-Client": "pi"} {
		if v := got.Header.Get(k); v != want {
			t.Errorf("header %s = %q, want %q", k, v, want)
		}
	}
	if string(payload) != string(body) {
		t.Errorf("payload hook saw %s, sent %s", payload, body)
	}
	if want := `"generationConfig":{"maxOutputTokens":65536,"thinkingConfig":{"includeThoughts":true,"thinkingBudget":24576}}`; !strings.Contains(string(body), want) {
		t.Errorf("body %s lacks %s", body, want)
	}
}
