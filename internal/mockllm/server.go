package mockllm

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Request is one logged request, in the Python mock's log-record shape.
type Request struct {
	Seq     int               `json:"seq"`
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	API     string            `json:"api,omitempty"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
	Turn    *int              `json:"turn"`
	Kind    string            `json:"kind"`
}

// Server is a running mock. Its methods are safe for concurrent use.
type Server struct {
	srv      *http.Server
	ln       net.Listener
	url      string
	stopping chan struct{}
	wg       sync.WaitGroup

	mu       sync.Mutex
	turns    []Turn
	next     int
	fallback string
	log      []Request
	closed   bool
}

// Start serves script on 127.0.0.1 at a free port. t may be nil; when it
// is not, the server is closed at the end of the test and a listen failure
// fails the test (without t it panics, as there is nothing to report to).
func Start(t testing.TB, script Script) *Server {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		if t != nil {
			t.Fatalf("mockllm: listen: %v", err)
		}
		panic("mockllm: listen: " + err.Error())
	}
	fb := script.FallbackText
	if fb == "" {
		fb = DefaultFallbackText
	}
	s := &Server{ln: ln, turns: append([]Turn(nil), script.Turns...), fallback: fb, stopping: make(chan struct{})}
	s.url = "http://" + ln.Addr().String()
	s.srv = &http.Server{Handler: http.HandlerFunc(s.handle), ReadHeaderTimeout: 30 * time.Second}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = s.srv.Serve(ln)
	}()
	if t != nil {
		t.Cleanup(s.Close)
	}
	return s
}

// StartJSON parses a script in the Python mock's JSON shape and starts a
// server for it.
func StartJSON(t testing.TB, script []byte) (*Server, error) {
	sc, err := ParseScript(script)
	if err != nil {
		return nil, err
	}
	return Start(t, sc), nil
}

// URL is the OpenAI-style base URL, with /v1 (for models.json baseUrl of
// an openai-completions provider).
func (s *Server) URL() string { return s.url + "/v1" }

// BaseURL is the server root without /v1 (for anthropic-messages, whose
// baseUrl does not include /v1).
func (s *Server) BaseURL() string { return s.url }

// Requests returns a copy of every request logged so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// Close stops the server, waking hanging or sleeping handlers.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.stopping)
	s.mu.Unlock()
	_ = s.srv.Close()
	s.wg.Wait()
}

func (s *Server) logLocked(r Request) {
	r.Seq = len(s.log) + 1
	s.log = append(s.log, r)
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.logLocked(r)
}

// take consumes the next turn and logs the request that consumed it, in
// one step, so the log order is the turn order.
func (s *Server) take(r Request) (*int, Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var idx *int
	var t Turn
	if s.next < len(s.turns) {
		i := s.next
		s.next++
		idx, t = &i, s.turns[i]
	} else {
		t = Turn{Text: s.fallback, keys: map[string]bool{"text": true}}
	}
	r.Turn, r.Kind = idx, t.Kind()
	s.logLocked(r)
	return idx, t
}

func headerMap(h http.Header) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	return out
}

// sleep waits ms milliseconds; false means the server or the client went
// away first.
func (s *Server) sleep(r *http.Request, ms int) bool {
	if ms <= 0 {
		select {
		case <-s.stopping:
			return false
		default:
			return true
		}
	}
	tm := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-s.stopping:
		return false
	case <-r.Context().Done():
		return false
	}
}

// drop cuts the connection without finishing the response.
// Everything streamed so far was flushed already; flushing here would send
// headers for a request that must get no response at all.
func drop(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			if tc, ok := conn.(*net.TCPConn); ok {
				_ = tc.SetLinger(0)
			}
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

func writeJSON(w http.ResponseWriter, status int, body []byte, headers map[string]string) {
	w.Header().Set("Content-Type", "application/json")
	for k, v := range headers {
		w.Header().Set(k, v)
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	bodyBytes, _ := io.ReadAll(r.Body)
	var body json.RawMessage
	if len(bytes.TrimSpace(bodyBytes)) > 0 {
		if json.Valid(bodyBytes) {
			body = json.RawMessage(bodyBytes)
		} else {
			b, _ := json.Marshal(map[string]string{"_unparsed": string(bodyBytes)})
			body = b
		}
	}
	rec := Request{Method: r.Method, Path: r.URL.RequestURI(), Headers: headerMap(r.Header), Body: body}
	if r.Method != http.MethodPost {
		rec.Kind = "get"
		s.record(rec)
		if strings.HasSuffix(strings.TrimRight(r.URL.Path, "/"), "/models") {
			writeJSON(w, 200, []byte(`{"object": "list", "data": [{"id": "mock-model", "object": "model"}]}`), nil)
		} else {
			writeJSON(w, 404, []byte(`{"error": {"message": "not found"}}`), nil)
		}
		return
	}
	path := strings.TrimRight(r.URL.Path, "/")
	var api string
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		api = "openai"
	case strings.HasSuffix(path, "/messages"):
		api = "anthropic"
	default:
		rec.Kind = "unknown_path"
		s.record(rec)
		writeJSON(w, 404, pyDumps(obj{{"error", obj{{"message", "unknown path " + rec.Path}}}}, true), nil)
		return
	}
	rec.API = api
	idx, turn := s.take(rec)
	var req struct {
		Model         string `json:"model"`
		Stream        bool   `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	_ = json.Unmarshal(body, &req)
	model := req.Model
	if model == "" {
		model = "mock-model"
	}
	kind := turn.Kind()
	if kind == "fault" {
		if !s.sleep(r, turn.DelayMs) {
			drop(w)
			return
		}
		writeJSON(w, turn.Status, faultBody(turn.Status, api, turn.Body), turn.Headers)
		return
	}
	if turn.has("hang_ms") {
		if !s.sleep(r, turn.HangMs) || kind == "hang" {
			drop(w)
			return
		}
	}
	var events [][]byte
	if api == "openai" {
		events = openAIEvents(&turn, idx, model, req.StreamOptions.IncludeUsage)
	} else {
		events = anthropicEvents(&turn, idx, model)
	}
	if !req.Stream {
		if kind == "disconnect" {
			drop(w)
			return
		}
		if api == "openai" {
			writeJSON(w, 200, openAIWhole(&turn, idx, model), nil)
		} else {
			writeJSON(w, 200, anthropicWhole(&turn, idx, model), nil)
		}
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	flusher, _ := w.(http.Flusher)
	for n, chunk := range events {
		if turn.DisconnectAfterChunks != nil && n >= *turn.DisconnectAfterChunks {
			drop(w)
			return
		}
		if n > 0 && turn.DelayMs > 0 && !s.sleep(r, turn.DelayMs) {
			drop(w)
			return
		}
		if _, err := w.Write(chunk); err != nil {
			s.record(Request{Method: "POST", Path: rec.Path, Headers: map[string]string{}, Turn: idx, Kind: "client_disconnected"})
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		// A client that hangs up after the last chunk has read the whole
		// stream (a fast client exits at once); only an earlier hang-up is
		// a disconnect.
		if n < len(events)-1 && r.Context().Err() != nil {
			s.record(Request{Method: "POST", Path: rec.Path, Headers: map[string]string{}, Turn: idx, Kind: "client_disconnected"})
			return
		}
	}
}
