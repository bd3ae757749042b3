package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/pi-go/pi/e2e/authref"
)

// The reference's credential commands and Radius sign-in, recorded against
// the fake gateway of e2e/authref (e2e/authref/record.sh re-records them):
// each case is an agent directory and a sequence of commands; each command's
// stdout, stderr and exit code, the gateway's requests and the files left in
// the agent directory must be the reference's.
//
// The reference ran with its clock fixed at refClock (authref/fixclock.mjs),
// so the expiry and checkedAt it wrote are exact; ours are checked to lie
// within the run and then compared as that clock would have written them.

const refClock = 1767225600000 // 2026-01-01T00:00:00Z

// Stored credentials that need no clock: one fresh until 2100, one expired
// in 2001.
const (
	freshExpiry   = 4102444800000
	expiredExpiry = 1000000000000
)

type authStep struct {
	Args []string `json:"args"`
	// Env adds variables; PTY runs the step on a terminal (logins need
	// one); Type is typed once Expect shows on the terminal; Browser
	// plays the browser: it follows the sign-in URL printed.
	Env     []string `json:"env,omitempty"`
	PTY     bool     `json:"pty,omitempty"`
	Expect  string   `json:"expect,omitempty"`
	Type    string   `json:"type,omitempty"`
	Browser bool     `json:"browser,omitempty"`
	// TypeFn, when set, makes what is typed from the output so far
	// (a pasted code that must carry the sign-in's state).
	TypeFn func(out string) string `json:"-"`
}

type authCase struct {
	name string
	// auth and models are the files the agent directory starts with;
	// GATEWAY stands for the fake gateway's URL.
	auth, models string
	steps        []authStep
	serial       bool // uses the fixed callback port 1456
	// builtin: a built-in provider's sign-in, recorded from the
	// reference only (internal/authcmd compares ours with it).
	builtin bool
}

type authStepResult struct {
	Args   []string `json:"args"`
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
	Code   int      `json:"code"`
}

type authGolden struct {
	Steps    []authStepResult  `json:"steps"`
	Requests []string          `json:"requests"`
	Opened   []string          `json:"opened"`
	Files    map[string]string `json:"files"`
}

const radiusModels = `{"providers":{"myradius":{"name":"My Radius","baseUrl":"GATEWAY/v1","oauth":"radius"}}}`

func radiusAuth(access, refresh string, expires int64) string {
	return fmt.Sprintf(`{"myradius":{"type":"oauth","access":%q,"refresh":%q,"expires":%d,"scope":"gateway offline_access"},"openai":{"type":"api_key","key":"sk-stored-openai"}}`, access, refresh, expires)
}

func anthropicAuth(refresh string, expires int64) string {
	return fmt.Sprintf(`{"anthropic":{"type":"oauth","refresh":%q,"access":%q,"expires":%d}}`, refresh, authref.AnthropicAccess, expires)
}

func step(args ...string) authStep { return authStep{Args: args} }

func authCases() []authCase {
	fresh := radiusAuth(authref.Access1, authref.Refresh1, freshExpiry)
	expired := radiusAuth(authref.Access1, authref.Refresh1, expiredExpiry)
	revoked := radiusAuth(authref.Access1, authref.RevokedRefresh, expiredExpiry)
	cmdModels := `{"providers":{"myradius":{"name":"My Radius","baseUrl":"GATEWAY/v1","oauth":"radius"},` +
		`"cmdp":{"baseUrl":"GATEWAY/v1","api":"openai-completions","apiKey":"!echo cmd-key-0001","models":[{"id":"cmd-model"}]},` +
		`"badcmd":{"baseUrl":"GATEWAY/v1","api":"openai-completions","apiKey":"!exit 3","models":[{"id":"bad-model"}]}}}`
	return []authCase{
		{name: "login-device", models: radiusModels, steps: []authStep{
			{Args: []string{"auth", "login", "myradius", "--no-browser"}, PTY: true},
			step("--list-models", "myradius"),
			step("auth", "check", "--provider", "myradius", "--json"),
			step("auth", "print-bearer-token", "--model", "myradius/team-deep"),
		}},
		{name: "login-browser", models: radiusModels, serial: true, steps: []authStep{
			{Args: []string{"auth", "login", "myradius"}, PTY: true, Browser: true},
			step("--list-models", "myradius"),
		}},
		{name: "login-api-key", models: radiusModels, steps: []authStep{
			{Args: []string{"auth", "login", "myradius", "--api-key"}, PTY: true, Expect: "Enter Radius API key", Type: authref.APIKey + "\r"},
			step("auth", "print-api-key", "--provider", "myradius"),
			step("--list-models", "myradius"),
		}},
		{name: "oauth-fresh", auth: fresh, models: radiusModels, steps: []authStep{
			step("auth", "print-bearer-token", "--provider", "myradius"),
			step("auth", "check", "--provider", "myradius", "--json", "--credentials"),
			step("auth", "check", "--provider", "myradius"),
			step("auth", "print-api-key", "--provider", "myradius"),
			step("auth", "print-api-key", "--provider", "openai"),
			step("auth", "check", "--provider", "openai", "--json", "--credentials"),
			step("auth", "print-bearer-token", "--provider", "openai"),
		}},
		{name: "oauth-expired-no-refresh", auth: expired, models: radiusModels, steps: []authStep{
			step("auth", "check", "--provider", "myradius", "--json", "--no-refresh"),
			step("auth", "check", "--provider", "myradius", "--no-refresh", "--credentials"),
		}},
		{name: "oauth-expired-check", auth: expired, models: radiusModels, steps: []authStep{
			step("auth", "check", "--provider", "myradius", "--json", "--credentials"),
			step("auth", "print-bearer-token", "--provider", "myradius"),
		}},
		{name: "oauth-expired-print", auth: expired, models: radiusModels, steps: []authStep{
			step("auth", "print-bearer-token", "--provider", "myradius"),
		}},
		{name: "oauth-revoked", auth: revoked, models: radiusModels, steps: []authStep{
			step("auth", "check", "--provider", "myradius", "--json"),
			step("auth", "print-bearer-token", "--provider", "myradius"),
			step("auth", "check", "--provider", "myradius", "--no-refresh"),
		}},
		{name: "env-keys", models: radiusModels, steps: []authStep{
			{Args: []string{"auth", "print-api-key", "--provider", "anthropic"}, Env: []string{"ANTHROPIC_API_KEY=sk-ant-env-0001"}},
			{Args: []string{"auth", "check", "--provider", "anthropic", "--json", "--credentials"}, Env: []string{"ANTHROPIC_API_KEY=sk-ant-env-0001"}},
			{Args: []string{"auth", "print-bearer-token", "--provider", "anthropic"}, Env: []string{"ANTHROPIC_API_KEY=sk-ant-env-0001"}},
			{Args: []string{"auth", "print-api-key", "--provider", "myradius"}, Env: []string{"RADIUS_API_KEY=" + authref.APIKey}},
			{Args: []string{"auth", "check", "--provider", "myradius", "--json"}, Env: []string{"RADIUS_API_KEY=" + authref.APIKey}},
		}},
		{name: "command-keys", models: cmdModels, steps: []authStep{
			step("auth", "print-api-key", "--provider", "cmdp"),
			step("auth", "check", "--provider", "cmdp", "--json", "--credentials"),
			step("auth", "check", "--provider", "badcmd", "--json"),
			step("auth", "check", "--provider", "badcmd", "--no-refresh"),
			step("auth", "print-api-key", "--provider", "badcmd"),
		}},
		{name: "missing", models: radiusModels, steps: []authStep{
			step("auth", "check", "--provider", "anthropic", "--json"),
			step("auth", "check", "--provider", "myradius"),
			step("auth", "print-api-key", "--provider", "anthropic"),
			step("auth", "print-bearer-token", "--provider", "myradius"),
			step("auth", "check", "--provider", "nosuch", "--json"),
			step("auth", "print-api-key", "--provider", "nosuch"),
		}},
	}
}

// TestAuthMatchesReference runs every case with our binary and compares
// with the recorded reference; with PI_AUTH_REFERENCE set to the
// reference's command line it records the goldens instead.
func TestAuthMatchesReference(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the recordings use a Linux pty and xdg-open")
	}
	t.Parallel()
	ref := strings.Fields(os.Getenv("PI_AUTH_REFERENCE"))
	for _, c := range authCases() {
		t.Run(c.name, func(t *testing.T) {
			if !c.serial {
				t.Parallel()
			}
			golden := filepath.Join("testdata", "authref", c.name+".json")
			if len(ref) > 0 {
				_, file, _, _ := runtime.Caller(0)
				clock := filepath.Join(filepath.Dir(file), "authref", "fixclock.mjs")
				cmd := append([]string{ref[0], "--import", clock}, ref[1:]...)
				got, _, _ := runAuthCase(t, c, cmd, true)
				var b bytes.Buffer
				enc := json.NewEncoder(&b)
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				if err := enc.Encode(got); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (record with e2e/authref/record.sh)", err)
			}
			var want authGolden
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			got, lo, hi := runAuthCase(t, c, []string{piBin}, false)
			compareAuthGolden(t, got, want, lo, hi)
		})
	}
}

// runAuthCase runs the case's steps with the command and returns what it
// saw, normalized (the gateway's URL, the agent directory), and the clock
// bounds of the run.
func runAuthCase(t *testing.T, c authCase, command []string, reference bool) (authGolden, int64, int64) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	agentDir := filepath.Join(home, ".pi", "agent")
	bin := filepath.Join(root, "bin")
	for _, d := range []string{agentDir, bin, filepath.Join(root, "proj")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The browser opener records what it was asked to open.
	opened := filepath.Join(root, "opened.txt")
	opener := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + opened + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(opener), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gw := &authref.Gateway{URL: "http://" + ln.Addr().String()}
	srv := &http.Server{Handler: gw}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	// The built-in sign-ins' servers, which only the reference reaches
	// (through redirect.mjs): our binary has no such redirection, so its
	// built-in flows are compared in internal/authcmd.
	pln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	prov := &authref.Providers{}
	psrv := &http.Server{Handler: prov}
	go func() { _ = psrv.Serve(pln) }()
	t.Cleanup(func() { _ = psrv.Close() })
	provURL := "http://" + pln.Addr().String()
	var hosts []string
	for h, p := range authref.Hosts {
		hosts = append(hosts, h+"="+p)
	}
	extraEnv := []string{"PI_AUTHREF_URL=" + provURL, "PI_AUTHREF_HOSTS=" + strings.Join(hosts, ",")}
	write := func(name, content string) {
		if content == "" {
			return
		}
		content = strings.ReplaceAll(content, "GATEWAY", gw.URL)
		if err := os.WriteFile(filepath.Join(agentDir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("auth.json", c.auth)
	write("models.json", c.models)
	norm := func(s string) string {
		s = strings.ReplaceAll(s, gw.URL, "http://GATEWAY")
		s = strings.ReplaceAll(s, provURL, "http://PROVIDERS")
		return strings.ReplaceAll(s, agentDir, "AGENT")
	}
	var out authGolden
	lo := time.Now().UnixMilli()
	for _, st := range c.steps {
		if c.builtin {
			st.Env = append(st.Env, extraEnv...)
		}
		r := runAuthStep(t, st, command, root, home, bin, gw.URL)
		out.Steps = append(out.Steps, authStepResult{Args: st.Args, Stdout: normState(norm(r.stdout)), Stderr: normState(norm(r.stderr)), Code: r.code})
	}
	hi := time.Now().UnixMilli()
	for _, l := range append(gw.Log(), prov.Log()...) {
		out.Requests = append(out.Requests, norm(l))
	}
	if b, err := os.ReadFile(opened); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			out.Opened = append(out.Opened, normState(norm(l)))
		}
	}
	out.Files = map[string]string{}
	for _, name := range []string{"auth.json", "models-store.json"} {
		if b, err := os.ReadFile(filepath.Join(agentDir, name)); err == nil {
			out.Files[name] = norm(string(b))
		}
	}
	for i, l := range out.Requests {
		out.Requests[i] = normState(l)
	}
	return out, lo, hi
}

// normState replaces the sign-in's random values (PKCE challenge and
// verifier, state) with placeholders.
func normState(s string) string {
	re := regexp.MustCompile(`(code_challenge|code_verifier|state|nonce)=[A-Za-z0-9_%.~-]+`)
	// ChatGPT names the installation by its device id (settings.json).
	s = regexp.MustCompile(`urn(:|%3A)uuid(:|%3A)[0-9a-f-]{36}`).ReplaceAllString(s, "urn${1}uuid${2}DEVICE")
	s = re.ReplaceAllString(s, "$1=RANDOM")
	// OpenRouter's callback listens on any free port, under a random path.
	s = regexp.MustCompile(`127\.0\.0\.1(:|%3A)\d+((/|%2F)oauth(/|%2F)callback(/|%2F))[0-9a-f-]{36}`).ReplaceAllString(s, "127.0.0.1${1}PORT${2}RANDOM")
	// A pasted "code#state", and JSON bodies carrying the random values.
	s = regexp.MustCompile(`#[A-Za-z0-9_-]{20,}`).ReplaceAllString(s, "#RANDOM")
	return regexp.MustCompile(`"(state|code_verifier)":"[^"]*"`).ReplaceAllString(s, `"$1":"RANDOM"`)
}

func runAuthStep(t *testing.T, st authStep, command []string, root, home, bin, gateway string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, command[0], append(command[1:len(command):len(command)], st.Args...)...)
	c.Dir = filepath.Join(root, "proj")
	c.Env = append([]string{
		"HOME=" + home, "PATH=" + bin + ":" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir(),
		"PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0", "TERM=dumb", "NO_COLOR=1", "LANG=C.UTF-8",
	}, st.Env...)
	if !st.PTY {
		// Logins refresh the model list over the network; the other
		// commands never need it.
		c.Env = append(c.Env, "PI_OFFLINE=1")
	}
	var stdout, stderr bytes.Buffer
	c.Stderr = &stderr
	if !st.PTY {
		c.Stdout = &stdout
		err := c.Run()
		return result{stdout.String(), stderr.String(), exitCode(t, err)}
	}
	f, err := pty.StartWithSize(c, &pty.Winsize{Cols: 200, Rows: 50})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			mu.Lock()
			stdout.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	seen := func(s string) (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		return stdout.String(), strings.Contains(stdout.String(), s)
	}
	waitFor := func(s string) string {
		for ctx.Err() == nil {
			if all, ok := seen(s); ok {
				return all
			}
			time.Sleep(20 * time.Millisecond)
		}
		all, _ := seen(s)
		t.Fatalf("%q never showed; output:\n%s", s, all)
		return ""
	}
	if st.Expect != "" {
		all := waitFor(st.Expect)
		typed := st.Type
		if st.TypeFn != nil {
			typed = st.TypeFn(all)
		}
		if _, err := f.Write([]byte(typed)); err != nil {
			t.Fatal(err)
		}
	}
	if st.Browser {
		all := waitFor(gateway + "/authorize?")
		i := strings.Index(all, gateway+"/authorize?")
		u := all[i:]
		u = u[:strings.IndexAny(u, " \r\n")]
		resp, err := http.Get(u)
		if err != nil {
			t.Fatalf("the browser could not follow %s: %v", u, err)
		}
		resp.Body.Close()
	}
	err = c.Wait()
	<-done
	text := strings.ReplaceAll(stdout.String(), "\r\n", "\n")
	return result{text, stderr.String(), exitCode(t, err)}
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// clockValue matches the stored values a clock decides.
var clockValue = regexp.MustCompile(`"(expires|checkedAt)": (\d{13})`)

// atRefClock rewrites our clock-derived values (those within [lo, hi]
// once the token lifetime less the reference's one-minute skew is taken
// off an expiry) as the reference's fixed clock would have written them.
func atRefClock(t *testing.T, s string, lo, hi int64) string {
	return clockValue.ReplaceAllStringFunc(s, func(m string) string {
		sub := clockValue.FindStringSubmatch(m)
		v, _ := strconv.ParseInt(sub[2], 10, 64)
		off := int64(0)
		if sub[1] == "expires" {
			off = authref.ExpiresIn*1000 - 60_000
		}
		if v == freshExpiry || v == expiredExpiry {
			return m
		}
		if v-off < lo || v-off > hi {
			t.Errorf("%s %d is not from this run's clock [%d, %d]", sub[1], v, lo+off, hi+off)
			return m
		}
		return fmt.Sprintf(`"%s": %d`, sub[1], refClock+off)
	})
}

func compareAuthGolden(t *testing.T, got, want authGolden, lo, hi int64) {
	t.Helper()
	for i := range max(len(got.Steps), len(want.Steps)) {
		if i >= len(got.Steps) || i >= len(want.Steps) {
			t.Errorf("%d steps, the reference's %d", len(got.Steps), len(want.Steps))
			break
		}
		if g, w := got.Steps[i], want.Steps[i]; fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("pi %s:\n got: exit %d\nstdout %q\nstderr %q\nwant: exit %d\nstdout %q\nstderr %q",
				strings.Join(w.Args, " "), g.Code, g.Stdout, g.Stderr, w.Code, w.Stdout, w.Stderr)
		}
	}
	if g, w := strings.Join(got.Requests, "\n"), strings.Join(want.Requests, "\n"); g != w {
		t.Errorf("gateway requests:\n got:\n%s\nwant:\n%s", g, w)
	}
	if g, w := strings.Join(got.Opened, "\n"), strings.Join(want.Opened, "\n"); g != w {
		t.Errorf("browser opened:\n got: %s\nwant: %s", g, w)
	}
	for _, name := range []string{"auth.json", "models-store.json"} {
		g := atRefClock(t, got.Files[name], lo, hi)
		if w := want.Files[name]; g != w {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", name, g, w)
		}
	}
	// Whatever the gateway echoed, no token reaches an output.
	for _, s := range got.Steps {
		for _, secret := range []string{authref.Refresh1, authref.RevokedRefresh, authref.Refresh2} {
			if strings.Contains(s.Stdout+s.Stderr, secret) {
				t.Errorf("pi %s printed the refresh token %s", strings.Join(s.Args, " "), secret)
			}
		}
	}
}

// builtinCases are the built-in sign-ins recorded from the reference
// (through redirect.mjs) for internal/authcmd's TestLoginMatchesReference.
func builtinCases() []authCase {
	return []authCase{
		{name: "xai", builtin: true, steps: []authStep{{Args: []string{"auth", "login", "xai"}, PTY: true}}},
		{name: "github-copilot", builtin: true, steps: []authStep{
			{Args: []string{"auth", "login", "github-copilot"}, PTY: true, Expect: "GitHub Enterprise URL/domain", Type: "\r"},
		}},
		{name: "openai-codex", builtin: true, steps: []authStep{{Args: []string{"auth", "login", "openai-codex", "--no-browser"}, PTY: true}}},
		{name: "kimi-coding", builtin: true, steps: []authStep{{Args: []string{"auth", "login", "kimi-coding"}, PTY: true}}},
		{name: "meta", builtin: true, steps: []authStep{{Args: []string{"auth", "login", "meta", "--no-browser"}, PTY: true}}},
		{name: "openrouter", builtin: true, steps: []authStep{
			{Args: []string{"auth", "login", "openrouter"}, PTY: true, Expect: "paste the authorization code", Type: "openrouter-code-0001\r"},
		}},
		{name: "openai", builtin: true, serial: true, steps: []authStep{
			{Args: []string{"auth", "login", "openai"}, PTY: true, Expect: "paste the final redirect URL here:", TypeFn: func(out string) string {
				m := regexp.MustCompile(`[?&]state=([A-Za-z0-9_-]+)`).FindStringSubmatch(out)
				if m == nil {
					return "\r"
				}
				return "http://127.0.0.1:1455/auth/callback?code=chatgpt-code-0001&state=" + m[1] + "&client_id=chatgpt-client-0001\r"
			}},
		}},
		{name: "anthropic-expired", builtin: true, auth: anthropicAuth(authref.AnthropicRefr, expiredExpiry), steps: []authStep{
			step("auth", "check", "--provider", "anthropic", "--json", "--no-refresh"),
			step("auth", "check", "--provider", "anthropic", "--no-refresh", "--credentials"),
			step("auth", "print-api-key", "--provider", "anthropic"),
			step("auth", "print-bearer-token", "--provider", "anthropic"),
			step("auth", "check", "--provider", "anthropic", "--json", "--credentials"),
		}},
		{name: "anthropic-fresh", builtin: true, auth: anthropicAuth(authref.AnthropicRefr, freshExpiry), steps: []authStep{
			step("auth", "print-bearer-token", "--provider", "anthropic"),
			step("auth", "print-bearer-token", "--model", "claude-opus-4-5"),
			step("auth", "check", "--provider", "anthropic"),
		}},
		{name: "anthropic-revoked", builtin: true, auth: anthropicAuth("sk-ant-ort01-SECRET-REVOKED", expiredExpiry), steps: []authStep{
			step("auth", "print-bearer-token", "--provider", "anthropic"),
			step("auth", "check", "--provider", "anthropic", "--json"),
			step("auth", "check", "--provider", "anthropic", "--no-refresh", "--json"),
		}},
		{name: "anthropic", builtin: true, steps: []authStep{
			{Args: []string{"auth", "login", "anthropic", "--no-browser"}, PTY: true, Expect: "Paste", TypeFn: func(out string) string {
				m := regexp.MustCompile(`[?&]state=([A-Za-z0-9_-]+)`).FindStringSubmatch(out)
				if m == nil {
					return "\r"
				}
				return authref.AnthropicCode + "#" + m[1] + "\r"
			}},
		}},
	}
}

// TestAuthRecordBuiltinFlows records the built-in sign-ins from the
// reference into internal/authcmd/testdata/ref-flows (record.sh runs it);
// without PI_AUTH_REFERENCE it has nothing to do.
func TestAuthRecordBuiltinFlows(t *testing.T) {
	ref := strings.Fields(os.Getenv("PI_AUTH_REFERENCE"))
	if len(ref) == 0 || runtime.GOOS != "linux" {
		t.Skip("records from the reference only (e2e/authref/record.sh)")
	}
	_, file, _, _ := runtime.Caller(0)
	preload := filepath.Join(filepath.Dir(file), "authref", "redirect.mjs")
	dir := filepath.Join(filepath.Dir(file), "..", "internal", "authcmd", "testdata", "ref-flows")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range builtinCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cmd := append([]string{ref[0], "--import", preload}, ref[1:]...)
			got, _, _ := runAuthCase(t, c, cmd, true)
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(got); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, c.name+".json"), b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
