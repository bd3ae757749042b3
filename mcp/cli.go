package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine/config/login"

	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/internal/jsonx"
)

const cliHelp = `Usage:
  pi mcp add <server> [options] -- <command> [args...]   Add a stdio server
  pi mcp add <server> [options] --url <url>              Add a streamable HTTP server
  pi mcp remove <server> [-l]                            Remove a server
  pi mcp list [--json]                                   Connect to every enabled server and report it
  pi mcp login <server> [-l] [--timeout <seconds>]       Sign in to an OAuth server
  pi mcp logout <server> [-l]                            Forget a server's OAuth credentials

Options of add:
  -l, --local                  Write the project's .pi/mcp.json instead of ~/.pi/agent/mcp.json
  --env KEY=VALUE              Environment of a stdio server (repeatable)
  --cwd <dir>                  Working directory of a stdio server
  --header KEY=VALUE           Header sent to an HTTP server (repeatable)
  --bearer-token-env-var NAME  Send Authorization: Bearer ${NAME}
  --oauth-client-id <id>       OAuth client of a server without dynamic registration
  --oauth-client-secret <s>    Its secret
  --oauth-callback-port <n>    Port of the OAuth redirect on 127.0.0.1
  --oauth-client-name <name>   Name to register the OAuth client under
  --oauth-client-registration  auto, cimd or dcr
  --exposure <mode>            codemode, deferred, direct or hidden
  --description <text>         What the server offers, in a sentence

Commands run outside a session and load no extensions.`

const helpHint = `Use "pi mcp --help" for usage.`

// CLIOptions are what pi mcp runs against; zero values mean the real
// agent directory and working directory.
type CLIOptions struct {
	AgentDir, Cwd  string
	Stdout, Stderr io.Writer
	// Stdin answers pi mcp login's question for a pasted redirect URL
	// when it is a terminal.
	Stdin io.Reader
	// OpenURL opens the authorization page (tests); nil opens the
	// browser.
	OpenURL func(url string)
	// HTTPClient makes the requests to authorization servers (tests).
	HTTPClient *http.Client
	// ProviderToken reads a pi provider's credential, for servers whose
	// "auth" names a provider; nil reads none.
	ProviderToken func(ctx context.Context, provider string) string
}

// RunCommand runs `pi mcp <args>` and returns the exit code.
func RunCommand(args []string, stdout, stderr io.Writer) int {
	return RunCLI(context.Background(), args, CLIOptions{Stdout: stdout, Stderr: stderr, Stdin: os.Stdin})
}

// RunCLI is RunCommand with its directories given.
func RunCLI(ctx context.Context, args []string, o CLIOptions) int {
	if o.AgentDir == "" {
		o.AgentDir = config.AgentDir()
	}
	if o.ProviderToken == nil {
		o.ProviderToken = ProviderTokenReader(o.AgentDir)
	}
	if o.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintln(o.Stderr, "Error:", err)
			return 1
		}
		o.Cwd = wd
	}
	log := func(s string) { fmt.Fprintln(o.Stdout, s) }
	fail := func(s string) int { fmt.Fprintln(o.Stderr, s); return 1 }
	if len(args) == 0 || args[0] == "help" || slicesContains(args, "--help") || slicesContains(args, "-h") {
		log(cliHelp)
		return 0
	}
	command, rest := args[0], args[1:]
	projectConfig := ProjectPath(o.Cwd)
	switch command {
	case "add":
		return cliAdd(rest, projectConfig, o, log, fail)
	case "remove":
		return cliRemove(rest, projectConfig, o, log, fail)
	}
	trusted, _, _ := config.NewTrust(o.AgentDir).Get(o.Cwd)
	cfg := Load(o.AgentDir, o.Cwd, trusted)
	var untrusted string
	if _, err := os.Stat(projectConfig); err == nil && !trusted {
		untrusted = fmt.Sprintf("%s is ignored because the project is not trusted. Start pi in the project to trust it.", projectConfig)
	}
	switch command {
	case "list":
		p, ok := parseCLI(rest, map[string]string{"json": "flag"}, fail, -1)
		if !ok {
			return 1
		}
		if len(p.positional) > 0 {
			return fail("Usage: pi mcp list [--json]\n" + helpHint)
		}
		return cliList(ctx, cfg, p.values["json"] != "", untrusted, o, log)
	case "login", "logout":
		known := map[string]string{"local": "flag"}
		if command == "login" {
			known["timeout"] = "value"
		}
		p, ok := parseCLI(rest, known, fail, -1)
		if !ok {
			return 1
		}
		if len(p.positional) != 1 {
			return fail(fmt.Sprintf("Usage: pi mcp %s <server> [-l]\n%s", command, helpHint))
		}
		name := p.positional[0]
		s := cfg.Find(name)
		if s == nil {
			var names []string
			for _, srv := range cfg.Servers {
				names = append(names, srv.Name)
			}
			msg := fmt.Sprintf("No MCP server named %q.", name)
			for _, n := range names {
				if editDistance(n, name) <= 2 {
					msg += fmt.Sprintf(" Did you mean %q?", n)
					break
				}
			}
			if untrusted != "" {
				msg += " " + untrusted
			}
			configured := strings.Join(names, ", ")
			if configured == "" {
				configured = "none"
			}
			return fail(msg + " Configured: " + configured + ".")
		}
		if _, local := p.values["local"]; local && s.Scope != "project" {
			return fail(fmt.Sprintf("MCP server %q is defined in %s, not in the project; omit --local.", name, s.Source))
		}
		if p := s.AuthProvider(); p != "" {
			return fail(fmt.Sprintf("MCP server %q uses the credentials of provider %q. Run \"pi auth %s %s\".", name, p, command, p))
		}
		if !s.UsesOAuth() {
			return fail(fmt.Sprintf("MCP server %q does not use OAuth. Only HTTP servers without an Authorization header do.", name))
		}
		creds := NewCredentialStore(o.AgentDir)
		if command == "logout" {
			removed, err := creds.Remove(name, s.URL)
			if err != nil {
				return fail(fmt.Sprintf("Could not update %s: %v", CredentialsPath(o.AgentDir), err))
			}
			if removed {
				log(fmt.Sprintf("Signed out of MCP server %q.", name))
			} else {
				log(fmt.Sprintf("No stored credentials for MCP server %q.", name))
			}
			return 0
		}
		timeout := float64(defaultLoginTimeout)
		if v, ok := p.values["timeout"]; ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || !(f > 0) || math.IsInf(f, 0) {
				return fail("--timeout must be a positive number of seconds.")
			}
			timeout = f
		}
		return cliLogin(ctx, s, creds, time.Duration(timeout*float64(time.Second)), o, log, fail)
	}
	return fail(fmt.Sprintf("Unknown mcp command %q.\n%s", command, helpHint))
}

// editDistance is the Levenshtein distance, to suggest a configured
// server for a mistyped name.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// defaultLoginTimeout is pi mcp login's time limit in seconds.
const defaultLoginTimeout = 300

// cliLogin is pi mcp login: connecting first tells whether a sign-in is
// needed and records the server's challenge; then the browser sign-in,
// with a pasted redirect URL accepted in a terminal.
func cliLogin(ctx context.Context, s *Server, creds *CredentialStore, timeout time.Duration, o CLIOptions, log func(string), fail func(string) int) int {
	name := s.Name
	c := NewConn(s, o.Cwd, NewLog(o.AgentDir), nil)
	c.UseAuth(ConnAuth{Store: creds, HTTPClient: o.HTTPClient})
	defer c.Close()
	if _, err := c.Session(ctx); err == nil {
		log(fmt.Sprintf("Already signed in to MCP server %q (%d tools).", name, len(c.Tools())))
		return 0
	}
	if state, errText := c.State(); state != StateNeedsAuth {
		if errText == "" {
			errText = "unknown error"
		}
		return fail(fmt.Sprintf("MCP server %q failed to connect: %s", name, errText))
	}
	open := o.OpenURL
	interactive := open == nil && o.Stdin != nil && isTerminal(o.Stdin)
	if open == nil {
		open = login.OpenBrowser
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	prompt := SignInPrompt{
		ShowAuthorizationURL: func(u string) {
			log(fmt.Sprintf("Sign in to MCP server %q in your browser:\n%s", name, u))
			open(u)
		},
	}
	if interactive {
		prompt.PromptForRedirectURL = func(ctx context.Context) (string, error) {
			return readLine(ctx, o.Stdin, o.Stderr, "If the browser cannot reach this machine, paste the URL it was redirected to: ")
		}
	}
	if err := SignInConn(sctx, c, creds, prompt, o.HTTPClient); err != nil {
		if errors.Is(err, ErrSignInCancelled) {
			return fail(fmt.Sprintf("Sign-in to MCP server %q was cancelled or not completed within %d seconds.", name, int(timeout.Round(time.Second)/time.Second)))
		}
		return fail(fmt.Sprintf("Sign-in to MCP server %q failed: %v", name, err))
	}
	c.Close()
	if _, err := c.Session(ctx); err != nil {
		return fail(fmt.Sprintf("Signed in, but MCP server %q failed to connect: %v", name, err))
	}
	log(fmt.Sprintf("Signed in to MCP server %q (%d tools).", name, len(c.Tools())))
	return 0
}

// readLine asks on out and reads one line of in; it gives up (with
// ErrSignInCancelled) when ctx is done. An EOF answers "".
func readLine(ctx context.Context, in io.Reader, out io.Writer, question string) (string, error) {
	if out != nil {
		fmt.Fprint(out, question)
	}
	line := make(chan string, 1)
	go func() {
		var b []byte
		buf := make([]byte, 1)
		for {
			n, err := in.Read(buf)
			if n > 0 {
				if buf[0] == '\n' {
					break
				}
				b = append(b, buf[0])
			}
			if err != nil {
				break
			}
		}
		line <- strings.TrimRight(string(b), "\r")
	}()
	select {
	case <-ctx.Done():
		return "", ErrSignInCancelled
	case l := <-line:
		return l, nil
	}
}

func hasAuthorization(s *Server) bool {
	for _, kv := range s.Headers {
		if strings.EqualFold(kv[0], "authorization") {
			return true
		}
	}
	return false
}

func slicesContains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

type parsedCLI struct {
	positional []string
	values     map[string]string
	lists      map[string][]string
}

// parseCLI reads --name value options: "--" ends them, as does reaching
// maxPositionals positional arguments (a stdio command's own options
// pass through). -l is --local.
func parseCLI(args []string, known map[string]string, fail func(string) int, maxPositionals int) (parsedCLI, bool) {
	p := parsedCLI{values: map[string]string{}, lists: map[string][]string{}}
	for i := 0; i < len(args); i++ {
		typed := args[i]
		arg := typed
		if arg == "-l" {
			arg = "--local"
		}
		if arg == "--" || (maxPositionals >= 0 && len(p.positional) >= maxPositionals) {
			if arg == "--" {
				i++
			}
			p.positional = append(p.positional, args[i:]...)
			break
		}
		if !strings.HasPrefix(arg, "--") {
			p.positional = append(p.positional, arg)
			continue
		}
		name := arg[2:]
		kind, ok := known[name]
		if !ok {
			fail(fmt.Sprintf("Unknown option %s.\n%s", typed, helpHint))
			return p, false
		}
		if kind == "flag" {
			p.values[name] = "true"
			continue
		}
		if i+1 >= len(args) {
			fail(arg + " needs a value.")
			return p, false
		}
		i++
		if kind == "list" {
			p.lists[name] = append(p.lists[name], args[i])
		} else {
			p.values[name] = args[i]
		}
	}
	return p, true
}

func parsePairs(option string, pairs []string, fail func(string) int) (jsonx.Object, bool) {
	o := jsonx.Object{}
	for _, pair := range pairs {
		i := strings.Index(pair, "=")
		if i <= 0 {
			fail(fmt.Sprintf("--%s expects KEY=VALUE, got %q.", option, pair))
			return nil, false
		}
		o = o.Put(pair[:i], pair[i+1:])
	}
	return o, true
}

func cliAdd(args []string, projectConfig string, o CLIOptions, log func(string), fail func(string) int) int {
	usage := "Usage: pi mcp add <server> [options] (--url <url> | -- <command> [args...])\n" + helpHint
	p, ok := parseCLI(args, map[string]string{
		"local": "flag", "url": "value", "env": "list", "cwd": "value", "header": "list",
		"bearer-token-env-var": "value", "oauth-client-id": "value", "oauth-client-secret": "value",
		"oauth-callback-port": "value", "oauth-client-name": "value", "oauth-client-registration": "value",
		"exposure": "value", "description": "value",
	}, fail, 2)
	if !ok {
		return 1
	}
	if len(p.positional) == 0 {
		return fail(usage)
	}
	name, command := p.positional[0], p.positional[1:]
	url, hasURL := p.values["url"]
	if hasURL == (len(command) > 0) {
		return fail(usage)
	}
	has := func(k string) bool {
		_, v := p.values[k]
		_, l := p.lists[k]
		return v || l
	}
	httpOnly := []string{"header", "bearer-token-env-var", "oauth-client-id", "oauth-client-secret", "oauth-callback-port", "oauth-client-name", "oauth-client-registration"}
	stdioOnly := []string{"env", "cwd"}
	misplaced, where := stdioOnly, "stdio servers"
	if !hasURL {
		misplaced, where = httpOnly, "HTTP servers (--url)"
	}
	for _, k := range misplaced {
		if has(k) {
			return fail(fmt.Sprintf("--%s only applies to %s.", k, where))
		}
	}
	entry := jsonx.Object{}
	if hasURL {
		headers, ok := parsePairs("header", p.lists["header"], fail)
		if !ok {
			return 1
		}
		if b, ok := p.values["bearer-token-env-var"]; ok {
			headers = headers.Put("Authorization", "Bearer ${"+b+"}")
		}
		oauth := jsonx.Object{}
		for _, kv := range [][2]string{{"oauth-client-id", "clientId"}, {"oauth-client-secret", "clientSecret"}, {"oauth-callback-port", "callbackPort"}, {"oauth-client-name", "clientName"}, {"oauth-client-registration", "clientRegistration"}} {
			v, ok := p.values[kv[0]]
			if !ok {
				continue
			}
			if kv[1] == "callbackPort" {
				if n, err := strconv.ParseFloat(v, 64); err == nil {
					oauth = oauth.Put(kv[1], json.Number(strconv.FormatFloat(n, 'f', -1, 64)))
					continue
				}
				return fail("oauth.callbackPort must be a port number")
			}
			oauth = oauth.Put(kv[1], v)
		}
		entry = entry.Set("url", url)
		if len(headers) > 0 {
			entry = entry.Set("headers", headers)
		}
		if len(oauth) > 0 {
			entry = entry.Set("oauth", oauth)
		}
	} else {
		env, ok := parsePairs("env", p.lists["env"], fail)
		if !ok {
			return 1
		}
		entry = entry.Set("command", command[0])
		if len(command) > 1 {
			a := make([]any, len(command)-1)
			for i, c := range command[1:] {
				a[i] = c
			}
			entry = entry.Set("args", a)
		}
		if len(env) > 0 {
			entry = entry.Set("env", env)
		}
		if c, ok := p.values["cwd"]; ok {
			entry = entry.Set("cwd", c)
		}
	}
	if e, ok := p.values["exposure"]; ok {
		entry = entry.Set("exposure", e)
	}
	if d, ok := p.values["description"]; ok {
		entry = entry.Set("description", d)
	}
	s, msg := Validate(name, entry)
	if msg != "" {
		return fail(msg)
	}
	_, project := p.values["local"]
	path, scope := GlobalPath(o.AgentDir), "global"
	if project {
		path, scope = projectConfig, "project"
	}
	replaced, err := AddServer(path, name, s.Config)
	if err != nil {
		return fail(fmt.Sprintf("Could not update %s: %v", path, err))
	}
	verb := "Added"
	if replaced {
		verb = "Replaced"
	}
	log(fmt.Sprintf("%s %s MCP server %q in %s.", verb, scope, name, path))
	if project {
		if trusted, _, _ := config.NewTrust(o.AgentDir).Get(o.Cwd); !trusted {
			log(fmt.Sprintf("The project is not trusted, so %s is ignored until you start pi in the project and trust it.", path))
		}
	}
	check := "Check it with: pi mcp list"
	if s.UsesOAuth() {
		check += ". If it requires sign-in: pi mcp login " + name
	}
	log(check)
	return 0
}

func cliRemove(args []string, projectConfig string, o CLIOptions, log func(string), fail func(string) int) int {
	p, ok := parseCLI(args, map[string]string{"local": "flag"}, fail, -1)
	if !ok {
		return 1
	}
	if len(p.positional) != 1 {
		return fail("Usage: pi mcp remove <server> [-l]\n" + helpHint)
	}
	name := p.positional[0]
	_, project := p.values["local"]
	path, scope := GlobalPath(o.AgentDir), "global"
	if project {
		path, scope = projectConfig, "project"
	}
	removed, err := RemoveServer(path, name)
	if err != nil {
		return fail(fmt.Sprintf("Could not update %s: %v", path, err))
	}
	if removed {
		log(fmt.Sprintf("Removed %s MCP server %q from %s.", scope, name, path))
		return 0
	}
	msg := fmt.Sprintf("No %s MCP server named %q in %s.", scope, name, path)
	if other := Load(o.AgentDir, o.Cwd, true).Find(name); other != nil && other.Scope != scope {
		hint := "; omit --local"
		if other.Scope == "project" {
			hint = "; use --local"
		}
		msg += fmt.Sprintf(" It is defined in %s%s.", other.Source, hint)
	}
	return fail(msg)
}

// report is one server in pi mcp list, in the reference's field order.
type report struct {
	s            *Server
	state, err   string
	tools        []string
	toolExposure jsonx.Object
	resources    bool
}

func (r report) json() jsonx.Object {
	o := jsonx.Object{{Key: "name", Value: r.s.Name}, {Key: "scope", Value: r.s.Scope}, {Key: "source", Value: r.s.Source}}
	if r.s.Override != "" {
		o = o.Set("override", r.s.Override)
	}
	tools := make([]any, len(r.tools))
	for i, t := range r.tools {
		tools[i] = t
	}
	o = o.Set("enabled", r.s.Enabled).Set("exposure", r.s.Exposure).Set("transport", r.s.Transport())
	if p := r.s.AuthProvider(); p != "" {
		o = o.Set("authProvider", p)
	}
	o = o.Set("state", r.state).Set("tools", tools)
	if len(r.toolExposure) > 0 {
		o = o.Set("toolExposure", r.toolExposure)
	}
	if r.resources {
		o = o.Set("resources", true)
	}
	if r.err != "" {
		o = o.Set("error", r.err)
	}
	return o
}

func cliList(ctx context.Context, cfg *Config, asJSON bool, untrusted string, o CLIOptions, log func(string)) int {
	reports := make([]report, len(cfg.Servers))
	logFile := NewLog(o.AgentDir)
	creds := NewCredentialStore(o.AgentDir)
	var wg sync.WaitGroup
	for i, s := range cfg.Servers {
		reports[i] = report{s: s, state: StateDisabled}
		if !s.Enabled {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := NewConn(s, o.Cwd, logFile, nil)
			c.UseAuth(ConnAuth{Store: creds, ProviderToken: o.ProviderToken, HTTPClient: o.HTTPClient})
			_, _ = c.Session(ctx)
			r := &reports[i]
			r.state, r.err = c.State()
			if r.state == StateConnected || r.state == StateNeedsAuth {
				r.err = ""
			}
			for _, t := range c.Tools() {
				r.tools = append(r.tools, t.Name)
				if e := s.ToolExposureOf(t.Name); e != s.Exposure {
					r.toolExposure = r.toolExposure.Set(t.Name, e)
				}
			}
			r.resources = c.HasResources()
			c.Close()
		}()
	}
	wg.Wait()
	failed := len(cfg.Errors) > 0
	for _, r := range reports {
		if r.s.Enabled && r.state != StateConnected {
			failed = true
		}
	}
	code := 0
	if failed {
		code = 1
	}
	if asJSON {
		servers := make([]any, len(reports))
		for i, r := range reports {
			servers[i] = r.json()
		}
		errs := make([]any, len(cfg.Errors))
		for i, e := range cfg.Errors {
			errs[i] = e
		}
		out := jsonx.Object{{Key: "servers", Value: servers}, {Key: "errors", Value: errs}}
		if untrusted != "" {
			out = out.Set("note", untrusted)
		}
		b, err := jsonx.Marshal(out)
		if err == nil {
			var buf bytes.Buffer
			if json.Indent(&buf, b, "", "  ") == nil {
				b = buf.Bytes()
			}
		}
		log(string(b))
		return code
	}
	if len(reports) == 0 && len(cfg.Errors) == 0 {
		log(fmt.Sprintf("No MCP servers configured. Add them to %s or .pi/mcp.json.", GlobalPath(o.AgentDir)))
	}
	for _, r := range reports {
		state := r.state
		switch r.state {
		case StateConnected:
			plural := "s"
			if len(r.tools) == 1 {
				plural = ""
			}
			state = fmt.Sprintf("connected, %d tool%s", len(r.tools), plural)
		case StateNeedsAuth:
			state = "needs sign-in"
		}
		log(fmt.Sprintf("%s: %s (%s, %s)", r.s.Name, state, r.s.Exposure, r.s.Scope))
		log("  " + r.s.Transport())
		if r.s.Override != "" {
			log("  project override: " + r.s.Override)
		}
		if r.state == StateNeedsAuth {
			if p := r.s.AuthProvider(); p != "" {
				log("  sign in with: /login " + p + " in pi")
			} else {
				log("  sign in with: pi mcp login " + r.s.Name)
			}
		}
		if len(r.tools) > 0 {
			names := make([]string, len(r.tools))
			for i, t := range r.tools {
				names[i] = t
				if v, ok := r.toolExposure.Get(t); ok {
					names[i] = fmt.Sprintf("%s [%s]", t, v)
				}
			}
			log("  tools: " + strings.Join(names, ", "))
		}
		if r.resources {
			log("  offers resources")
		}
		if r.err != "" {
			log("  " + strings.ReplaceAll(r.err, "\n", "\n  "))
		}
	}
	for _, e := range cfg.Errors {
		log("config error: " + e)
	}
	if untrusted != "" {
		log(untrusted)
	}
	return code
}
