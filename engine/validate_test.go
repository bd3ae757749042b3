package engine

import (
	"encoding/json"
	"testing"
)

func TestValidateToolArgs(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{"type":"object","required":["path"],"properties":{"path":{"type":"string"},"offset":{"type":"number"},"tags":{"type":"array","items":{"type":"string"}},"flag":{"type":"boolean"}}}`)
	cases := []struct{ args, want, err string }{
		{`{"path":"a","offset":"42"}`, `{"path":"a","offset":42}`, ""},
		{`{"path":"a","tags":"x"}`, `{"path":"a","tags":["x"]}`, ""},
		{`{"path":"a","offset":null}`, `{"path":"a"}`, ""},
		{`{"path":"a","flag":"true"}`, `{"path":"a","flag":true}`, ""},
		{`{"path":7}`, `{"path":"7"}`, ""},
		{`{}`, "", "Validation failed for tool \"read\":\n  - path: missing\n\nReceived arguments:\n{}"},
		{`{"path":"a","offset":"x"}`, "", "Validation failed for tool \"read\":\n  - offset: expected number, got string\n\nReceived arguments:\n{\n  \"path\": \"a\",\n  \"offset\": \"x\"\n}"},
	}
	for _, tc := range cases {
		got, err := ValidateToolArgs("read", schema, json.RawMessage(tc.args))
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: err %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: got %s %v, want %s", tc.args, got, err, tc.want)
		}
	}
}

func TestRetryClassification(t *testing.T) {
	t.Parallel()
	cases := []struct {
		msg       string
		retryable bool
		overflow  bool
	}{
		{`529: {"message":"Overloaded","type":"overloaded_error"}`, true, false},
		{`503: {"message":"Service temporarily unavailable","type":"server_error"}`, true, false},
		{`400: {"message":"bad request"}`, false, false},
		{`429: insufficient_quota`, false, false},
		{`request id 15003`, false, false},
		{`read ECONNRESET`, true, false},
		{`prompt is too long: 213462 tokens > 200000 maximum`, false, true},
		{`429 rate limit: too many tokens`, true, false},
	}
	for _, tc := range cases {
		m := &Message{Role: RoleAssistant, StopReason: StopError, ErrorMessage: tc.msg}
		if got := IsRetryableError(m); got != tc.retryable {
			t.Errorf("%q retryable=%v", tc.msg, got)
		}
		if got := IsContextOverflow(m, 0); got != tc.overflow {
			t.Errorf("%q overflow=%v", tc.msg, got)
		}
	}
	if RetryDelayMs(2000, 60000, 3) != 8000 || RetryDelayMs(2000, 5000, 3) != 5000 {
		t.Error("retry delay")
	}
	if got := ClampMaxTokens(&Model{ContextWindow: 32000}, 100, 4096); got != 4096 {
		t.Errorf("clamp = %d", got)
	}
}

// TestValidateToolArgsBooleanRoot covers a tool whose whole parameter
// schema is a boolean, which the golden corpus leaves out: the reference
// fails there with a JavaScript TypeError ("Invalid value used as weak map
// key", its validator cache wants an object), while we treat the schema as
// JSON Schema defines it.
func TestValidateToolArgsBooleanRoot(t *testing.T) {
	t.Parallel()
	if got, err := ValidateToolArgs("t", json.RawMessage(`true`), json.RawMessage(`{"a":1}`)); err != nil || string(got) != `{"a":1}` {
		t.Errorf("true schema: %s, %v", got, err)
	}
	want := "Validation failed for tool \"t\":\n  - root: no value is allowed here\n\nReceived arguments:\n{\n  \"a\": 1\n}"
	if _, err := ValidateToolArgs("t", json.RawMessage(`false`), json.RawMessage(`{"a":1}`)); err == nil || err.Error() != want {
		t.Errorf("false schema: %v", err)
	}
}
