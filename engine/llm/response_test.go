package llm

import (
	"net/http"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
)

func TestNotifyResponseHeaders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		res  *http.Response
		want map[string]string
	}{
		{"chunked body lists transfer-encoding", &http.Response{StatusCode: 200,
			Header:           http.Header{"Content-Type": {"text/event-stream"}, "X-Multi": {"a", "b"}},
			TransferEncoding: []string{"chunked"}},
			map[string]string{"content-type": "text/event-stream", "x-multi": "a, b", "transfer-encoding": "chunked"}},
		{"sized body has none", &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"3"}}},
			map[string]string{"retry-after": "3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got map[string]string
			var status int
			req := &engine.LLMRequest{OnResponse: func(s int, h map[string]string) { status, got = s, h }}
			NotifyResponse(req, tt.res)
			assert.Equal(t, tt.res.StatusCode, status)
			assert.Equal(t, tt.want, got)
		})
	}
}
