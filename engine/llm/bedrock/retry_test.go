package bedrock

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/pi/engine"
)

// TestSDKRetries: like the AWS SDK under the reference, a throttled or
// transiently failing attempt is sent again (three attempts at most, one
// invocation id, the attempt counted in amz-sdk-request) before the
// agent sees an error; a client error is not.
func TestSDKRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		failures []int // statuses of the attempts before a success
		errType  string
		wantReqs int
		wantOK   bool
	}{
		{"throttled then ok", []int{429}, "ThrottlingException", 2, true},
		{"503 twice then ok", []int{503, 503}, "ServiceUnavailableException", 3, true},
		{"500 three times", []int{500, 500, 500}, "InternalServerException", 3, false},
		{"400 is final", []int{400}, "ValidationException", 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var attempts, ids []string
			ok := okStream(t)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.ReadAll(r.Body)
				mu.Lock()
				n := len(attempts)
				attempts = append(attempts, r.Header.Get("amz-sdk-request"))
				ids = append(ids, r.Header.Get("amz-sdk-invocation-id"))
				mu.Unlock()
				if n < len(tc.failures) {
					w.Header().Set("x-amzn-errortype", tc.errType+":http://internal.amazon.com/coral/com.amazon.bedrock/")
					w.WriteHeader(tc.failures[n])
					_, _ = io.WriteString(w, `{"message":"try later"}`)
					return
				}
				_, _ = w.Write(ok)
			}))
			t.Cleanup(srv.Close)
			p := testProvider(t, map[string]string{"AWS_BEARER_TOKEN_BEDROCK": "tok"})
			var waits []time.Duration
			p.sleep = func(_ context.Context, d time.Duration) error {
				mu.Lock()
				waits = append(waits, d)
				mu.Unlock()
				return nil
			}
			_, msg := run(t, p, &engine.LLMRequest{Model: claudeModel(srv.URL), Messages: []*engine.Message{user("hi")}})
			mu.Lock()
			defer mu.Unlock()
			assert.Len(t, attempts, tc.wantReqs)
			for i, a := range attempts {
				assert.Equal(t, "attempt="+string(rune('1'+i))+"; max=3", a)
				assert.Equal(t, ids[0], ids[i], "one invocation id")
			}
			assert.Len(t, waits, tc.wantReqs-1)
			for _, d := range waits {
				assert.LessOrEqual(t, d, 20*time.Second)
			}
			if tc.wantOK {
				assert.Equal(t, engine.StopStop, msg.StopReason, msg.ErrorMessage)
			} else {
				assert.Equal(t, engine.StopError, msg.StopReason)
				assert.True(t, strings.Contains(msg.ErrorMessage, "try later"), msg.ErrorMessage)
			}
		})
	}
}
