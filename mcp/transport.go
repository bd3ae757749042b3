package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// stdioTransport starts a stdio server in its own process group, so that
// stopping it also stops what a wrapper (npx, uvx) started: the SDK's
// transport closes stdin, then signals the process; the group gets a
// SIGKILL after that.
type stdioTransport struct {
	cmd    *exec.Cmd
	stderr *tailBuffer
}

func newStdioTransport(ctx context.Context, s *Server, cwd string) (*stdioTransport, error) {
	env := os.Environ()
	for _, kv := range s.Env {
		v, err := expandValue(kv[1], `MCP server "`+s.Name+`" env "`+kv[0]+`"`)
		if err != nil {
			return nil, err
		}
		env = append(env, kv[0]+"="+v)
	}
	args := make([]string, len(s.Args))
	for i, a := range s.Args {
		args[i] = expandHome(a)
	}
	cmd := exec.Command(expandHome(s.Command), args...)
	cmd.Env = env
	dir := cwd
	if s.Cwd != "" {
		dir = expandHome(s.Cwd)
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir)
		}
	}
	cmd.Dir = dir
	cmd.SysProcAttr = groupAttr()
	// A wrapper's children may hold stderr open after the server exited;
	// Wait then gives up on them soon (the group is killed after it).
	cmd.WaitDelay = 200 * time.Millisecond
	tail := &tailBuffer{max: 8 << 10}
	cmd.Stderr = tail
	return &stdioTransport{cmd: cmd, stderr: tail}, nil
}

func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	inner := &sdk.CommandTransport{Command: t.cmd, TerminateDuration: 2 * time.Second}
	c, err := inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &groupConn{Connection: c, cmd: t.cmd}, nil
}

// groupConn kills the server's process group once the SDK has stopped
// the server itself.
type groupConn struct {
	sdk.Connection
	cmd  *exec.Cmd
	once sync.Once
}

func (c *groupConn) Close() error {
	err := c.Connection.Close()
	c.once.Do(func() {
		if p := c.cmd.Process; p != nil {
			killGroup(p.Pid)
		}
	})
	return err
}

// headerTransport adds the configured headers to every request and
// notes a 401, which means the server wants a sign-in.
type headerTransport struct {
	base         http.RoundTripper
	headers      [][2]string
	unauthorized atomic.Bool
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for _, kv := range t.headers {
		r.Header.Set(kv[0], kv[1])
	}
	resp, err := t.base.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		t.unauthorized.Store(true)
	}
	return resp, err
}

func newHTTPTransport(ctx context.Context, s *Server) (*sdk.StreamableClientTransport, *headerTransport, error) {
	var headers [][2]string
	for _, kv := range s.Headers {
		v, err := expandValue(kv[1], `MCP server "`+s.Name+`" header "`+kv[0]+`"`)
		if err != nil {
			return nil, nil, err
		}
		headers = append(headers, [2]string{kv[0], v})
	}
	ht := &headerTransport{base: http.DefaultTransport, headers: headers}
	client := &http.Client{Transport: ht}
	// Transient failures are retried twice, as the reference does.
	return &sdk.StreamableClientTransport{Endpoint: s.URL, HTTPClient: client, MaxRetries: 2, DisableStandaloneSSE: true}, ht, nil
}

// tailBuffer keeps the last max bytes a stdio server wrote to stderr,
// for the error shown when it fails.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// rawKey is the context key of a rawSlot.
type rawKey struct{}

// rawSlot receives the raw JSON result of the request made with its
// context: the SDK decodes results into Go maps, which lose the key order
// that tool schemas and structured results must keep on the wire.
type rawSlot struct {
	mu   sync.Mutex
	raws []json.RawMessage
}

func withRawSlot(ctx context.Context) (context.Context, *rawSlot) {
	s := &rawSlot{}
	return context.WithValue(ctx, rawKey{}, s), s
}

func (s *rawSlot) all() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raws
}

// captureTransport wraps a transport so that results of requests made
// with a rawSlot context reach that slot.
type captureTransport struct{ inner sdk.Transport }

func (t captureTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &captureConn{Connection: c, pending: map[any]*rawSlot{}}, nil
}

type captureConn struct {
	sdk.Connection
	mu      sync.Mutex
	pending map[any]*rawSlot
}

func (c *captureConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		if slot, ok := ctx.Value(rawKey{}).(*rawSlot); ok {
			c.mu.Lock()
			c.pending[req.ID.Raw()] = slot
			c.mu.Unlock()
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *captureConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.mu.Lock()
		slot := c.pending[resp.ID.Raw()]
		delete(c.pending, resp.ID.Raw())
		c.mu.Unlock()
		if slot != nil && resp.Error == nil {
			slot.mu.Lock()
			slot.raws = append(slot.raws, append(json.RawMessage(nil), resp.Result...))
			slot.mu.Unlock()
		}
	}
	return msg, err
}
