package oahttp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/openai/openai-go/v3/option"
)

func TestPost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		status   int
		wantErr  bool
		wantBody string
	}{
		{name: "stream handed over unread", status: 200, wantBody: "data: x\n\n"},
		{name: "error status keeps the body readable", status: 429, wantErr: true, wantBody: `{"error":{"message":"slow down"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
					t.Errorf("request %s %s, want POST /v1/chat/completions", r.Method, r.URL.Path)
				}
				if got := r.Header.Get("Authorization"); got != "Bearer k" {
					t.Errorf("Authorization = %q", got)
				}
				if got := r.Header.Get("X-Extra"); got != "1" {
					t.Errorf("X-Extra = %q", got)
				}
				if string(body) != `{"a":1}` {
					t.Errorf("body = %s", body)
				}
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.wantBody)
			}))
			defer srv.Close()
			res, err := Post(context.Background(), srv.URL+"/v1/", "chat/completions",
				option.WithAPIKey("k"), option.WithMaxRetries(0), option.WithHeader("X-Extra", "1"),
				option.WithRequestBody("application/json", []byte(`{"a":1}`)))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if res == nil || res.StatusCode != tt.status {
				t.Fatalf("response = %v, want status %d", res, tt.status)
			}
			got, _ := io.ReadAll(res.Body)
			_ = res.Body.Close()
			if string(got) != tt.wantBody {
				t.Errorf("body = %q, want %q", got, tt.wantBody)
			}
		})
	}
}
