package engine

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// closingHooks plays an extension command: "/ask" sends a user message
// without awaiting it, "/note" sends a custom message that triggers a
// turn; both then settle. Every text the input hook sees is logged.
type closingHooks struct {
	NopHooks
	s *Session

	mu   sync.Mutex
	seen []string
}

func (h *closingHooks) Input(ctx context.Context, text string, _ []Content, _ string, _ string) (InputResult, error) {
	h.mu.Lock()
	h.seen = append(h.seen, text)
	h.mu.Unlock()
	switch text {
	case "/ask":
		h.s.PromptAsync(context.Background(), "later", nil, PromptOptions{Source: "extension"}, nil)
	case "/note":
		on := true
		if err := h.s.SendCustom(&Message{Role: RoleCustom, CustomType: "note", Content: StringContents("n"), Display: true}, "", &on); err != nil {
			return InputResult{}, err
		}
	default:
		return InputResult{Action: InputContinue}, nil
	}
	InputSettled(ctx)
	return InputResult{Action: InputHandled}, nil
}

func (h *closingHooks) texts() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.seen, ",")
}

func TestFinalPromptClosesSession(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		prompt   string
		final    bool
		seen     string
		requests int
		roles    string // roles of the recorded messages, system prompt left out
		printed  int    // messages print mode reports on
	}{
		{name: "unawaited send dropped", prompt: "/ask", final: true, seen: "/ask,later", requests: 0, roles: "", printed: 0},
		{name: "unawaited send runs when not final", prompt: "/ask", final: false, seen: "/ask,later", requests: 1, roles: "user,assistant", printed: 3},
		{name: "triggered turn aborted before its request", prompt: "/note", final: true, seen: "/note", requests: 0, roles: "custom,assistant", printed: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			hooks := &closingHooks{}
			h := newHarness(t, &scripted{steps: []step{{text: "ok"}}}, nil, func(o *SessionOptions) { o.Hooks = hooks })
			hooks.s = h.s
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if _, err := h.s.Prompt(ctx, tc.prompt, nil, PromptOptions{Final: tc.final}); err != nil {
				t.Fatal(err)
			}
			if !tc.final {
				// Without print mode's closing the send goes on: wait for
				// its run before finishing.
				for deadline := time.Now().Add(5 * time.Second); len(h.p.requests()) == 0 && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
				if err := h.s.WaitIdle(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if err := h.s.Finish(ctx); err != nil {
				t.Fatal(err)
			}
			printed := len(h.s.PrintedMessages())
			if got := hooks.texts(); got != tc.seen {
				t.Errorf("input saw %q, want %q", got, tc.seen)
			}
			if got := len(h.p.requests()); got != tc.requests {
				t.Errorf("requests = %d, want %d", got, tc.requests)
			}
			var roles []string
			var last *Message
			for _, m := range h.s.Messages() {
				if m.Role != RoleSystem {
					roles = append(roles, string(m.Role))
					last = m
				}
			}
			if got := strings.Join(roles, ","); got != tc.roles {
				t.Errorf("messages %q, want %q", got, tc.roles)
			}
			if printed != tc.printed {
				t.Errorf("printed messages = %d, want %d", printed, tc.printed)
			}
			if tc.prompt == "/note" {
				b, err := MarshalJSON(last)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(b), `"content":[],`) || !strings.Contains(string(b), `"stopReason":"aborted","errorMessage":"This operation was aborted","timestamp":`) {
					t.Errorf("aborted reply %s", b)
				}
			}
		})
	}
}

// requests returns the requests the provider received so far.
func (p *scripted) requests() []*LLMRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*LLMRequest(nil), p.reqs...)
}
