package llm

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestIdleTransport checks the httpIdleTimeoutMs semantics: silence
// before the headers or between two body chunks fails the request with
// Node's error, a slow stream whose gaps stay under the timeout is
// read whole however long it lasts, and 0 disables the timeout.
func TestIdleTransport(t *testing.T) {
	t.Parallel()
	const idle = 150 * time.Millisecond
	cases := []struct {
		name    string
		timeout time.Duration
		handler func(w http.ResponseWriter, r *http.Request)
		doErr   error
		body    string
		readErr error
	}{
		{"headers stall", idle, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, ErrHeadersTimeout, "", nil},
		{"body stall", idle, func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, "data: one\n\n")
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, nil, "data: one\n\n", ErrBodyTimeout},
		{"slow but steady", idle, func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i < 5; i++ {
				_, _ = io.WriteString(w, "x")
				w.(http.Flusher).Flush()
				time.Sleep(idle / 3)
			}
		}, nil, "xxxxx", nil},
		{"disabled", 0, func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(2 * idle)
			_, _ = io.WriteString(w, "late")
		}, nil, "late", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(tc.handler))
			defer srv.Close()
			c := &http.Client{Transport: idleTransport{next: http.DefaultTransport, timeout: func() time.Duration { return tc.timeout }}}
			resp, err := c.Get(srv.URL)
			if !errors.Is(err, tc.doErr) || (err == nil) != (tc.doErr == nil) {
				t.Fatalf("Get: %v, want %v", err, tc.doErr)
			}
			if err != nil {
				return
			}
			defer resp.Body.Close()
			data, err := io.ReadAll(resp.Body)
			if string(data) != tc.body {
				t.Errorf("body %q, want %q", data, tc.body)
			}
			if (err == nil) != (tc.readErr == nil) || !errors.Is(err, tc.readErr) {
				t.Errorf("read: %v, want %v", err, tc.readErr)
			}
		})
	}
}

// TestHTTPIdleTimeoutSetting checks the default, a set value and 0 as
// disabled.
func TestHTTPIdleTimeoutSetting(t *testing.T) {
	if got := HTTPIdleTimeout(); got != DefaultHTTPIdleTimeout {
		t.Fatalf("default %v", got)
	}
	defer idleTimeout.Store(0)
	SetHTTPIdleTimeout(60 * time.Second)
	if got := HTTPIdleTimeout(); got != 60*time.Second {
		t.Errorf("set: %v", got)
	}
	SetHTTPIdleTimeout(0)
	if got := HTTPIdleTimeout(); got != 0 {
		t.Errorf("disabled: %v", got)
	}
}
