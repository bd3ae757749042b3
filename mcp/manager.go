package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// StartupWait bounds how long the first prompt waits for servers with
// direct tools, which must be declared in its request.
const StartupWait = 10 * time.Second

// ManagerOptions configure a session's MCP support.
type ManagerOptions struct {
	AgentDir, Cwd string
	Trusted       bool
	// Registered are the servers extensions registered; a configured
	// server of the same name takes precedence.
	Registered []*Server
	// Reachable reports whether tools of an exposure ("codemode",
	// "deferred") can be called in this session, that is whether the
	// codemode or tool_search tool exists; nil means neither does.
	Reachable func(exposure string) bool
	// ProviderToken reads a pi provider's credential, for servers whose
	// "auth" names a provider (the Radius MCP server).
	ProviderToken func(ctx context.Context, provider string) string
	// OAuthHTTPClient makes the requests to authorization servers
	// (tests); nil is the default client.
	OAuthHTTPClient *http.Client
}

// Manager connects every enabled server of a session and makes their
// tools pi tools.
type Manager struct {
	opts   ManagerOptions
	config *Config
	log    *Log
	creds  *CredentialStore

	mu    sync.Mutex
	conns []*Conn
	// overridden lists registered servers a configured one replaced.
	overridden []string
	// done is closed when every startup connection attempt finished.
	done    chan struct{}
	started bool
	waited  bool
	// changed is set when a server's tools changed since Tools last ran.
	changed bool
}

// NewManager reads the configuration; nothing connects until Start.
func NewManager(opts ManagerOptions) *Manager {
	m := &Manager{opts: opts, config: Load(opts.AgentDir, opts.Cwd, opts.Trusted), log: NewLog(opts.AgentDir), done: make(chan struct{}),
		creds: NewCredentialStore(opts.AgentDir)}
	for _, s := range m.config.Servers {
		m.conns = append(m.conns, m.newConn(s))
	}
	m.addRegistered(opts.Registered)
	return m
}

// addRegistered adds connections for registered servers that no
// configured server overrides; m.mu is held or m is new.
func (m *Manager) addRegistered(list []*Server) (added []*Conn) {
	for _, r := range list {
		if c := m.config.Find(r.Name); c != nil || m.config.clash(r.Name) != "" {
			m.overridden = append(m.overridden, fmt.Sprintf("%s (registered by %s)", r.Name, r.Source))
			continue
		}
		c := m.newConn(r)
		m.conns = append(m.conns, c)
		added = append(added, c)
	}
	return added
}

// SetRegistered replaces the registered servers after the session
// started: new and changed ones connect at once, removed ones are closed
// and their tools become unreachable.
func (m *Manager) SetRegistered(ctx context.Context, list []*Server) {
	want := map[string]*Server{}
	for _, s := range list {
		want[s.Name] = s
	}
	m.mu.Lock()
	var keep []*Conn
	var closing []*Conn
	for _, c := range m.conns {
		if c.Server.Scope != "extension" {
			keep = append(keep, c)
			continue
		}
		if w, ok := want[c.Server.Name]; ok && string(mustJSON(w.Config)) == string(mustJSON(c.Server.Config)) && w.Source == c.Server.Source {
			keep = append(keep, c)
			delete(want, c.Server.Name)
			continue
		}
		closing = append(closing, c)
	}
	m.conns = keep
	m.overridden = nil
	var fresh []*Server
	for _, s := range list {
		if _, ok := want[s.Name]; ok {
			fresh = append(fresh, s)
		}
	}
	added := m.addRegistered(fresh)
	m.changed = true
	m.mu.Unlock()
	for _, c := range closing {
		c.Remove()
	}
	ctx = context.WithoutCancel(ctx)
	for _, c := range added {
		if c.Server.Enabled {
			go func() {
				_, _ = c.Session(ctx)
				m.toolsChanged()
			}()
		}
	}
}

// newConn is a server's connection with its credentials.
func (m *Manager) newConn(s *Server) *Conn {
	c := NewConn(s, m.opts.Cwd, m.log, m.toolsChanged)
	c.UseAuth(ConnAuth{Store: m.creds, ProviderToken: m.opts.ProviderToken, HTTPClient: m.opts.OAuthHTTPClient})
	return c
}

func mustJSON(v any) []byte {
	b, _ := jsonx.Marshal(v)
	return b
}

// Config is what the mcp.json files configure.
func (m *Manager) Config() *Config { return m.config }

// Conns are the connections, configured servers first.
func (m *Manager) Conns() []*Conn {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*Conn(nil), m.conns...)
}

func (m *Manager) toolsChanged() {
	m.mu.Lock()
	m.changed = true
	m.mu.Unlock()
}

// Start connects every enabled server in the background.
func (m *Manager) Start(ctx context.Context) {
	m.mu.Lock()
	if m.started {
		m.mu.Unlock()
		return
	}
	m.started = true
	conns := append([]*Conn(nil), m.conns...)
	m.mu.Unlock()
	ctx = context.WithoutCancel(ctx)
	var wg sync.WaitGroup
	for _, c := range conns {
		if !c.Server.Enabled {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.Session(ctx)
		}()
	}
	go func() {
		wg.Wait()
		close(m.done)
	}()
}

// hasDirect reports a server that may have direct tools.
func hasDirect(s *Server) bool {
	if s.Exposure == "direct" {
		return true
	}
	for _, kv := range s.ToolExposure {
		if kv[1] == "direct" {
			return true
		}
	}
	return false
}

// WaitDirect waits (once per session, at most StartupWait) for the
// servers that may have direct tools to finish connecting. It reports
// whether this call waited, so the caller refreshes the tool set.
func (m *Manager) WaitDirect(ctx context.Context) bool {
	m.mu.Lock()
	if m.waited {
		m.mu.Unlock()
		return false
	}
	m.waited = true
	conns := append([]*Conn(nil), m.conns...)
	m.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, StartupWait)
	defer cancel()
	var wg sync.WaitGroup
	for _, c := range conns {
		if !c.Server.Enabled || !hasDirect(c.Server) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = c.Session(ctx)
		}()
	}
	wg.Wait()
	return true
}

// Changed reports (and clears) a tool list change since the last call.
func (m *Manager) Changed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.changed
	m.changed = false
	return c
}

// ToolEntry is one registered MCP tool: the tool, its exposure as
// extensions see it (codemode shows as deferred), its namespace and the
// server's annotations.
type ToolEntry struct {
	Tool        engine.Tool
	Exposure    string
	Namespace   jsonx.Object
	Annotations jsonx.Object
}

// AllTools are the tools of the connected servers, every exposure, then
// the resource tools when a server offers resources (with the widest
// exposure of those servers).
func (m *Manager) AllTools() []ToolEntry {
	var out []ToolEntry
	resources := ""
	for _, c := range m.Conns() {
		state, _ := c.State()
		if state != StateConnected && state != StateDisconnected {
			continue
		}
		names := map[string]int{}
		defs := c.Tools()
		for _, d := range defs {
			names[ToolName(c.Server.Name, d.Name, nil)]++
		}
		ns := jsonx.Object{{Key: "name", Value: Namespace(c.Server.Name)}, {Key: "aliases", Value: []any{c.Server.Name}}}
		if d := strings.TrimSpace(c.Server.Description); d != "" {
			ns = ns.Set("description", d)
		}
		if in := c.Instructions(); in != "" {
			ns = ns.Set("instructions", in)
		}
		for _, d := range defs {
			name := ToolName(c.Server.Name, d.Name, func(n string) bool { return names[n] > 1 })
			out = append(out, ToolEntry{Tool: newServerTool(c, d, name, m.readable(c)), Exposure: toolExposure(c.Server.ToolExposureOf(d.Name)),
				Namespace: ns, Annotations: d.Annotations})
		}
		if c.HasResources() && c.Server.Exposure != "hidden" {
			resources = widest(resources, c.Server.Exposure)
		}
	}
	if resources != "" {
		for _, t := range m.resourceTools() {
			out = append(out, ToolEntry{Tool: t, Exposure: toolExposure(resources), Annotations: jsonx.Object{{Key: "readOnlyHint", Value: true}}})
		}
	}
	return out
}

// toolExposure is the tool exposure of an MCP exposure: codemode and
// deferred tools both stay out of the codemode listing.
func toolExposure(e string) string {
	if e == "codemode" {
		return "deferred"
	}
	return e
}

// DirectTools are the tools declared to the model: the direct tools of
// the connected servers, then the resource tools when the widest
// exposure of the servers with resources is direct.
func (m *Manager) DirectTools() []engine.Tool {
	var out []engine.Tool
	for _, e := range m.AllTools() {
		if e.Exposure == "direct" {
			out = append(out, e.Tool)
		}
	}
	return out
}

func widest(a, b string) string {
	if a == "direct" || b == "direct" {
		return "direct"
	}
	if a != "" {
		return a
	}
	return b
}

func (m *Manager) readable(c *Conn) func() bool {
	return func() bool { return c.HasResources() && c.Server.Exposure != "hidden" }
}

// resourceConns are the enabled, non-hidden servers with resources.
func (m *Manager) resourceConns() []*Conn {
	var out []*Conn
	for _, c := range m.Conns() {
		if c.Server.Enabled && c.Server.Exposure != "hidden" && c.HasResources() {
			out = append(out, c)
		}
	}
	return out
}

// Unreachable are the warnings about what this build cannot reach:
// tools with codemode or deferred exposure need the codemode or
// tool_search tool, which do not exist here yet. Each names the setting
// that makes the tools reachable.
func (m *Manager) Unreachable() []string {
	var out []string
	for _, c := range m.Conns() {
		s := c.Server
		if !s.Enabled {
			continue
		}
		var modes []string
		add := func(e string) {
			if m.opts.Reachable != nil && m.opts.Reachable(e) {
				return
			}
			if (e == "codemode" || e == "deferred") && !contains(modes, e) {
				modes = append(modes, e)
			}
		}
		add(s.Exposure)
		for _, kv := range s.ToolExposure {
			add(kv[1])
		}
		if len(modes) == 0 {
			continue
		}
		out = append(out, fmt.Sprintf(`MCP server "%s" uses exposure %s, which needs the codemode or tool_search tool; this build has neither, so those tools cannot be called. Set "exposure": "direct" for the server (or "toolExposure" per tool) in %s`,
			s.Name, quoteJoin(modes), s.Source))
	}
	return out
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func quoteJoin(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = `"` + s + `"`
	}
	return strings.Join(q, " and ")
}

// Problems are what needs the user after startup, in the reference's
// words: config errors and servers that failed or need sign-in. Empty
// when all is well. It waits for the startup connections (bounded).
func (m *Manager) Problems(ctx context.Context) string {
	m.WaitStarted(ctx)
	var lines []string
	for _, e := range m.config.Errors {
		lines = append(lines, "config: "+e)
	}
	for _, c := range m.Conns() {
		state, _ := c.State()
		if state == StateFailed || state == StateNeedsAuth {
			lines = append(lines, c.Server.Name+": "+describeState(c))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return "MCP servers need attention:\n  " + strings.Join(lines, "\n  ") + "\nRun /mcp to fix."
}

// WaitStarted waits for every startup connection attempt (bounded by
// ctx and StartupWait).
func (m *Manager) WaitStarted(ctx context.Context) {
	m.mu.Lock()
	started := m.started
	m.mu.Unlock()
	if !started {
		return
	}
	t := time.NewTimer(StartupWait)
	defer t.Stop()
	select {
	case <-m.done:
	case <-t.C:
	case <-ctx.Done():
	}
}

func describeState(c *Conn) string {
	state, errText := c.State()
	switch state {
	case StateConnected:
		s := fmt.Sprintf("connected · %d tools", len(c.Tools()))
		if c.HasResources() {
			s += " · resources"
		}
		return s
	case StateNeedsAuth:
		return "needs sign-in"
	case StateFailed:
		if errText != "" {
			return "failed: " + strings.SplitN(errText, "\n", 2)[0]
		}
		return "failed"
	}
	return state
}

// Status is /mcp's report outside the interactive TUI.
func (m *Manager) Status(ctx context.Context) string {
	m.WaitStarted(ctx)
	conns := m.Conns()
	if len(conns) == 0 && len(m.config.Errors) == 0 && len(m.overridden) == 0 {
		return fmt.Sprintf("No MCP servers configured. Add them to %s or .pi/mcp.json.", GlobalPath(m.opts.AgentDir))
	}
	var lines []string
	for _, c := range conns {
		s := c.Server
		state, errText := c.State()
		if state == StateNeedsAuth {
			lines = append(lines, fmt.Sprintf("%s: needs sign-in, run /mcp login %s (%s)", s.Name, s.Name, s.Exposure))
			continue
		}
		tools := ""
		if state == StateConnected {
			tools = fmt.Sprintf(", %d tools", len(c.Tools()))
		}
		switch state {
		case StateDisconnected:
			state = "disconnected, reconnects on next call"
		case StateConnecting:
			state = "starting"
		}
		line := fmt.Sprintf("%s: %s%s (%s)", s.Name, state, tools, s.Exposure)
		if errText != "" && state != StateConnected {
			line += "\n    " + strings.ReplaceAll(errText, "\n", "\n    ")
		}
		lines = append(lines, line)
	}
	for _, e := range m.config.Errors {
		lines = append(lines, "config error: "+e)
	}
	for _, o := range m.overridden {
		lines = append(lines, "overridden: "+o)
	}
	return strings.Join(lines, "\n")
}

// Reconnect closes and connects one server again; the message is the
// reference's answer.
func (m *Manager) Reconnect(ctx context.Context, name string) (string, error) {
	for _, c := range m.Conns() {
		if c.Server.Name != name {
			continue
		}
		if !c.Server.Enabled {
			return "", fmt.Errorf("MCP server %q is disabled.", name)
		}
		c.Close()
		if _, err := c.Session(ctx); err != nil {
			return "", err
		}
		m.toolsChanged()
		return fmt.Sprintf("Reconnected to MCP server %q (%s).", name, describeState(c)), nil
	}
	return "", fmt.Errorf("No MCP server named %q.", name)
}

// UsesOAuth reports a server that signs in with OAuth: an HTTP server
// without an Authorization header or a provider's login.
func (m *Manager) UsesOAuth(s *Server) bool { return s.UsesOAuth() }

// find is the connection of a server.
func (m *Manager) find(name string) *Conn {
	for _, c := range m.Conns() {
		if c.Server.Name == name {
			return c
		}
	}
	return nil
}

// Logout deletes a server's stored OAuth credentials and disconnects it;
// the message is the reference's answer.
func (m *Manager) Logout(name string) (string, error) {
	c := m.find(name)
	if c == nil {
		return "", fmt.Errorf("No MCP server named %q.", name)
	}
	if !c.Server.UsesOAuth() {
		return "", fmt.Errorf("MCP server %q does not use OAuth.", name)
	}
	removed, err := m.creds.Remove(name, c.Server.URL)
	if err != nil {
		return "", err
	}
	c.SignOut()
	m.toolsChanged()
	if removed {
		return fmt.Sprintf("Signed out of MCP server %q.", name), nil
	}
	return fmt.Sprintf("No stored credentials for MCP server %q.", name), nil
}

// ReconnectSignedIn reconnects the servers that wanted a sign-in and
// have new credentials since (pi mcp login in another process), so a
// running session uses them on its next turn. It reports whether any
// connected.
func (m *Manager) ReconnectSignedIn(ctx context.Context) bool {
	any := false
	for _, c := range m.Conns() {
		if c.SignedInElsewhere() {
			c.ClearChallenge()
			if _, err := c.Session(ctx); err == nil {
				any = true
			}
		}
	}
	if any {
		m.toolsChanged()
	}
	return any
}

// Login signs in to a server, then reconnects it. A failure comes back
// as the reference words it ("Sign-in cancelled.", "Sign-in failed: …",
// "Signed in, but …"); the message on success is its tool count.
func (m *Manager) Login(ctx context.Context, name string, prompt SignInPrompt) (string, error) {
	c := m.find(name)
	if c == nil {
		return "", fmt.Errorf("No MCP server named %q.", name)
	}
	if !c.Server.UsesOAuth() {
		return "", fmt.Errorf("MCP server %q does not use OAuth.", name)
	}
	if err := SignInConn(ctx, c, m.creds, prompt, m.opts.OAuthHTTPClient); err != nil {
		if errors.Is(err, ErrSignInCancelled) {
			return "", errors.New("Sign-in cancelled.")
		}
		return "", fmt.Errorf("Sign-in failed: %w", err)
	}
	c.Close()
	if _, err := c.Session(ctx); err != nil {
		return "", fmt.Errorf("Signed in, but %w", err)
	}
	m.toolsChanged()
	return fmt.Sprintf("Signed in to MCP server %q (%d tools).", name, len(c.Tools())), nil
}

// SignInConn runs a sign-in for a connection's server with the challenge
// the server sent it, and forgets that challenge once answered.
func SignInConn(ctx context.Context, c *Conn, creds *CredentialStore, prompt SignInPrompt, client *http.Client) error {
	settings, err := c.Server.OAuthSettingsOf(ctx)
	if err != nil {
		return err
	}
	err = SignIn(ctx, SignInOptions{Name: c.Server.Name, ServerURL: c.Server.URL, Store: creds, Settings: settings,
		Challenge: c.Challenge(), Prompt: prompt, HTTPClient: client})
	if err == nil {
		c.ClearChallenge()
	}
	return err
}

// Close stops every server.
func (m *Manager) Close() {
	var wg sync.WaitGroup
	for _, c := range m.Conns() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close()
		}()
	}
	wg.Wait()
}
