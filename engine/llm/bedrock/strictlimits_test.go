package bedrock

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
)

// TestStrictToolFallback checks that a request whose strict tools Claude
// rejects for their size is sent once more with the preferred-strict
// tools non-strict, records why, and that later requests of the session
// go non-strict at once.
func TestStrictToolFallback(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var bodies []string
	ok := okStream(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		if strings.Contains(string(b), `"strict":true`) {
			w.Header().Set("x-amzn-errortype", "ValidationException")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"message":"Too many strict tools (25). The maximum number of strict tools supported is 20."}`)
			return
		}
		_, _ = w.Write(ok)
	}))
	t.Cleanup(srv.Close)
	p := testProvider(t, map[string]string{"AWS_BEARER_TOKEN_BEDROCK": "tok"})
	// The fallback is remembered per session for the process, as in the
	// reference: a session id of its own keeps -count=N runs apart.
	sid := fmt.Sprintf("strict-fallback-%d", time.Now().UnixNano())
	req := func() *engine.LLMRequest {
		return &engine.LLMRequest{Model: claudeModel(srv.URL), SessionID: sid, Tools: tools()[:1],
			Messages: []*engine.Message{user("hi")}}
	}
	_, msg := run(t, p, req())
	if msg.StopReason != engine.StopStop {
		t.Fatalf("request failed: %s", msg.ErrorMessage)
	}
	if len(bodies) != 2 || strings.Contains(bodies[1], `"strict"`) {
		t.Fatalf("bodies: %q", bodies)
	}
	d := string(msg.Diagnostics)
	if !strings.Contains(d, `"type":"bedrock_strict_tools_fallback"`) || !strings.Contains(d, `"details":{"reason":"strict_tool_limits_exceeded"}`) ||
		!strings.Contains(d, `"error":{"message":"Too many strict tools (25).`) {
		t.Errorf("diagnostics: %s", d)
	}
	_, msg = run(t, p, req())
	if msg.StopReason != engine.StopStop || len(bodies) != 3 || strings.Contains(bodies[2], `"strict"`) || msg.Diagnostics != nil {
		t.Errorf("second request: %d bodies, %s, diagnostics %s", len(bodies), msg.StopReason, msg.Diagnostics)
	}
}
