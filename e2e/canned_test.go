package e2e_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// cannedServer stands in for a provider's endpoint in the wire-API tests:
// it answers each request with the next canned reply (the last one again
// once they run out) and keeps what it was sent.
type cannedServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []cannedRequest
}

// cannedRequest is one request as the server saw it.
type cannedRequest struct {
	URI         string // path and query
	EscapedPath string
	Header      http.Header
	Body        string
}

// startCanned starts a server answering with replies of one content type.
func startCanned[T string | []byte](t *testing.T, contentType string, replies ...T) *cannedServer {
	t.Helper()
	s := &cannedServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := min(len(s.reqs), len(replies)-1)
		s.reqs = append(s.reqs, cannedRequest{URI: r.URL.RequestURI(), EscapedPath: r.URL.EscapedPath(), Header: r.Header.Clone(), Body: string(b)})
		s.mu.Unlock()
		w.Header().Set("content-type", contentType)
		_, _ = w.Write([]byte(replies[n]))
	}))
	t.Cleanup(s.Close)
	return s
}

// requests returns the requests received so far.
func (s *cannedServer) requests() []cannedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]cannedRequest(nil), s.reqs...)
}
