package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-go/pi/internal/jsonx"
)

// Connection states, as pi mcp list and /mcp show them.
const (
	StateDisabled     = "disabled"
	StateConnecting   = "connecting"
	StateConnected    = "connected"
	StateFailed       = "failed"
	StateDisconnected = "disconnected"
	StateNeedsAuth    = "needs-auth"
)

// ToolDef is one tool a server lists, with its schema as the server
// wrote it.
type ToolDef struct {
	Name        string
	Title       string
	Description string
	InputSchema json.RawMessage
	// Annotations are the boolean hints the server declared, in the
	// reference's order.
	Annotations jsonx.Object
}

// Conn is the client side of one server: it connects on demand, keeps
// the server's tools and reconnects after the connection dropped.
type Conn struct {
	Server *Server
	cwd    string
	log    *Log
	// onTools is called when the server's tool list changed.
	onTools func()

	mu           sync.Mutex
	state        string
	err          string
	session      *sdk.ClientSession
	tools        []ToolDef
	hasResources bool
	instructions string
	stderr       *tailBuffer
	connecting   chan struct{}
	// gone marks a registration that was withdrawn: it never reconnects.
	gone bool
	// progress routes progress notifications to the call that asked for
	// them, by token; nextToken numbers the calls.
	progress  map[int64]func(*sdk.ProgressNotificationParams)
	nextToken int64

	// auth sends an HTTP server's bearer token (nil: none); challenge
	// is the server's last WWW-Authenticate challenge, which the next
	// sign-in answers.
	auth      requestAuth
	challenge *challenge
	ht        *headerTransport
	// authToken is the stored access token when the server last wanted a
	// sign-in: another one means someone signed in since.
	authToken string
}

// ConnAuth is where connections find credentials.
type ConnAuth struct {
	// Store is mcp-auth.json, for servers that sign in with OAuth.
	Store *CredentialStore
	// ProviderToken reads a pi provider's credential for servers whose
	// "auth" names one; "" when there is none.
	ProviderToken func(ctx context.Context, provider string) string
	// HTTPClient makes the requests to authorization servers (tests).
	HTTPClient *http.Client
}

// UseAuth gives an HTTP server its credentials: OAuth tokens from the
// store, or the login of the provider its "auth" names.
func (c *Conn) UseAuth(a ConnAuth) {
	s := c.Server
	switch {
	case s.UsesOAuth() && a.Store != nil:
		c.auth = &oauthAuth{serverURL: s.URL, store: a.Store.ForServer(s.Name, s.URL), settings: s.OAuthSettingsOf, http: a.HTTPClient,
			onChallenge: func(ch challenge) {
				c.mu.Lock()
				c.challenge = &ch
				c.mu.Unlock()
			}}
	case s.AuthProvider() != "":
		c.auth = providerAuth{provider: s.AuthProvider(), get: a.ProviderToken}
	}
}

// Challenge is the server's last WWW-Authenticate challenge, nil when
// none is pending.
func (c *Conn) Challenge() *Challenge {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.challenge
}

// ClearChallenge forgets the challenge a sign-in answered.
func (c *Conn) ClearChallenge() {
	c.mu.Lock()
	c.challenge = nil
	c.mu.Unlock()
}

// errNeedsAuth is a server that wants the user to sign in: with OAuth
// (/mcp login), or with the provider its "auth" names (/login).
type errNeedsAuth struct{ server, provider string }

func (e errNeedsAuth) Error() string {
	run := "/mcp"
	if e.provider != "" {
		run = "/login " + e.provider
	}
	return fmt.Sprintf("MCP server %q requires sign-in. Run %s to sign in.", e.server, run)
}

// needsAuth reports a failure that means the server wants a sign-in:
// only a server that signs in (OAuth, or a provider's login) can need
// one; with its own Authorization header a 401 is a failure.
func (c *Conn) needsAuth(err error, ht *headerTransport) bool {
	rejected := errors.Is(err, ErrAuthorizationRequired) || ht != nil && ht.unauthorized.Load()
	return rejected && (c.auth != nil || c.Server.UsesOAuth())
}

// errAuthRejected is a 401 to a server whose credentials come from its
// own headers: the reference's message.
var errAuthRejected = errors.New("MCP server requires authentication")

// rejectedAuth is errAuthRejected for a 401 that no sign-in answers.
func (c *Conn) rejectedAuth(ht *headerTransport) bool {
	return ht != nil && ht.unauthorized.Load() && c.auth == nil && !c.Server.UsesOAuth()
}

// errTimeout ends a request that got no answer or progress in time.
var errTimeout = errors.New("timeout")

// NewConn makes the connection of one server; nothing starts until
// Connect.
func NewConn(s *Server, cwd string, log *Log, onTools func()) *Conn {
	c := &Conn{Server: s, cwd: cwd, log: log, onTools: onTools, state: StateConnecting}
	if !s.Enabled {
		c.state = StateDisabled
	}
	return c
}

// State is the connection state and its error, if any.
func (c *Conn) State() (state, errText string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state, c.err
}

// Tools are the tools the server listed when it last connected.
func (c *Conn) Tools() []ToolDef {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tools
}

// HasResources reports a server that offers resources.
func (c *Conn) HasResources() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hasResources
}

// Instructions are what the server sent in initialize.
func (c *Conn) Instructions() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.instructions
}

// timeout is the per-request timeout.
func (c *Conn) timeout() time.Duration {
	return time.Duration(c.Server.TimeoutSec * float64(time.Second))
}

// Session returns the live session, connecting (or reconnecting after a
// drop) first. Concurrent callers share one attempt.
func (c *Conn) Session(ctx context.Context) (*sdk.ClientSession, error) {
	for {
		c.mu.Lock()
		if c.gone {
			c.mu.Unlock()
			return nil, fmt.Errorf("MCP server %q is no longer available.", c.Server.Name)
		}
		if !c.Server.Enabled {
			c.mu.Unlock()
			return nil, fmt.Errorf("MCP server %q is disabled.", c.Server.Name)
		}
		if c.session != nil {
			s := c.session
			c.mu.Unlock()
			return s, nil
		}
		if wait := c.connecting; wait != nil {
			c.mu.Unlock()
			select {
			case <-wait:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			c.mu.Lock()
			s, errText := c.session, c.err
			c.mu.Unlock()
			if s != nil {
				return s, nil
			}
			return nil, errors.New(errText)
		}
		done := make(chan struct{})
		c.connecting = done
		c.state = StateConnecting
		c.mu.Unlock()
		err := c.connect(ctx)
		c.mu.Lock()
		c.connecting = nil
		if err != nil {
			c.state, c.err = StateFailed, err.Error()
			var na errNeedsAuth
			if errors.As(err, &na) {
				c.state = StateNeedsAuth
				c.authToken = c.storedToken()
			}
		}
		c.mu.Unlock()
		close(done)
		if err != nil {
			return nil, err
		}
	}
}

func (c *Conn) connect(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	var transport sdk.Transport
	var stderr *tailBuffer
	var ht *headerTransport
	if c.Server.IsHTTP() {
		t, h, err := newHTTPTransport(ctx, c.Server, c.auth)
		if err != nil {
			return err
		}
		transport, ht = t, h
	} else {
		t, err := newStdioTransport(ctx, c.Server, c.cwd)
		if err != nil {
			return err
		}
		transport, stderr = t, t.stderr
	}
	name := c.Server.Name
	client := sdk.NewClient(&sdk.Implementation{Name: "pi", Version: Version}, &sdk.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *sdk.LoggingMessageRequest) {
			if c.log != nil && r.Params != nil {
				c.log.Write(name, string(r.Params.Level), r.Params.Logger, r.Params.Data)
			}
		},
		ToolListChangedHandler: func(ctx context.Context, _ *sdk.ToolListChangedRequest) {
			go c.refreshTools(context.WithoutCancel(ctx))
		},
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			if r.Params == nil {
				return
			}
			var token int64
			switch t := r.Params.ProgressToken.(type) {
			case float64:
				token = int64(t)
			case int64:
				token = t
			case int:
				token = int64(t)
			default:
				return
			}
			c.mu.Lock()
			fn := c.progress[token]
			c.mu.Unlock()
			if fn != nil {
				fn(r.Params)
			}
		},
	})
	// The reference's protocol version: newer ones change the wire (a
	// server/discover round trip first, resultType in every result).
	session, err := client.Connect(ctx, captureTransport{transport}, &sdk.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
	if err != nil {
		if c.needsAuth(err, ht) {
			return errNeedsAuth{name, c.Server.AuthProvider()}
		}
		if c.rejectedAuth(ht) {
			return errAuthRejected
		}
		return c.connectError(err, stderr)
	}
	init := session.InitializeResult()
	tools, err := listTools(ctx, session)
	if err != nil {
		_ = session.Close()
		if c.needsAuth(err, ht) {
			return errNeedsAuth{name, c.Server.AuthProvider()}
		}
		return c.connectError(err, stderr)
	}
	c.mu.Lock()
	c.session, c.tools, c.state, c.err, c.stderr, c.ht = session, tools, StateConnected, "", stderr, ht
	if init != nil {
		c.instructions = init.Instructions
		c.hasResources = init.Capabilities != nil && init.Capabilities.Resources != nil
	}
	c.mu.Unlock()
	// A dropped connection shows as disconnected and reconnects on the
	// next call.
	go func() {
		_ = session.Wait()
		c.mu.Lock()
		if c.session == session {
			c.session, c.state = nil, StateDisconnected
			if stderr != nil {
				c.err = "connection closed" + stderrSuffix(stderr)
			}
		}
		c.mu.Unlock()
	}()
	return nil
}

func (c *Conn) connectError(err error, stderr *tailBuffer) error {
	var execErr *exec.Error
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &execErr):
		err = fmt.Errorf("spawn %s: %w", execErr.Name, execErr.Err)
	case errors.As(err, &pathErr) && pathErr.Op == "fork/exec":
		err = fmt.Errorf("spawn %s: %w", pathErr.Path, pathErr.Err)
	}
	if stderr != nil {
		return fmt.Errorf("%w%s", err, stderrSuffix(stderr))
	}
	return err
}

func stderrSuffix(t *tailBuffer) string {
	s := strings.TrimSpace(t.String())
	if s == "" {
		return ""
	}
	return "\nstderr:\n" + s
}

// listTools lists every page of the server's tools, keeping each
// schema's key order.
func listTools(ctx context.Context, s *sdk.ClientSession) ([]ToolDef, error) {
	rctx, slot := withRawSlot(ctx)
	var params sdk.ListToolsParams
	for {
		res, err := s.ListTools(rctx, &params)
		if err != nil {
			return nil, err
		}
		if res.NextCursor == "" {
			break
		}
		params.Cursor = res.NextCursor
	}
	var out []ToolDef
	for _, raw := range slot.all() {
		var page struct {
			Tools []struct {
				Name        string          `json:"name"`
				Title       string          `json:"title"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
				Annotations map[string]any  `json:"annotations"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		for _, t := range page.Tools {
			d := ToolDef{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema}
			if d.Title == "" {
				d.Title, _ = t.Annotations["title"].(string)
			}
			for _, h := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
				if b, ok := t.Annotations[h].(bool); ok {
					d.Annotations = d.Annotations.Set(h, b)
				}
			}
			out = append(out, d)
		}
	}
	return out, nil
}

func (c *Conn) refreshTools(ctx context.Context) {
	c.mu.Lock()
	s := c.session
	c.mu.Unlock()
	if s == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	tools, err := listTools(ctx, s)
	if err != nil {
		return
	}
	c.mu.Lock()
	c.tools = tools
	c.mu.Unlock()
	if c.onTools != nil {
		c.onTools()
	}
}

// CallTool calls one of the server's tools and returns its result as
// the server wrote it (without _meta) and decoded. The call asks for
// progress notifications: each one reaches onProgress (when set) and
// restarts the timeout.
func (c *Conn) CallTool(ctx context.Context, name string, args json.RawMessage, onProgress func(message string)) (json.RawMessage, *sdk.CallToolResult, error) {
	raw, res, err := c.callTool(ctx, name, args, onProgress)
	if errors.Is(err, errSessionExpired) {
		// The server no longer knows the session (it restarted), so it
		// did not run the call: once more on a new session.
		raw, res, err = c.callTool(ctx, name, args, onProgress)
	}
	if errors.Is(err, errSessionExpired) {
		err = errors.Unwrap(err)
	}
	return raw, res, err
}

// errSessionExpired marks a call the server refused for an unknown
// session.
var errSessionExpired = errors.New("session expired")

type expiredError struct{ err error }

func (e expiredError) Error() string        { return e.err.Error() }
func (e expiredError) Unwrap() error        { return e.err }
func (e expiredError) Is(target error) bool { return target == errSessionExpired }

func (c *Conn) callTool(ctx context.Context, name string, args json.RawMessage, onProgress func(message string)) (json.RawMessage, *sdk.CallToolResult, error) {
	s, err := c.Session(ctx)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	d := c.timeout()
	timer := time.AfterFunc(d, func() { cancel(errTimeout) })
	defer timer.Stop()
	c.mu.Lock()
	c.nextToken++
	token := c.nextToken
	if c.progress == nil {
		c.progress = map[int64]func(*sdk.ProgressNotificationParams){}
	}
	c.progress[token] = func(p *sdk.ProgressNotificationParams) {
		timer.Reset(d)
		if onProgress == nil {
			return
		}
		msg := p.Message
		if msg == "" {
			total := ""
			if p.Total != 0 {
				total = fmt.Sprintf("/%g", p.Total)
			}
			msg = fmt.Sprintf("Progress %g%s", p.Progress, total)
		}
		onProgress(msg)
	}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.progress, token)
		c.mu.Unlock()
	}()
	rctx, slot := withRawSlot(ctx)
	var a any = map[string]any{}
	if len(args) > 0 && string(args) != "null" {
		a = args
	}
	params := &sdk.CallToolParams{Name: name, Arguments: a}
	params.SetProgressToken(token)
	res, err := s.CallTool(rctx, params)
	if err != nil {
		if errors.Is(context.Cause(ctx), errTimeout) {
			err = context.DeadlineExceeded
		}
		c.dropClosed(s, err)
		if errors.Is(err, sdk.ErrSessionMissing) {
			return nil, nil, expiredError{c.callError(name, err)}
		}
		return nil, nil, c.callError(name, err)
	}
	raws := slot.all()
	var raw json.RawMessage
	if len(raws) > 0 {
		raw = withoutMeta(raws[len(raws)-1])
	} else {
		raw, _ = json.Marshal(res)
	}
	return raw, res, nil
}

// callError explains a failed request: a timeout names the setting, a
// closed connection shows the tail of a stdio server's stderr.
func (c *Conn) callError(what string, err error) error {
	c.mu.Lock()
	ht := c.ht
	c.mu.Unlock()
	if c.needsAuth(err, ht) {
		// Tokens that expired and could not be refreshed, or a server
		// asking for more scope: the user signs in again.
		c.markNeedsAuth()
		return errNeedsAuth{c.Server.Name, c.Server.AuthProvider()}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("MCP server %q did not answer %s within %gs (its \"timeout\" setting)", c.Server.Name, what, c.Server.TimeoutSec)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, sdk.ErrConnectionClosed) {
		c.mu.Lock()
		tail := c.stderr
		c.mu.Unlock()
		msg := fmt.Sprintf("MCP server %q closed the connection (%v); the next call reconnects", c.Server.Name, err)
		if tail != nil {
			msg += stderrSuffix(tail)
		}
		return errors.New(msg)
	}
	return err
}

// Request runs one request on the live session (connecting first) and
// returns its raw result: resources/list and the other resource calls.
func (c *Conn) Request(ctx context.Context, fn func(ctx context.Context, s *sdk.ClientSession) error) ([]json.RawMessage, error) {
	s, err := c.Session(ctx)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	rctx, slot := withRawSlot(ctx)
	if err := fn(rctx, s); err != nil {
		c.dropClosed(s, err)
		return nil, c.callError("the request", err)
	}
	return slot.all(), nil
}

// dropClosed forgets a session whose connection closed under a request,
// so the next call reconnects without waiting for the session's end to
// be noticed.
func (c *Conn) dropClosed(s *sdk.ClientSession, err error) {
	if !errors.Is(err, io.EOF) && !errors.Is(err, sdk.ErrConnectionClosed) && !errors.Is(err, sdk.ErrSessionMissing) {
		return
	}
	c.mu.Lock()
	if c.session == s {
		c.session, c.state = nil, StateDisconnected
	}
	c.mu.Unlock()
	_ = s.Close()
}

// markNeedsAuth drops the session and shows that the server wants a
// sign-in.
func (c *Conn) markNeedsAuth() {
	c.mu.Lock()
	s := c.session
	c.session, c.state, c.err = nil, StateNeedsAuth, ""
	c.authToken = c.storedToken()
	c.mu.Unlock()
	if s != nil {
		_ = s.Close()
	}
}

// storedToken is the OAuth access token in mcp-auth.json, "" for none
// (or a server without OAuth).
func (c *Conn) storedToken() string {
	a, ok := c.auth.(*oauthAuth)
	if !ok {
		return ""
	}
	st, err := a.store.load()
	if err != nil {
		return ""
	}
	return st.accessToken()
}

// SignedInElsewhere reports a server that wanted a sign-in and whose
// credentials changed since: pi mcp login ran in another process (an
// agent's bash, say).
func (c *Conn) SignedInElsewhere() bool {
	c.mu.Lock()
	state, before := c.state, c.authToken
	c.mu.Unlock()
	if state != StateNeedsAuth {
		return false
	}
	tok := c.storedToken()
	return tok != "" && tok != before
}

// SignOut drops the session after the credentials were removed.
func (c *Conn) SignOut() {
	c.markNeedsAuth()
}

// Remove closes the connection for good: the server was withdrawn.
func (c *Conn) Remove() {
	c.mu.Lock()
	c.gone = true
	c.mu.Unlock()
	c.Close()
}

// Close ends the session (and stops a stdio server).
func (c *Conn) Close() {
	c.mu.Lock()
	s := c.session
	c.session = nil
	if c.state == StateConnected {
		c.state = StateDisconnected
	}
	c.mu.Unlock()
	if s != nil {
		_ = s.Close()
	}
}

// withoutMeta drops the top-level _meta of a result object.
func withoutMeta(raw json.RawMessage) json.RawMessage {
	keys, vals, err := jsonx.Split(raw)
	if err != nil {
		return raw
	}
	o := jsonx.Object{}
	for i, k := range keys {
		if k != "_meta" {
			o = o.Set(k, vals[i])
		}
	}
	b, err := o.MarshalJSON()
	if err != nil {
		return raw
	}
	return b
}
