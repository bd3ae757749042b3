package engine

import "testing"

func TestRedactSecrets(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"401: token rejected: Bearer sk-abc.def_ghi", "401: token rejected: Bearer [redacted]"},
		{"key sk-SECRET-123456 is invalid", "key [redacted] is invalid"},
		{"short key abc is kept", "short key abc is kept"},
		{"no secrets here", "no secrets here"},
		{"", ""},
	}
	for _, c := range cases {
		if got := RedactSecrets(c.in, "sk-SECRET-123456", "abc"); got != c.want {
			t.Errorf("RedactSecrets(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	m := &Model{Headers: map[string]string{"Authorization": "Bearer tok-from-headers-1", "X-Other": "visible-value-1"}}
	got := RedactSecrets("echo tok-from-headers-1 visible-value-1", requestSecrets(&LLMRequest{Model: m})...)
	if got != "echo [redacted] visible-value-1" {
		t.Errorf("header secrets: %q", got)
	}
}
