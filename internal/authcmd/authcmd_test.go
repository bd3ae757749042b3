package authcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/config/login"
)

// fakeTerm is a scripted terminal.
type fakeTerm struct {
	mu      sync.Mutex
	tty     bool
	answers []string
	prompts []string
	secrets []string
	opened  []string
	onAsk   func(prompt string) (string, error)
}

func (f *fakeTerm) interactive() bool { return f.tty }
func (f *fakeTerm) next(prompt string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prompts = append(f.prompts, prompt)
	if len(f.answers) == 0 {
		return "", login.ErrCancelled
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	return a, nil
}
func (f *fakeTerm) question(_ context.Context, p string) (string, error) {
	if f.onAsk != nil {
		return f.onAsk(p)
	}
	return f.next(p)
}
func (f *fakeTerm) secret(_ context.Context, p string) (string, error) {
	f.secrets = append(f.secrets, p)
	return f.next(p)
}
func (f *fakeTerm) openURL(u string) { f.opened = append(f.opened, u) }

// home is an agent directory with the given auth.json and models.json.
func home(t *testing.T, auth, models string) string {
	t.Helper()
	dir := t.TempDir()
	if auth != "" {
		if err := os.WriteFile(filepath.Join(dir, "auth.json"), []byte(auth), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if models != "" {
		if err := os.WriteFile(filepath.Join(dir, "models.json"), []byte(models), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type result struct {
	code           int
	stdout, stderr string
}

func runIn(dir string, term terminal, setup func(*config.Registry), ep *login.Endpoints, args ...string) result {
	var out, errb bytes.Buffer
	if term == nil {
		term = &fakeTerm{}
	}
	if ep == nil {
		ep = &login.Endpoints{}
	}
	code := run(args, &env{stdout: &out, stderr: &errb, agentDir: dir, term: term, endpoints: ep, setup: setup})
	return result{code, out.String(), errb.String()}
}

func oauthJSON(access string, expires time.Time) string {
	return fmt.Sprintf(`{"anthropic":{"type":"oauth","refresh":"sk-ant-ort-OLD","access":%q,"expires":%d},"openai":{"type":"api_key","key":"sk-stored"}}`, access, expires.UnixMilli())
}

// tokenServer is Anthropic's token endpoint: it refreshes to
// "sk-ant-oat-NEW", or (fail) answers 400 echoing the request and a
// bearer token.
func tokenServer(t *testing.T, fail bool) (*httptest.Server, *int) {
	t.Helper()
	calls := new(int)
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		*calls++
		mu.Unlock()
		b, _ := io.ReadAll(r.Body)
		var body map[string]string
		_ = json.Unmarshal(b, &body)
		if body["grant_type"] != "refresh_token" || body["refresh_token"] != "sk-ant-ort-OLD" {
			t.Errorf("refresh request %s", b)
		}
		if fail {
			w.WriteHeader(400)
			fmt.Fprintf(w, `{"error":"invalid_grant","echo":%s,"auth":"Bearer sk-ant-oat-OLD-ACCESS"}`, b)
			return
		}
		_, _ = io.WriteString(w, `{"access_token":"sk-ant-oat-NEW","refresh_token":"sk-ant-ort-NEW","expires_in":7200}`)
	}))
	t.Cleanup(srv.Close)
	return srv, calls
}

func withTokenURL(u string) func(*config.Registry) {
	return func(r *config.Registry) { r.SetOAuthHandler("anthropic", &config.AnthropicOAuth{TokenURL: u}) }
}

const cmdModels = `{"providers":{"mock":{"baseUrl":"http://127.0.0.1:9","api":"openai-completions","apiKey":"!echo cmd-key","models":[{"id":"mock-model"}]},"bad":{"baseUrl":"http://127.0.0.1:9","api":"openai-completions","apiKey":"!exit 3","models":[{"id":"bad-model"}]}}}`

// TestCredentialCommands compares with what the reference prints for the
// same state (recorded by running both side by side).
func TestCredentialCommands(t *testing.T) {
	t.Parallel()
	now := time.Now()
	fresh := oauthJSON("sk-ant-oat-FRESH", now.Add(time.Hour))
	expired := oauthJSON("sk-ant-oat-OLD-ACCESS", now.Add(-time.Hour))
	tests := []struct {
		name, auth, models string
		fail               bool
		args               []string
		want               result
		refreshes          int
	}{
		{"check needs a selection", "", "", false, []string{"check"}, result{2, "", "Error: Auth checks require --provider <provider> or --model <model>\n"}, 0},
		{"print needs a selection", "", "", false, []string{"print-api-key"}, result{1, "", "Error: Credential printing requires --provider <provider> or --model <model>\n"}, 0},
		{"unknown command", "", "", false, []string{"bogus"}, result{1, "", `Error: Unknown auth command "bogus". Use "pi auth login", "pi auth logout", "pi auth print-api-key", "pi auth print-bearer-token", or "pi auth check".` + "\n"}, 0},
		{"unknown option", "", "", false, []string{"check", "--bogus"}, result{1, "", "Unknown option --bogus for \"auth check\".\nUse \"pi --help\" or \"pi auth check --provider <provider> [--json] [--credentials] [--no-refresh]\".\n"}, 0},
		{"provider without value", "", "", false, []string{"print-api-key", "--provider"}, result{1, "", "Unknown option --provider for \"auth print-api-key\".\nUse \"pi --help\" or \"pi auth print-api-key --provider <provider> [--model <model>]\".\n"}, 0},
		{"bad min-expiry", "", "", false, []string{"print-bearer-token", "--provider", "anthropic", "--min-expiry", "5x"}, result{1, "", "Error: --min-expiry must use a duration such as 30m or 1h\n"}, 0},
		{"min-expiry on check", "", "", false, []string{"check", "--provider", "anthropic", "--min-expiry", "5m"}, result{1, "", "Error: --min-expiry is only supported by print-bearer-token\n"}, 0},
		{"json on print", "", "", false, []string{"print-api-key", "--provider", "anthropic", "--json"}, result{1, "", "Error: --json is only supported by auth check\n"}, 0},
		{"positional", "", "", false, []string{"check", "--provider", "anthropic", "extra"}, result{2, "", "Error: Auth commands only accept --provider and --model\n"}, 0},
		{"unknown provider", "", "", false, []string{"print-api-key", "--provider", "nosuch"}, result{1, "", "Error: Unknown provider \"nosuch\". Use --list-models to see available providers.\n"}, 0},
		{"check unknown provider", "", "", false, []string{"check", "--provider", "nosuch", "--json"}, result{1, `{"status":"not_ready","provider":"nosuch","reason":"provider_not_found"}` + "\n", ""}, 0},
		{"model not found", "", "", false, []string{"print-api-key", "--model", "nosuch"}, result{1, "", "Error: Model \"nosuch\" not found. Use --list-models to see available models.\n"}, 0},
		{"check model ambiguous", fresh, "", false, []string{"check", "--model", "claude-sonnet-4-5", "--json"}, result{2, `{"status":"invalid","provider":"claude-sonnet-4-5","reason":"invalid_state"}` + "\n", ""}, 0},
		{"check model with provider", fresh, "", false, []string{"check", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "--json"}, result{0, `{"status":"ready","provider":"anthropic","authType":"oauth"}` + "\n", ""}, 0},
		{"check model not found", "", "", false, []string{"check", "--model", "nosuchmodel", "--json"}, result{2, `{"status":"invalid","provider":"nosuchmodel","reason":"invalid_state"}` + "\n", ""}, 0},

		{"stored key", fresh, "", false, []string{"print-api-key", "--provider", "openai"}, result{0, "sk-stored\n", ""}, 0},
		{"stored key by model", fresh, "", false, []string{"print-api-key", "--model", "gpt-4o"}, result{0, "sk-stored\n", ""}, 0},
		{"stored key check", fresh, "", false, []string{"check", "--provider", "openai", "--json", "--credentials"}, result{0, `{"status":"ready","provider":"openai","authType":"api_key","credentials":"sk-stored"}` + "\n", ""}, 0},
		{"oauth is not an api key", fresh, "", false, []string{"print-api-key", "--provider", "anthropic"}, result{1, "", "Error: Provider \"anthropic\" is configured with OAuth, not an API key\n"}, 0},
		{"api key is not a bearer token", fresh, "", false, []string{"print-bearer-token", "--provider", "openai"}, result{1, "", "Error: Provider \"openai\" is not configured with an OAuth bearer token\n"}, 0},
		{"fresh bearer", fresh, "", false, []string{"print-bearer-token", "--provider", "anthropic"}, result{0, "sk-ant-oat-FRESH\n", ""}, 0},
		{"fresh bearer by model", fresh, "", false, []string{"print-bearer-token", "--model", "claude-opus-4-5"}, result{0, "sk-ant-oat-FRESH\n", ""}, 0},
		{"fresh check", fresh, "", false, []string{"check", "--provider", "anthropic", "--json", "--credentials"}, result{0, `{"status":"ready","provider":"anthropic","authType":"oauth","credentials":"sk-ant-oat-FRESH"}` + "\n", ""}, 0},
		{"fresh check plain", fresh, "", false, []string{"check", "--provider", "anthropic"}, result{0, "ready\n", ""}, 0},
		{"min-expiry forces a refresh", fresh, "", false, []string{"print-bearer-token", "--provider", "anthropic", "--min-expiry", "2h"}, result{0, "sk-ant-oat-NEW\n", ""}, 1},

		{"expired check refreshes", expired, "", false, []string{"check", "--provider", "anthropic", "--credentials"}, result{0, "sk-ant-oat-NEW\n", ""}, 1},
		{"expired bearer refreshes", expired, "", false, []string{"print-bearer-token", "--provider", "anthropic"}, result{0, "sk-ant-oat-NEW\n", ""}, 1},
		{"expired no-refresh", expired, "", false, []string{"check", "--provider", "anthropic", "--json", "--no-refresh"}, result{0, `{"status":"ready","provider":"anthropic","authType":"oauth"}` + "\n", ""}, 0},
		{"expired no-refresh credentials", expired, "", false, []string{"check", "--provider", "anthropic", "--no-refresh", "--credentials"}, result{0, "sk-ant-oat-OLD-ACCESS\n", ""}, 0},
		{"revoked check", expired, "", true, []string{"check", "--provider", "anthropic", "--json"}, result{2, `{"status":"invalid","provider":"anthropic","reason":"invalid_state"}` + "\n", ""}, 1},
		{"revoked bearer", expired, "", true, []string{"print-bearer-token", "--provider", "anthropic"}, result{1, "", "Error: Failed to resolve credential\n"}, 1},

		{"command key", "", cmdModels, false, []string{"print-api-key", "--provider", "mock"}, result{0, "cmd-key\n", ""}, 0},
		{"command key check", "", cmdModels, false, []string{"check", "--provider", "mock", "--json", "--credentials"}, result{0, `{"status":"ready","provider":"mock","authType":"api_key","credentials":"cmd-key"}` + "\n", ""}, 0},
		{"failing command check", "", cmdModels, false, []string{"check", "--provider", "bad", "--json"}, result{2, `{"status":"invalid","provider":"bad","reason":"invalid_state"}` + "\n", ""}, 0},
		{"failing command no-refresh", "", cmdModels, false, []string{"check", "--provider", "bad", "--no-refresh"}, result{0, "ready\n", ""}, 0},
		{"failing command print", "", cmdModels, false, []string{"print-api-key", "--provider", "bad"}, result{1, "", "Error: Failed to resolve credential\n"}, 0},
		{"command key env-less model", "", cmdModels, false, []string{"print-api-key", "--model", "mock-model"}, result{1, "", "Error: Model \"mock-model\" not found. Use --list-models to see available models.\n"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := home(t, tc.auth, tc.models)
			srv, calls := tokenServer(t, tc.fail)
			got := runIn(dir, nil, withTokenURL(srv.URL), nil, tc.args...)
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			if *calls != tc.refreshes {
				t.Errorf("%d refreshes, want %d", *calls, tc.refreshes)
			}
			after, _ := os.ReadFile(filepath.Join(dir, "auth.json"))
			for _, secret := range []string{"sk-ant-ort-OLD", "sk-ant-oat-OLD-ACCESS"} {
				if tc.fail && (strings.Contains(got.stdout, secret) || strings.Contains(got.stderr, secret)) {
					t.Errorf("output leaks %q: %+v", secret, got)
				}
			}
			if tc.refreshes > 0 && !tc.fail && !strings.Contains(string(after), "sk-ant-ort-NEW") {
				t.Errorf("the refreshed credential was not stored: %s", after)
			}
			if tc.refreshes == 0 && tc.auth != "" && string(after) != tc.auth {
				t.Errorf("auth.json changed without a refresh: %s", after)
			}
		})
	}
}

// TestEnvKeys reads keys from the environment, so it cannot run in
// parallel with itself.
func TestEnvKeys(t *testing.T) {
	for _, v := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_OAUTH_TOKEN"} {
		t.Setenv(v, "")
	}
	dir := home(t, "", "")
	if got := runIn(dir, nil, nil, nil, "check", "--provider", "anthropic", "--json"); got != (result{1, `{"status":"not_ready","provider":"anthropic","reason":"credentials_not_configured"}` + "\n", ""}) {
		t.Errorf("missing: %+v", got)
	}
	if got := runIn(dir, nil, nil, nil, "print-api-key", "--provider", "anthropic"); got != (result{1, "", "Error: No usable API key is configured\n"}) {
		t.Errorf("missing print: %+v", got)
	}
	st, err := os.Stat(filepath.Join(dir, "auth.json"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("auth.json is created 0600 as the reference does: %v %v", st, err)
	}
	t.Setenv("ANTHROPIC_API_KEY", "sk-env")
	// An AWS profile signs Bedrock requests: ready, but no key to print.
	t.Setenv("AWS_PROFILE", "test-profile")
	tests := []struct {
		args []string
		want result
	}{
		{[]string{"check", "--provider", "anthropic", "--json"}, result{0, `{"status":"ready","provider":"anthropic","authType":"api_key"}` + "\n", ""}},
		{[]string{"check", "--provider", "anthropic", "--credentials"}, result{0, "sk-env\n", ""}},
		{[]string{"print-api-key", "--provider", "anthropic"}, result{0, "sk-env\n", ""}},
		{[]string{"print-bearer-token", "--provider", "anthropic"}, result{1, "", "Error: Provider \"anthropic\" is not configured with an OAuth bearer token\n"}},
		{[]string{"check", "--provider", "amazon-bedrock", "--json", "--credentials"}, result{1, `{"status":"not_ready","provider":"amazon-bedrock","reason":"credential_not_available"}` + "\n", ""}},
		{[]string{"print-api-key", "--provider", "amazon-bedrock"}, result{1, "", "Error: No usable API key is configured\n"}},
	}
	for _, tc := range tests {
		if got := runIn(dir, nil, nil, nil, tc.args...); got != tc.want {
			t.Errorf("%v: got %+v, want %+v", tc.args, got, tc.want)
		}
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"help"}, {"check", "--help"}, {"login", "-h"}} {
		got := runIn(t.TempDir(), nil, nil, nil, args...)
		if got.code != 0 || got.stderr != "" || !strings.HasPrefix(got.stdout, "Usage:\n  pi auth login <provider> [--api-key] [--no-browser]\n  pi auth logout <provider>\n  pi auth print-api-key [--provider <provider>] [--model <model>]\n  pi auth print-bearer-token [--provider <provider>] [--model <model>] [--min-expiry <duration>]\n  pi auth check [--provider <provider>] [--model <model>] [--json] [--credentials] [--no-refresh]\n") {
			t.Errorf("%v: %+v", args, got)
		}
	}
}

func TestDeviceIDIsCreatedOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	id, err := deviceID(dir)()
	if err != nil {
		t.Fatal(err)
	}
	again, err := deviceID(dir)()
	if err != nil || again != id || len(id) != 36 || id[14] != '4' {
		t.Errorf("ids %q %q (%v)", id, again, err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "settings.json"))
	if !strings.Contains(string(b), `"deviceId": "`+id+`"`) {
		t.Errorf("settings.json %s", b)
	}
}
