package pi

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/pi/engine"
)

// TestWithOpenCodeSession checks when x-opencode-session is added and
// where it sits, as pi 1.6.0 handed it to before_provider_headers (first,
// then the credentials' headers, then models.json's).
func TestWithOpenCodeSession(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		provider  string
		baseURL   string
		session   string
		headers   map[string]string
		order     []string
		wantHdrs  map[string]string
		wantOrder []string
	}{
		{name: "other provider", provider: "openai", session: "s1", headers: map[string]string{"X-A": "1"},
			wantHdrs: map[string]string{"X-A": "1"}},
		{name: "no session id", provider: "opencode", wantHdrs: nil},
		{name: "opencode", provider: "opencode", session: "s1", headers: map[string]string{"X-B": "1", "X-A": "2", "Authorization": "Bearer k"},
			order:     []string{"X-B", "X-A"},
			wantHdrs:  map[string]string{"x-opencode-session": "s1", "X-B": "1", "X-A": "2", "Authorization": "Bearer k"},
			wantOrder: []string{"x-opencode-session", "Authorization", "X-B", "X-A"}},
		{name: "opencode-go", provider: "opencode-go", session: "s2",
			wantHdrs: map[string]string{"x-opencode-session": "s2"}, wantOrder: []string{"x-opencode-session"}},
		{name: "opencode.ai host", provider: "mine", baseURL: "https://opencode.ai/zen/v1", session: "s3",
			wantHdrs: map[string]string{"x-opencode-session": "s3"}, wantOrder: []string{"x-opencode-session"}},
		{name: "a configured value wins", provider: "opencode", session: "s4", headers: map[string]string{"x-opencode-session": "mine"},
			order:    []string{"x-opencode-session"},
			wantHdrs: map[string]string{"x-opencode-session": "mine"}, wantOrder: []string{"x-opencode-session"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req := &engine.LLMRequest{
				Model:     &engine.Model{ID: "m", Provider: tt.provider, BaseURL: tt.baseURL},
				SessionID: tt.session, Headers: tt.headers, HeaderOrder: tt.order,
			}
			got := withOpenCodeSession(req)
			assert.Equal(t, tt.wantHdrs, got.Headers)
			if tt.wantOrder != nil {
				assert.Equal(t, tt.wantOrder, got.HeaderOrder)
			}
			assert.Equal(t, tt.headers, req.Headers, "the caller's request is not changed")
		})
	}
}
