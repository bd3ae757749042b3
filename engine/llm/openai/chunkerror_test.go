package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
)

// TestStreamErrorChunk checks that an error sent in the middle of a
// stream ends the turn with stopReason "error" and the message the
// reference's SDK gives it, keeping the text streamed before it.
func TestStreamErrorChunk(t *testing.T) {
	t.Parallel()
	const first = "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n"
	cases := []struct {
		name, sse, want string
	}{
		{"message", `data: {"error":{"message":"Upstream overloaded","code":502}}`, "Upstream overloaded"},
		{"no message", `data: {"error":{"code":502,"type":"server_error"}}`, `{"code":502,"type":"server_error"}`},
		{"string", `data: {"error":"boom"}`, `"boom"`},
		{"metadata raw", `data: {"error":{"message":"Provider returned error","code":429,"metadata":{"raw":"rate limited upstream"}}}`, "Provider returned error\nrate limited upstream"},
		{"error event", "event: error\ndata: {\"message\":\"bad thing\"}", "bad thing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = w.Write([]byte(first + c.sse + "\n\n" +
					"data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"))
			}))
			defer srv.Close()
			req := &engine.LLMRequest{Model: model(srv.URL), SystemPrompt: "sys", APIKey: "k",
				Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent("hi"))}}}
			events, msg := run(context.Background(), t, req, nil)
			assert.Equal(t, engine.StopError, msg.StopReason)
			assert.Equal(t, c.want, msg.ErrorMessage)
			assert.Equal(t, `{"type":"error","reason":"error"}`, events[len(events)-1])
			assert.Equal(t, "Hel", msg.Content.Text())
		})
	}
}
