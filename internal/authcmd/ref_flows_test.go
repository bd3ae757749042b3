package authcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/e2e/authref"
	"github.com/pi-go/pi/engine/config/login"
)

// refClock is the reference's clock during the recordings
// (e2e/authref/redirect.mjs).
var refClock = time.UnixMilli(1767225600000)

// echoTerm is a terminal that prints what the person types, as a pty
// echoes it, into the same output as the command's: the transcript reads
// as the reference's recorded terminal. answer makes each answer from the
// output so far.
type echoTerm struct {
	mu     sync.Mutex
	out    *strings.Builder
	answer func(out, prompt string) string
	opened []string
}

func (t *echoTerm) interactive() bool { return true }
func (t *echoTerm) question(_ context.Context, p string) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.out.WriteString(p)
	a := t.answer(t.out.String(), p)
	t.out.WriteString(a + "\n")
	return a, nil
}
func (t *echoTerm) secret(_ context.Context, p string) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.out.WriteString(p + "\n")
	return t.answer(t.out.String(), p), nil
}
func (t *echoTerm) openURL(u string) { t.opened = append(t.opened, u) }

// refFlow is a recording of e2e's TestAuthRecordBuiltinFlows.
type refFlow struct {
	Steps []struct {
		Args           []string
		Stdout, Stderr string
		Code           int
	}
	Requests []string
	Opened   []string
	Files    map[string]string
}

// TestLoginMatchesReference runs the built-in sign-ins the reference was
// recorded doing (testdata/ref-flows, re-recorded by e2e/authref/record.sh)
// against the same fake servers, with the same clock and the same typing:
// the terminal transcript, exit code, the servers' requests, what the
// browser was asked to open and auth.json must be the reference's bytes.
func TestLoginMatchesReference(t *testing.T) {
	t.Parallel()
	state := regexp.MustCompile(`[?&]state=([A-Za-z0-9_-]+)`)
	answers := map[string]func(out, prompt string) string{
		"xai":            func(string, string) string { return "" },
		"github-copilot": func(string, string) string { return "" },
		"openai-codex":   func(string, string) string { return "" },
		"kimi-coding":    func(string, string) string { return "" },
		"meta":           func(string, string) string { return "" },
		"openrouter":     func(string, string) string { return "openrouter-code-0001" },
		"openai": func(out, _ string) string {
			m := state.FindStringSubmatch(out)
			if m == nil {
				return ""
			}
			return "http://127.0.0.1:1455/auth/callback?code=chatgpt-code-0001&state=" + m[1] + "&client_id=chatgpt-client-0001"
		},
		"anthropic": func(out, _ string) string {
			m := state.FindStringSubmatch(out)
			if m == nil {
				return ""
			}
			return authref.AnthropicCode + "#" + m[1]
		},
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(filepath.Join("testdata", "ref-flows", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var want refFlow
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			prov := &authref.Providers{}
			srv := httptest.NewServer(prov)
			defer srv.Close()
			host := srv.URL + "/_host/"
			ep := &login.Endpoints{
				XAIAuthBase: host + "xai", GitHubBase: host + "github",
				CopilotTokenURL: host + "github/copilot_internal/v2/token", CopilotModelsBase: host + "copilot",
				AnthropicToken: host + "anthropic/v1/oauth/token", CodexAuthBase: host + "openai-auth",
				KimiHost: host + "kimi", MetaAuthBase: host + "meta-auth", MetaMintURL: host + "meta-api/muse-code/key",
				OpenRouterKeys: host + "openrouter/api/v1/auth/keys",
				OpenAIAuthBase: host + "openai-auth",
				Now:            func() time.Time { return refClock },
				Sleep:          func(context.Context, time.Duration) error { return nil },
			}
			dir := home(t, "", "")
			ep.DeviceID = deviceID(dir)
			var out, errb strings.Builder
			term := &echoTerm{out: &out, answer: answer}
			code := run(want.Steps[0].Args[1:], &env{stdout: &out, stderr: &errb, agentDir: dir, term: term, endpoints: ep})

			norm := func(s string) string {
				s = strings.ReplaceAll(s, "\r", "")
				// Codex's one base URL also makes the page and the
				// redirect URI it names: they are auth.openai.com's.
				s = strings.ReplaceAll(s, ep.CodexAuthBase, "https://auth.openai.com")
				s = strings.ReplaceAll(s, url.QueryEscape(ep.CodexAuthBase), url.QueryEscape("https://auth.openai.com"))
				s = strings.ReplaceAll(s, dir, "AGENT")
				s = regexp.MustCompile(`(code_challenge|code_verifier|state|nonce)=[A-Za-z0-9_%.~-]+`).ReplaceAllString(s, "$1=RANDOM")
				s = regexp.MustCompile(`urn(:|%3A)uuid(:|%3A)[0-9a-f-]{36}`).ReplaceAllString(s, "urn${1}uuid${2}DEVICE")
				s = regexp.MustCompile(`127\.0\.0\.1(:|%3A)\d+((/|%2F)oauth(/|%2F)callback(/|%2F))[0-9a-f-]{36}`).ReplaceAllString(s, "127.0.0.1${1}PORT${2}RANDOM")
				s = regexp.MustCompile(`#[A-Za-z0-9_-]{20,}`).ReplaceAllString(s, "#RANDOM")
				return regexp.MustCompile(`"(state|code_verifier)":"[^"]*"`).ReplaceAllString(s, `"$1":"RANDOM"`)
			}
			// The reference also refreshes the provider's remote catalog
			// after a login; offline (as recorded) that fails and it says
			// so. This build ships the catalog, so that line is the
			// recording's environment, not a difference.
			wantOut := strings.ReplaceAll(want.Steps[0].Stdout, "The "+providerLabel(name)+" model catalog could not be refreshed; pi retries on next start.\n", "")
			if got, w := norm(out.String()), norm(wantOut); got != w || code != want.Steps[0].Code || errb.String() != want.Steps[0].Stderr {
				t.Errorf("exit %d, stdout:\n%s\nstderr: %s\nwant exit %d, stdout:\n%s\nstderr: %s", code, got, errb.String(), want.Steps[0].Code, w, want.Steps[0].Stderr)
			}
			var reqs []string
			for _, l := range prov.Log() {
				reqs = append(reqs, norm(l))
			}
			if g, w := strings.Join(reqs, "\n"), strings.Join(want.Requests, "\n"); g != w {
				t.Errorf("requests:\n%s\nwant:\n%s", g, w)
			}
			var opened []string
			for _, u := range term.opened {
				opened = append(opened, norm(u))
			}
			if g, w := strings.Join(opened, "\n"), strings.Join(want.Opened, "\n"); g != w {
				t.Errorf("opened %q, want %q", g, w)
			}
			auth, _ := os.ReadFile(filepath.Join(dir, "auth.json"))
			if g, w := string(auth), want.Files["auth.json"]; g != w {
				t.Errorf("auth.json:\n%s\nwant:\n%s", g, w)
			}
		})
	}
}

func providerLabel(id string) string {
	return map[string]string{"xai": "xAI", "github-copilot": "GitHub Copilot", "anthropic": "Anthropic", "openai-codex": "OpenAI Codex",
		"kimi-coding": "Kimi For Coding", "meta": "Meta", "openrouter": "OpenRouter", "openai": "OpenAI"}[id]
}

// TestCredentialCommandsMatchReference runs the credential commands the
// reference was recorded running against a built-in OAuth provider
// (Anthropic, whose token endpoint the recording reached through
// redirect.mjs): fresh, expired (with and without --no-refresh) and
// revoked logins. Each command's stdout, stderr and exit code, the token
// requests and auth.json afterwards must be the reference's; a refreshed
// expiry, counted from this run's clock, must lie within the run.
func TestCredentialCommandsMatchReference(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"anthropic-fresh", "anthropic-expired", "anthropic-revoked"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(filepath.Join("testdata", "ref-flows", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var want refFlow
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			// The starting auth.json is what the reference's recording
			// started from: its refresh token and expiry tell the case.
			start := map[string]string{
				"anthropic-fresh":   `{"anthropic":{"type":"oauth","refresh":"` + authref.AnthropicRefr + `","access":"` + authref.AnthropicAccess + `","expires":4102444800000}}`,
				"anthropic-expired": `{"anthropic":{"type":"oauth","refresh":"` + authref.AnthropicRefr + `","access":"` + authref.AnthropicAccess + `","expires":1000000000000}}`,
				"anthropic-revoked": `{"anthropic":{"type":"oauth","refresh":"sk-ant-ort01-SECRET-REVOKED","access":"` + authref.AnthropicAccess + `","expires":1000000000000}}`,
			}[name]
			prov := &authref.Providers{}
			srv := httptest.NewServer(prov)
			defer srv.Close()
			dir := home(t, start, "")
			lo := time.Now().UnixMilli()
			for i, st := range want.Steps {
				got := runIn(dir, nil, withTokenURL(srv.URL+"/_host/anthropic/v1/oauth/token"), nil, st.Args[1:]...)
				if got.code != st.Code || got.stdout != st.Stdout || got.stderr != st.Stderr {
					t.Errorf("step %d pi %s:\n got exit %d stdout %q stderr %q\nwant exit %d stdout %q stderr %q",
						i, strings.Join(st.Args, " "), got.code, got.stdout, got.stderr, st.Code, st.Stdout, st.Stderr)
				}
			}
			hi := time.Now().UnixMilli()
			if g, w := strings.Join(prov.Log(), "\n"), strings.Join(want.Requests, "\n"); g != w {
				t.Errorf("requests:\n%s\nwant:\n%s", g, w)
			}
			auth, _ := os.ReadFile(filepath.Join(dir, "auth.json"))
			// Anthropic stores expires_in (28800 s) less five minutes.
			const off = 28800*1000 - 5*60*1000
			got := regexp.MustCompile(`"expires": (\d{13})`).ReplaceAllStringFunc(string(auth), func(m string) string {
				var v int64
				_, _ = fmt.Sscanf(m, `"expires": %d`, &v)
				if v-off < lo || v-off > hi {
					t.Errorf("refreshed expiry %d is not from this run's clock", v)
					return m
				}
				return fmt.Sprintf(`"expires": %d`, refClock.UnixMilli()+off)
			})
			if w := want.Files["auth.json"]; got != w {
				t.Errorf("auth.json:\n%s\nwant:\n%s", got, w)
			}
		})
	}
}
