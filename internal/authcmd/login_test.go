package authcmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/config/login"
)

const storedOpenAI = "{\n  \"openai\": {\n    \"type\": \"api_key\",\n    \"key\": \"sk-o\"\n  }\n}"

// TestAPIKeyLoginAndLogoutMatchReference: the files are byte for byte
// those the reference wrote for the same steps (testdata, recorded with
// `pi auth login anthropic --api-key` and `pi auth logout openai`).
func TestAPIKeyLoginAndLogoutMatchReference(t *testing.T) {
	t.Parallel()
	dir := home(t, storedOpenAI, "")
	term := &fakeTerm{tty: true, answers: []string{"sk-ant-test123"}}
	got := runIn(dir, term, nil, nil, "login", "anthropic", "--api-key")
	path := filepath.Join(dir, "auth.json")
	if want := (result{0, "Saved API key for Anthropic. Credentials saved to " + path + "\n", ""}); got != want {
		t.Errorf("login: %+v, want %+v", got, want)
	}
	if fmt.Sprint(term.secrets) != "[Enter Anthropic API key: ]" {
		t.Errorf("the key is read as a secret with the reference's prompt: %q", term.secrets)
	}
	sameFile(t, path, "testdata/ref-login-api-key.json")
	got = runIn(dir, nil, nil, nil, "logout", "openai")
	if want := (result{0, "Removed stored API key for OpenAI. Environment variables and models.json config are unchanged.\n", ""}); got != want {
		t.Errorf("logout: %+v", got)
	}
	sameFile(t, path, "testdata/ref-logout-openai.json")
	got = runIn(dir, nil, nil, nil, "logout", "openai")
	if want := (result{0, "No stored credentials for OpenAI. Environment variables and models.json config are unchanged.\n", ""}); got != want {
		t.Errorf("second logout: %+v", got)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("auth.json mode %v", st.Mode())
	}
}

func sameFile(t *testing.T, got, want string) {
	t.Helper()
	a, _ := os.ReadFile(got)
	b, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("%s\n%s\nwant (%s)\n%s", got, a, want, b)
	}
}

func TestLoginErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		tty  bool
		args []string
		want string
	}{
		{"usage", true, []string{"login"}, "Usage: pi auth login <provider> [--api-key] [--no-browser]\n"},
		{"two providers", true, []string{"login", "a", "b"}, "Usage: pi auth login <provider> [--api-key] [--no-browser]\n"},
		{"both flags", true, []string{"login", "anthropic", "--api-key", "--no-browser"}, "--no-browser only applies to account sign-in; omit it with --api-key.\n"},
		{"not a terminal", false, []string{"login", "anthropic"}, "\"pi auth login <provider> [--api-key] [--no-browser]\" requires an interactive terminal\n"},
		{"logout usage", true, []string{"logout", "--x"}, "Usage: pi auth logout <provider>\n"},
		{"logout unknown", true, []string{"logout", "nosuch"}, "Unknown provider \"nosuch\".\nStored credentials: openai\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := runIn(home(t, storedOpenAI, ""), &fakeTerm{tty: tc.tty}, nil, nil, tc.args...)
			if got.code != 1 || got.stdout != "" || got.stderr != tc.want {
				t.Errorf("%+v, want stderr %q", got, tc.want)
			}
		})
	}
	got := runIn(home(t, "", ""), &fakeTerm{tty: true}, nil, nil, "login", "nosuch")
	if !strings.HasPrefix(got.stderr, "Unknown provider \"nosuch\".\nProviders: amazon-bedrock, ant-ling, anthropic, azure,") || got.code != 1 {
		t.Errorf("unknown provider: %+v", got)
	}
}

// TestAnthropicLoginNoBrowser runs the account sign-in from the command
// line: --no-browser picks the copy-code method, opens nothing, and the
// credential lands in auth.json beside the stored key.
func TestAnthropicLoginNoBrowser(t *testing.T) {
	t.Parallel()
	var exchange map[string]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &exchange)
		_, _ = io.WriteString(w, `{"access_token":"sk-ant-oat-A","refresh_token":"sk-ant-ort-R","expires_in":3600}`)
	}))
	defer srv.Close()
	dir := home(t, storedOpenAI, "")
	var out strings.Builder
	term := &fakeTerm{tty: true}
	ep := &login.Endpoints{AnthropicToken: srv.URL, AnthropicAuthorize: "https://claude.test/oauth/authorize"}
	e := &env{stdout: &out, stderr: &out, agentDir: dir, term: term, endpoints: ep}
	// The pasted answer carries the state shown in the printed URL.
	term.onAsk = func(prompt string) (string, error) {
		if prompt != "Paste the code Anthropic shows after you sign in: (code#state): " {
			return "", fmt.Errorf("prompt %q", prompt)
		}
		i := strings.Index(out.String(), "https://claude.test/oauth/authorize?")
		if i < 0 {
			return "", fmt.Errorf("no URL printed before %q", prompt)
		}
		line := strings.SplitN(out.String()[i:], "\n", 2)[0]
		u, _ := url.Parse(line)
		return "the-code#" + u.Query().Get("state"), nil
	}
	code := run([]string{"login", "anthropic", "--no-browser"}, e)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	text := out.String()
	for _, line := range []string{
		"Select Anthropic login method: Copy code login (headless)\n",
		"Open this URL to sign in:\n  https://claude.test/oauth/authorize?code=true&client_id=9d1c250a-e61b-44d9-88ed-5944d1962f5e&response_type=code&redirect_uri=https%3A%2F%2Fplatform.claude.com%2Foauth%2Fcode%2Fcallback&scope=org%3Acreate_api_key+user%3Aprofile+user%3Ainference+user%3Asessions%3Aclaude_code+user%3Amcp_servers+user%3Afile_upload&code_challenge=",
		"Complete login in your browser, then copy the code Anthropic shows and paste it here.\n",
		"Exchanging authorization code for tokens...\n",
		"Logged in to Anthropic. Credentials saved to " + filepath.Join(dir, "auth.json") + "\n",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("output lacks %q:\n%s", line, text)
		}
	}
	if len(term.opened) != 0 {
		t.Errorf("--no-browser opened %v", term.opened)
	}
	if exchange["code"] != "the-code" || exchange["redirect_uri"] != "https://platform.claude.com/oauth/code/callback" {
		t.Errorf("exchange %v", exchange)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "auth.json"))
	var stored map[string]map[string]any
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	if stored["openai"]["key"] != "sk-o" || stored["anthropic"]["access"] != "sk-ant-oat-A" || stored["anthropic"]["type"] != "oauth" {
		t.Errorf("auth.json %s", b)
	}
	if !strings.HasPrefix(string(b), "{\n  \"openai\": {\n    \"type\": \"api_key\",\n    \"key\": \"sk-o\"\n  },\n  \"anthropic\": {\n    \"type\": \"oauth\",\n    \"refresh\": \"sk-ant-ort-R\",\n    \"access\": \"sk-ant-oat-A\",\n    \"expires\": ") {
		t.Errorf("auth.json layout %s", b)
	}
}

// TestLoginFailureHidesSecrets: a token server that echoes the code and
// verifier back in its error gets neither printed.
func TestLoginFailureHidesSecrets(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.WriteHeader(401)
		_, _ = w.Write(b)
	}))
	defer srv.Close()
	var out strings.Builder
	term := &fakeTerm{tty: true}
	term.onAsk = func(string) (string, error) { return "secret-code-123", nil }
	e := &env{stdout: &out, stderr: &out, agentDir: home(t, "", ""), term: term, endpoints: &login.Endpoints{AnthropicToken: srv.URL}}
	if code := run([]string{"login", "anthropic", "--no-browser"}, e); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out.String(), "Failed to log in to Anthropic: Token exchange request failed.") || strings.Contains(out.String(), "secret-code-123") {
		t.Errorf("output:\n%s", out.String())
	}
	i := strings.Index(out.String(), "state=")
	verifier := strings.SplitN(out.String()[i+6:], "\n", 2)[0]
	if strings.Count(out.String(), verifier) != 1 {
		t.Errorf("the verifier is printed beyond the URL:\n%s", out.String())
	}
}

// TestCustomProviderLogin: a models.json provider takes a plain API key.
func TestCustomProviderLogin(t *testing.T) {
	t.Parallel()
	dir := home(t, "", cmdModels)
	term := &fakeTerm{tty: true, answers: []string{"k-mock"}}
	got := runIn(dir, term, nil, nil, "login", "mock")
	if got.code != 0 || fmt.Sprint(term.secrets) != "[Enter API key: ]" {
		t.Fatalf("%+v %q", got, term.secrets)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "auth.json"))
	if string(b) != "{\n  \"mock\": {\n    \"type\": \"api_key\",\n    \"key\": \"k-mock\"\n  }\n}" {
		t.Errorf("auth.json %q", b)
	}
	if got := runIn(dir, nil, nil, nil, "print-api-key", "--provider", "mock"); got.stdout != "k-mock\n" {
		t.Errorf("the stored key wins over models.json: %+v", got)
	}
}

// TestLogoutWaitsForTheReferenceLock: a lock directory another pi (the
// reference included) holds on auth.json defers the write until it goes.
func TestLogoutWaitsForTheReferenceLock(t *testing.T) {
	t.Parallel()
	dir := home(t, storedOpenAI, "")
	lock := filepath.Join(dir, "auth.json.lock")
	if err := os.Mkdir(lock, 0o755); err != nil {
		t.Fatal(err)
	}
	done := make(chan result, 1)
	go func() { done <- runIn(dir, nil, nil, nil, "logout", "openai") }()
	select {
	case r := <-done:
		t.Fatalf("logout did not wait for the lock: %+v", r)
	case <-time.After(300 * time.Millisecond):
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "auth.json")); string(b) != storedOpenAI {
		t.Fatalf("auth.json written under another's lock: %s", b)
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.code != 0 {
		t.Fatalf("logout: %+v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "auth.json")); string(b) != "{}" {
		t.Errorf("auth.json after logout %q", b)
	}
}

// TestRadiusLoginNoBrowser signs in to Radius with a device code (what
// --no-browser picks) against a fake gateway: the credential lands in
// auth.json, and the account's model list in models-store.json.
func TestRadiusLoginNoBrowser(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/oauth/device", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"device_code":"dc","user_code":"RAD-1","verification_uri":"https://radius.test/device","expires_in":60,"interval":1}`)
	})
	mux.HandleFunc("POST /v1/oauth/token", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"access_token":"rad-access","refresh_token":"rad-refresh","expires_in":3600}`)
	})
	mux.HandleFunc("GET /v1/config", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer rad-access" {
			w.WriteHeader(401)
			return
		}
		_, _ = io.WriteString(w, `{"baseUrl":"https://radius.test/v1","models":[{"id":"team-model","name":"Team","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":100}]}`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	dir := home(t, "", "")
	var out strings.Builder
	ep := &login.Endpoints{RadiusGateway: srv.URL, Sleep: func(context.Context, time.Duration) error { return nil }}
	e := &env{stdout: &out, stderr: &out, agentDir: dir, term: &fakeTerm{tty: true}, endpoints: ep}
	if code := run([]string{"login", "radius", "--no-browser"}, e); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	if !strings.Contains(out.String(), "RAD-1") || !strings.Contains(out.String(), "Logged in to Radius.") {
		t.Errorf("output:\n%s", out.String())
	}
	auth, _ := os.ReadFile(filepath.Join(dir, "auth.json"))
	if !strings.Contains(string(auth), `"access": "rad-access"`) {
		t.Errorf("auth.json %s", auth)
	}
	store, _ := os.ReadFile(filepath.Join(dir, "models-store.json"))
	if !strings.Contains(string(store), "team-model") || !strings.Contains(string(store), "checkedAt") {
		t.Errorf("models-store.json %s", store)
	}
}
