package bedrock

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pi-go/pi/engine"
)

// TestAbortTexts checks the reference's texts for a request cancelled
// before its response and one cancelled while streaming.
func TestAbortTexts(t *testing.T) {
	t.Parallel()
	first := encodeFrames(t, []frame{ev("messageStart", `{"role":"assistant"}`),
		ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Hel"}}`)})
	tests := []struct {
		name       string
		headers    bool // the server answers before stalling
		cancelOn   string
		want       string
		wantBlocks int
	}{
		{"before_response", false, "", errAbortedRequest, 0},
		{"while_streaming", true, engine.AETextDelta, errAbortedStream, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			arrived := make(chan struct{}, 1)
			done := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				// The server notices a closed connection only once the
				// request body has been read.
				_, _ = io.Copy(io.Discard, r.Body)
				if tc.headers {
					w.Header().Set("content-type", "application/vnd.amazon.eventstream")
					_, _ = w.Write(first)
					w.(http.Flusher).Flush()
				}
				arrived <- struct{}{}
				select {
				case <-r.Context().Done():
				case <-done:
				}
			}))
			t.Cleanup(srv.Close)
			t.Cleanup(func() { close(done) }) // runs before srv.Close
			if !tc.headers {
				go func() {
					<-arrived
					cancel()
				}()
			}
			p := testProvider(t, map[string]string{"AWS_BEARER_TOKEN_BEDROCK": "tok"})
			msg := p.Stream(ctx, &engine.LLMRequest{Model: claudeModel(srv.URL), Messages: []*engine.Message{user("hi")}},
				func(e engine.AssistantEvent) {
					if e.Type == tc.cancelOn {
						cancel()
					}
				})
			if msg.StopReason != engine.StopAborted || msg.ErrorMessage != tc.want || len(msg.Content.Blocks) != tc.wantBlocks {
				t.Errorf("got %s %q with %d blocks", msg.StopReason, msg.ErrorMessage, len(msg.Content.Blocks))
			}
		})
	}
}

// TestConnectionRefused checks Node's wording of an unreachable endpoint.
func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	p := testProvider(t, map[string]string{"AWS_BEARER_TOKEN_BEDROCK": "tok"})
	_, msg := run(t, p, &engine.LLMRequest{Model: claudeModel(base), Messages: []*engine.Message{user("hi")}})
	if want := "connect ECONNREFUSED " + base[len("http://"):]; msg.StopReason != engine.StopError || msg.ErrorMessage != want {
		t.Errorf("got %s %q, want %q", msg.StopReason, msg.ErrorMessage, want)
	}
}

// TestStreamEventHook checks that provider_stream_event hooks see every
// item keyed by its type, a modeled exception included.
func TestStreamEventHook(t *testing.T) {
	t.Parallel()
	srv := newServer(t, http.StatusOK, nil, encodeFrames(t, []frame{ev("messageStart", `{"role":"assistant"}`), exc("throttlingException", "slow")}))
	var seen []string
	req := &engine.LLMRequest{Model: claudeModel(srv.URL), Messages: []*engine.Message{user("hi")},
		OnStreamEvent: func(data json.RawMessage) { seen = append(seen, string(data)) }}
	_, msg := run(t, testProvider(t, map[string]string{"AWS_BEARER_TOKEN_BEDROCK": "tok"}), req)
	want := []string{`{"messageStart":{"role":"assistant"}}`, `{"throttlingException":{"message":"slow"}}`}
	if msg.ErrorMessage != "Throttling error: slow" || len(seen) != 2 || seen[0] != want[0] || seen[1] != want[1] {
		t.Errorf("got %q, %q", msg.ErrorMessage, seen)
	}
}
