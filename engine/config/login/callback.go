package login

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
)

// callbackServer is the local HTTP listener a browser sign-in redirects
// to. It accepts one GET of its path carrying the expected state and a
// code, and answers everything else with an error page.
type callbackServer struct {
	provider    string
	path, state string
	srv         *http.Server
	redirectURI string

	// check, when set, vets a callback's query beyond the code (an
	// error is shown on the page and the callback is not taken).
	check func(q url.Values) error

	mu      sync.Mutex
	claimed bool
	query   url.Values
	done    chan struct{}
	code    string
	err     error
}

// startCallback listens on host:port (port 0: any free port) and returns
// the server, whose redirect URI names redirectHost.
func startCallback(provider, host string, port int, path, redirectHost, state string) (*callbackServer, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	c := &callbackServer{provider: provider, path: path, state: state, done: make(chan struct{})}
	c.redirectURI = fmt.Sprintf("http://%s:%d%s", redirectHost, ln.Addr().(*net.TCPAddr).Port, path)
	c.srv = &http.Server{Handler: http.HandlerFunc(c.serve)}
	go func() { _ = c.srv.Serve(ln) }()
	return c, nil
}

func page(w http.ResponseWriter, status int, title, detail string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	body := "<!doctype html><html><head><meta charset=\"utf-8\"><title>pi</title></head><body><h1>" + html.EscapeString(title) + "</h1>"
	if detail != "" {
		body += "<p>" + html.EscapeString(detail) + "</p>"
	}
	_, _ = w.Write([]byte(body + "</body></html>"))
}

func (c *callbackServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != c.path {
		page(w, http.StatusNotFound, "Callback route not found.", "")
		return
	}
	q := r.URL.Query()
	if c.state != "" && q.Get("state") != c.state {
		page(w, http.StatusBadRequest, "State mismatch.", "")
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.claimed {
		page(w, http.StatusConflict, "This sign-in has already been handled.", "")
		return
	}
	if e := q.Get("error"); e != "" {
		desc := q.Get("error_description")
		if desc == "" {
			desc = e
		}
		page(w, http.StatusBadRequest, c.provider+" authorization failed.", desc)
		c.finish("", fmt.Errorf("%s authorization failed: %s", c.provider, desc))
		return
	}
	code := q.Get("code")
	if code == "" {
		page(w, http.StatusBadRequest, "Missing authorization code.", "")
		return
	}
	if c.check != nil {
		if err := c.check(q); err != nil {
			page(w, http.StatusBadRequest, err.Error(), "")
			return
		}
	}
	c.query = q
	page(w, http.StatusOK, "Signed in to "+c.provider+". You may now close this page.", "")
	c.finish(code, nil)
}

// finish records the outcome once; c.mu is held.
func (c *callbackServer) finish(code string, err error) {
	if c.claimed {
		return
	}
	c.claimed = true
	c.code, c.err = code, err
	close(c.done)
}

func (c *callbackServer) close() {
	c.mu.Lock()
	c.finish("", errors.New("OAuth callback server closed"))
	c.mu.Unlock()
	_ = c.srv.Close()
}

// waitCodeOrPaste waits for the browser's redirect to reach cb (nil: no
// server) or for the user to paste the code or redirect URL, whichever
// comes first; the other is abandoned. fromCallback tells which it was.
func waitCodeOrPaste(ctx context.Context, ui Interaction, cb *callbackServer, p Prompt) (value string, fromCallback bool, err error) {
	askCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		s   string
		err error
	}
	pasted := make(chan answer, 1)
	go func() {
		s, err := ui.Ask(askCtx, p)
		pasted <- answer{s, err}
	}()
	var done <-chan struct{}
	if cb != nil {
		done = cb.done
	}
	select {
	case <-ctx.Done():
		return "", false, ErrCancelled
	case <-done:
		cb.mu.Lock()
		code, cerr := cb.code, cb.err
		cb.mu.Unlock()
		return code, true, cerr
	case a := <-pasted:
		return a.s, false, a.err
	}
}
