package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// httpServer is an in-process streamable HTTP MCP server with one tool,
// greet; it records the Authorization header of every request.
func httpServer(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "web", Version: "1"}, &sdk.ServerOptions{Instructions: "Web tools"})
	s.AddTool(&sdk.Tool{Name: "greet", Description: "Greet", InputSchema: json.RawMessage(`{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var a struct{ Who string }
			_ = json.Unmarshal(req.Params.Arguments, &a)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello " + a.Who}}, StructuredContent: json.RawMessage(`{"z":1,"a":2}`)}, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	var mu sync.Mutex
	var auth []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), auth...)
	}
}

func server(t *testing.T, name, entry string) *Server {
	t.Helper()
	v, err := jsonx.Decode([]byte(entry))
	if err != nil {
		t.Fatal(err)
	}
	s, msg := Validate(name, v)
	if msg != "" {
		t.Fatal(msg)
	}
	return s
}

// TestStreamableHTTP connects to an in-process streamable HTTP server
// with a header whose value comes from the environment, calls its tool,
// and checks that the result keeps the server's key order.
func TestStreamableHTTP(t *testing.T) {
	srv, auth := httpServer(t)
	t.Setenv("PI_MCP_TEST_TOKEN", "s3cret")
	s := server(t, "web", `{"url":"`+srv.URL+`","headers":{"Authorization":"Bearer ${PI_MCP_TEST_TOKEN}"},"exposure":"direct"}`)
	c := NewConn(s, t.TempDir(), nil, nil)
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Session(ctx); err != nil {
		t.Fatal(err)
	}
	tools := c.Tools()
	if len(tools) != 1 || tools[0].Name != "greet" || string(tools[0].InputSchema) != `{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}` {
		t.Fatalf("tools %+v", tools)
	}
	if c.Instructions() != "Web tools" {
		t.Errorf("instructions %q", c.Instructions())
	}
	tool := newServerTool(c, tools[0], ToolName("web", "greet", nil), nil)
	res, err := tool.Execute(ctx, engineCall(`{"who":"pi"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	const want = `{"content":[{"type":"text","text":"hello pi"}],"details":{"server":"web","tool":"greet"},"structuredContent":{"content":[{"type":"text","text":"hello pi"}],"structuredContent":{"z":1,"a":2}}}`
	if string(b) != want {
		t.Errorf("result %s\nwant   %s", b, want)
	}
	for _, a := range auth() {
		if a != "Bearer s3cret" {
			t.Errorf("Authorization %q, want the expanded bearer token", a)
		}
	}
}

// TestStdioProcessGroup checks that closing a stdio server stops what it
// started too (a wrapper's children): the whole process group goes.
func TestStdioProcessGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	s := server(t, "wrapped", `{"command":"sh","args":["-c","sleep 300 & echo $! > `+pidFile+`; exec `+testServer+`"]}`)
	c := NewConn(s, dir, nil, nil)
	if _, err := c.Session(context.Background()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the wrapper's child is not running: %v", err)
	}
	c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		// A killed child stays a zombie until its parent (init) reaps it;
		// /proc tells the two apart.
		if st, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat")); err == nil && strings.Contains(string(st), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the wrapper's child survived Close")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestManagerFailures checks a server that cannot start and a config
// error: both are reported once as needing attention, and the other
// server's tools still arrive.
func TestManagerFailures(t *testing.T) {
	t.Parallel()
	agent, cwd := t.TempDir(), t.TempDir()
	writeFile(t, GlobalPath(agent), `{"mcpServers":{"ok":{"command":"`+testServer+`","exposure":"direct"},"dead":{"command":"/nonexistent/x","exposure":"direct"},"bad":{"url":"ftp://x"}}}`)
	m := NewManager(ManagerOptions{AgentDir: agent, Cwd: cwd})
	defer m.Close()
	m.Start(context.Background())
	m.WaitDirect(context.Background())
	var names []string
	for _, tl := range m.DirectTools() {
		names = append(names, tl.Info().Name)
	}
	if strings.Join(names, ",") != "mcp__ok__cwd,mcp__ok__env,mcp__ok__fail,mcp__ok__ping,mcp__ok__slow,list_mcp_resources,list_mcp_resource_templates,read_mcp_resource" {
		t.Errorf("direct tools %v", names)
	}
	p := m.Problems(context.Background())
	for _, want := range []string{"MCP servers need attention:\n", `config: ` + GlobalPath(agent) + `: server "bad": url must be an http or https URL`,
		"dead: failed: spawn /nonexistent/x: no such file or directory", "Run /mcp to fix."} {
		if !strings.Contains(p, want) {
			t.Errorf("problems %q lack %q", p, want)
		}
	}
}

func engineCall(args string) engine.ToolCall {
	return engine.ToolCall{ID: "c1", Name: "t", Args: json.RawMessage(args)}
}

// TestLog checks mcp.log's line format, the reference's: ISO time,
// [server], level, the logger when there is one, and continuation lines
// indented.
func TestLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l := NewLog(dir)
	l.Write("echo", "warning", "db", "first\nsecond")
	l.Write("echo", "", "", map[string]any{"k": 1})
	b, err := os.ReadFile(filepath.Join(dir, "mcp.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("log %q", b)
	}
	if _, err := time.Parse("2006-01-02T15:04:05.000Z", strings.Fields(lines[0])[0]); err != nil {
		t.Errorf("time of %q: %v", lines[0], err)
	}
	for i, want := range []string{" [echo] warning db: first", "    second", ` [echo] info {"k":1}`} {
		if !strings.HasSuffix(lines[i], want) {
			t.Errorf("line %d %q, want it to end with %q", i, lines[i], want)
		}
	}
}

// TestNeedsSignIn checks that an HTTP server answering 401 shows as
// needing sign-in, not as failed.
func TestNeedsSignIn(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	defer srv.Close()
	c := NewConn(server(t, "sec", `{"url":"`+srv.URL+`"}`), t.TempDir(), nil, nil)
	if _, err := c.Session(context.Background()); err == nil {
		t.Fatal("connected to a server that answers 401")
	}
	if state, errText := c.State(); state != StateNeedsAuth {
		t.Errorf("state %q (%s), want %q", state, errText, StateNeedsAuth)
	}
	// With its own Authorization header a 401 is a failure: no sign-in
	// can answer it.
	c = NewConn(server(t, "keyed", `{"url":"`+srv.URL+`","headers":{"Authorization":"Bearer x"}}`), t.TempDir(), nil, nil)
	_, _ = c.Session(context.Background())
	if state, errText := c.State(); state != StateFailed || errText != "MCP server requires authentication" {
		t.Errorf("keyed: state %q (%s)", state, errText)
	}
}

// TestServersSection checks the <mcp_servers> body: only enabled servers
// with codemode or deferred tools, sorted, with how they are reached and
// the first line of their description; direct-only servers are left out.
func TestServersSection(t *testing.T) {
	t.Parallel()
	agent := t.TempDir()
	writeFile(t, GlobalPath(agent), `{"mcpServers":{
		"zeta":{"command":"x","exposure":"deferred","description":"Search tickets\nmore"},
		"alpha-1":{"command":"x"},
		"direct":{"command":"x","exposure":"direct"},
		"mixed":{"command":"x","exposure":"direct","toolExposure":{"big_*":"deferred"}},
		"off":{"command":"x","enabled":false}}}`)
	m := NewManager(ManagerOptions{AgentDir: agent, Cwd: t.TempDir()})
	got := m.ServersSection()
	want := "These MCP servers' tools are not declared to you. Reach the tools of `codemode` servers from a codemode script. Load the tools of `tool_search` servers with `tool_search` first.\n" +
		"- mcp__alpha_1 (codemode)\n- mcp__mixed (tool_search)\n- mcp__zeta (tool_search): Search tickets"
	if got != want {
		t.Errorf("section\n%s\nwant\n%s", got, want)
	}
	if s := NewManager(ManagerOptions{AgentDir: t.TempDir(), Cwd: t.TempDir()}).ServersSection(); s != "" {
		t.Errorf("no servers: %q", s)
	}
}

// TestHTTPServerHangsAndDies checks an in-process streamable HTTP server
// whose tool never answers (the configured timeout ends the call with an
// error naming the setting, and the connection stays usable) and one
// that goes away (the call fails, and the next call reconnects once the
// server is back), and one that restarted and forgot the session (the
// call is retried on a new session).
func TestHTTPServerHangsAndDies(t *testing.T) {
	t.Parallel()
	s := sdk.NewServer(&sdk.Implementation{Name: "flaky", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "hang", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(&sdk.Tool{Name: "ok", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "fine"}}}, nil
		})
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	var mu sync.Mutex
	down := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		d, handler := down, h
		mu.Unlock()
		if d {
			// A server that lost its sessions (restarted) or is gone.
			http.Error(w, "gone", http.StatusNotFound)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := NewConn(server(t, "flaky", `{"url":"`+srv.URL+`","timeout":0.5}`), t.TempDir(), nil, nil)
	defer c.Close()
	ctx := context.Background()
	start := time.Now()
	_, _, err := c.CallTool(ctx, "hang", nil, nil)
	if err == nil || !strings.Contains(err.Error(), `MCP server "flaky" did not answer hang within 0.5s`) {
		t.Fatalf("hanging call: %v", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("the timeout took %v", time.Since(start))
	}
	if _, _, err := c.CallTool(ctx, "ok", nil, nil); err != nil {
		t.Fatalf("call after a timeout: %v", err)
	}
	mu.Lock()
	down = true
	mu.Unlock()
	if _, _, err := c.CallTool(ctx, "ok", nil, nil); err == nil {
		t.Fatal("call to a server that is gone succeeded")
	}
	mu.Lock()
	down = false
	mu.Unlock()
	if _, _, err := c.CallTool(ctx, "ok", nil, nil); err != nil {
		t.Errorf("the next call did not reconnect: %v", err)
	}
	// A restarted server has forgotten the session: the call is made
	// again on a new one, invisibly.
	mu.Lock()
	h = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	mu.Unlock()
	if _, _, err := c.CallTool(ctx, "ok", nil, nil); err != nil {
		t.Errorf("call after the server restarted: %v", err)
	}
}
