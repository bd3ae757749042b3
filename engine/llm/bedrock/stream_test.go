package bedrock

import (
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/pi-go/pi/engine"
)

func TestStreamParse(t *testing.T) {
	t.Parallel()
	start := ev("messageStart", `{"p":"abc","role":"assistant"}`)
	usage := ev("metadata", `{"usage":{"inputTokens":10,"outputTokens":5,"totalTokens":15,"cacheReadInputTokens":3,"cacheWriteInputTokens":2},"metrics":{"latencyMs":100}}`)
	redacted := base64.StdEncoding.EncodeToString([]byte("opaque-1"))
	redacted2 := base64.StdEncoding.EncodeToString([]byte("opaque-2"))
	tests := []struct {
		name   string
		frames []frame
	}{
		{"text", []frame{start,
			ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Hello"}}`),
			ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":" world"}}`),
			ev("contentBlockStop", `{"contentBlockIndex":0}`),
			ev("messageStop", `{"stopReason":"end_turn"}`), usage}},
		{"thinking_tool", []frame{start,
			ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"think"}}}`),
			ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"sig"}}}`),
			ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"1"}}}`),
			ev("contentBlockStop", `{"contentBlockIndex":0}`),
			ev("contentBlockStart", `{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"tooluse_1","name":"read"}}}`),
			ev("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"{\"pa"}}}`),
			ev("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"th\": \"f.txt\"}"}}}`),
			ev("contentBlockStop", `{"contentBlockIndex":1}`),
			ev("messageStop", `{"stopReason":"tool_use"}`),
			ev("metadata", `{"usage":{"inputTokens":10,"outputTokens":5,"totalTokens":15}}`)}},
		{"redacted_unstopped", []frame{start,
			ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"redactedContent":"`+redacted+`"}}}`),
			ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"redactedContent":"`+redacted2+`"}}}`),
			ev("messageStop", `{"stopReason":"max_tokens"}`),
			ev("metadata", `{"usage":{"inputTokens":1,"outputTokens":2,"cacheDetails":[{"ttl":"1h","inputTokens":4},{"ttl":"5m","inputTokens":1}],"cacheWriteInputTokens":5}}`)}},
		{"context_window", []frame{start, ev("messageStop", `{"stopReason":"model_context_window_exceeded"}`)}},
		{"stop_sequence", []frame{start, ev("messageStop", `{"stopReason":"stop_sequence"}`)}},
		{"guardrail", []frame{start, ev("messageStop", `{"stopReason":"guardrail_intervened"}`)}},
		{"no_stop", []frame{start, ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Hel"}}`)}},
		{"throttled", []frame{start, ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Hel"}}`),
			exc("throttlingException", "Too many requests, please wait")}},
		{"internal", []frame{start, exc("internalServerException", "boom")}},
		{"model_stream_error", []frame{exc("modelStreamErrorException", "bad stream")}},
		{"service_unavailable", []frame{start, exc("serviceUnavailableException", "later")}},
		{"user_start", []frame{ev("messageStart", `{"role":"user"}`)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, http.StatusOK, nil, encodeFrames(t, tc.frames))
			p := testProvider(t, map[string]string{"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "x", "AWS_REGION": "us-east-1"})
			req := &engine.LLMRequest{Model: claudeModel(srv.URL), Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.StringContents("hi")}}}
			types, msg := run(t, p, req)
			golden(t, "stream/"+tc.name+".txt", []byte(joinTypes(types)+"\n"+messageJSON(t, msg)+"\n"))
		})
	}
}

func TestHTTPErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		header map[string]string
		body   string
		want   string
		diag   string
	}{
		{"unrecognized_client", 403, map[string]string{"x-amzn-errortype": "UnrecognizedClientException:http://internal.amazon.com/coral/com.amazon.coral.service/"},
			`{"message":"The security token included in the request is invalid."}`,
			"UnrecognizedClientException: The security token included in the request is invalid.",
			`"details":{"status":403,"errorCode":"UnrecognizedClientException","requestId":"req-1"}`},
		{"validation", 400, map[string]string{"x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/"},
			`{"message":"The model returned the following errors: messages.0: bad"}`,
			"Validation error: The model returned the following errors: messages.0: bad",
			`"details":{"status":400,"errorCode":"ValidationException","requestId":"req-1"}`},
		{"throttling_type_in_body", 429, nil, `{"__type":"com.amazon.bedrock#ThrottlingException","message":"Too many tokens"}`,
			"Throttling error: Too many tokens", `"errorCode":"ThrottlingException"`},
		{"data_retention", 400, map[string]string{"x-amzn-errortype": "ValidationException"},
			`{"message":"data retention mode 'default' is not available for this model"}`,
			"Validation error: data retention mode 'default' is not available for this model See https://docs.aws.amazon.com/bedrock/latest/userguide/data-retention.html for supported data retention modes.", ""},
		{"gateway", 502, nil, `{"Message":"gateway says no"}`, "Unknown: gateway says no", `"details":{"status":502,"requestId":"req-1"}`},
		{"not_json", 500, map[string]string{"content-type": "text/html"}, `<html>oops</html>`, "500: <html>oops</html>", `"status":500`},
		{"empty", 503, nil, ``, "Unknown: UnknownError", `"status":503`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, tc.status, tc.header, []byte(tc.body))
			p := testProvider(t, map[string]string{"AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "x"})
			req := &engine.LLMRequest{Model: claudeModel(srv.URL), Messages: []*engine.Message{{Role: engine.RoleUser, Content: engine.StringContents("hi")}}}
			types, msg := run(t, p, req)
			if joinTypes(types) != "error" || msg.StopReason != engine.StopError {
				t.Fatalf("events %v, stop %s", types, msg.StopReason)
			}
			if msg.ErrorMessage != tc.want {
				t.Errorf("errorMessage\n got: %q\nwant: %q", msg.ErrorMessage, tc.want)
			}
			if tc.diag != "" && !contains(string(msg.Diagnostics), tc.diag) {
				t.Errorf("diagnostics %s lack %s", msg.Diagnostics, tc.diag)
			}
		})
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
