package login

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeUI answers prompts from a script and records notices.
type fakeUI struct {
	mu      sync.Mutex
	answers map[string]func(ctx context.Context, p Prompt) (string, error)
	events  []Event
	onEvent func(Event)
}

func (f *fakeUI) Ask(ctx context.Context, p Prompt) (string, error) {
	if fn := f.answers[p.Kind]; fn != nil {
		return fn(ctx, p)
	}
	return "", fmt.Errorf("unexpected prompt %q", p.Message)
}

func (f *fakeUI) Notify(e Event) {
	f.mu.Lock()
	f.events = append(f.events, e)
	f.mu.Unlock()
	if f.onEvent != nil {
		f.onEvent(e)
	}
}

func answer(s string) func(context.Context, Prompt) (string, error) {
	return func(context.Context, Prompt) (string, error) { return s, nil }
}

// blockUntilDone is a paste prompt nobody answers.
func blockUntilDone(ctx context.Context, _ Prompt) (string, error) {
	<-ctx.Done()
	return "", ErrCancelled
}

// anthropicServer is a token endpoint that checks the exchange and
// answers with reply (status, body); got receives the request body.
type tokenCall struct {
	body    map[string]string
	headers http.Header
}

func anthropicServer(t *testing.T, status int, reply string) (*httptest.Server, chan tokenCall) {
	t.Helper()
	calls := make(chan tokenCall, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]string
		if err := json.Unmarshal(b, &body); err != nil {
			t.Errorf("token request body %q: %v", b, err)
		}
		calls <- tokenCall{body, r.Header.Clone()}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, reply)
	}))
	t.Cleanup(srv.Close)
	return srv, calls
}

func authParams(t *testing.T, ui *fakeUI) url.Values {
	t.Helper()
	ui.mu.Lock()
	defer ui.mu.Unlock()
	for _, e := range ui.events {
		if e.Kind == "auth_url" {
			u, err := url.Parse(e.URL)
			if err != nil {
				t.Fatal(err)
			}
			return u.Query()
		}
	}
	t.Fatal("no auth_url notice")
	return nil
}

func checkAuthorize(t *testing.T, q url.Values, redirect string) {
	t.Helper()
	want := map[string]string{
		"code": "true", "client_id": anthropicClientID, "response_type": "code", "redirect_uri": redirect,
		"scope": anthropicScopes, "code_challenge_method": "S256",
	}
	for k, v := range want {
		if q.Get(k) != v {
			t.Errorf("authorize %s = %q, want %q", k, q.Get(k), v)
		}
	}
	if got := pkceChallenge(q.Get("state")); got != q.Get("code_challenge") {
		t.Errorf("code_challenge %q is not S256 of the state/verifier (%q)", q.Get("code_challenge"), got)
	}
}

func checkExchange(t *testing.T, c tokenCall, code, verifier, redirect string) {
	t.Helper()
	want := map[string]string{"grant_type": "authorization_code", "client_id": anthropicClientID, "code": code,
		"state": verifier, "redirect_uri": redirect, "code_verifier": verifier}
	for k, v := range want {
		if c.body[k] != v {
			t.Errorf("exchange %s = %q, want %q", k, c.body[k], v)
		}
	}
	if len(c.body) != len(want) {
		t.Errorf("exchange body has %d fields: %v", len(c.body), c.body)
	}
	if c.headers.Get("Content-Type") != "application/json" || c.headers.Get("Accept") != "application/json" {
		t.Errorf("exchange headers %v", c.headers)
	}
}

const goodTokens = `{"access_token":"sk-ant-oat-A","refresh_token":"sk-ant-ort-R","expires_in":3600}`

var fixedNow = time.UnixMilli(1_800_000_000_000)

func checkCredential(t *testing.T, raw json.RawMessage) {
	t.Helper()
	want := fmt.Sprintf(`{"type":"oauth","refresh":"sk-ant-ort-R","access":"sk-ant-oat-A","expires":%d}`,
		fixedNow.Add(time.Hour-5*time.Minute).UnixMilli())
	if string(raw) != want {
		t.Errorf("credential\n got %s\nwant %s", raw, want)
	}
}

func TestAnthropicBrowserCallback(t *testing.T) {
	t.Parallel()
	srv, calls := anthropicServer(t, 200, goodTokens)
	ep := &Endpoints{AnthropicToken: srv.URL, AnthropicCallbackPort: -1, Now: func() time.Time { return fixedNow }}
	ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){
		"select": answer(anthropicBrowserMethod), "manual_code": blockUntilDone,
	}}
	// The "browser": follow the redirect as Anthropic would, first with a
	// wrong state (refused), then the right one.
	ui.onEvent = func(e Event) {
		if e.Kind != "auth_url" {
			return
		}
		u, _ := url.Parse(e.URL)
		q := u.Query()
		go func() {
			bad, err := http.Get(q.Get("redirect_uri") + "?code=evil&state=wrong")
			if err != nil {
				t.Error(err)
				return
			}
			bad.Body.Close()
			if bad.StatusCode != 400 {
				t.Errorf("wrong state answered %d", bad.StatusCode)
			}
			resp, err := http.Get(q.Get("redirect_uri") + "?code=the-code&state=" + url.QueryEscape(q.Get("state")))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("callback answered %d", resp.StatusCode)
			}
		}()
	}
	cred, err := loginAnthropic(context.Background(), ui, ep)
	if err != nil {
		t.Fatal(err)
	}
	q := authParams(t, ui)
	if !strings.HasPrefix(q.Get("redirect_uri"), "http://localhost:") || !strings.HasSuffix(q.Get("redirect_uri"), "/callback") {
		t.Errorf("redirect_uri %q", q.Get("redirect_uri"))
	}
	checkAuthorize(t, q, q.Get("redirect_uri"))
	checkExchange(t, <-calls, "the-code", q.Get("state"), q.Get("redirect_uri"))
	checkCredential(t, cred)
}

func TestAnthropicPastedRedirect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		paste   func(state string) string
		wantErr string
	}{
		{"redirect URL", func(s string) string { return "http://localhost:1/callback?code=pasted&state=" + url.QueryEscape(s) }, ""},
		{"code#state", func(s string) string { return "pasted#" + s }, ""},
		{"query", func(s string) string { return "code=pasted&state=" + url.QueryEscape(s) }, ""},
		{"bare code", func(string) string { return "  pasted \n" }, ""},
		{"state mismatch", func(string) string { return "pasted#other" }, "OAuth state mismatch"},
		{"empty", func(string) string { return "  " }, "Missing authorization code"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, calls := anthropicServer(t, 200, goodTokens)
			ep := &Endpoints{AnthropicToken: srv.URL, AnthropicCallbackPort: -1, Now: func() time.Time { return fixedNow }}
			ui := &fakeUI{}
			ui.answers = map[string]func(context.Context, Prompt) (string, error){
				"select": answer(anthropicBrowserMethod),
				"manual_code": func(_ context.Context, p Prompt) (string, error) {
					if !strings.HasPrefix(p.Placeholder, "http://localhost:") {
						t.Errorf("placeholder %q", p.Placeholder)
					}
					return tc.paste(authParams(t, ui).Get("state")), nil
				},
			}
			cred, err := loginAnthropic(context.Background(), ui, ep)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			q := authParams(t, ui)
			checkExchange(t, <-calls, "pasted", q.Get("state"), q.Get("redirect_uri"))
			checkCredential(t, cred)
		})
	}
}

func TestAnthropicCopyCode(t *testing.T) {
	t.Parallel()
	srv, calls := anthropicServer(t, 200, goodTokens)
	ep := &Endpoints{AnthropicToken: srv.URL, Now: func() time.Time { return fixedNow }}
	ui := &fakeUI{}
	ui.answers = map[string]func(context.Context, Prompt) (string, error){
		"select": answer(anthropicCopyCodeMethod),
		"manual_code": func(context.Context, Prompt) (string, error) {
			return "copied#" + authParams(t, ui).Get("state"), nil
		},
	}
	cred, err := loginAnthropic(context.Background(), ui, ep)
	if err != nil {
		t.Fatal(err)
	}
	q := authParams(t, ui)
	checkAuthorize(t, q, anthropicCopyCodeURI)
	checkExchange(t, <-calls, "copied", q.Get("state"), anthropicCopyCodeURI)
	checkCredential(t, cred)
}

// TestAnthropicExchangeFailures: a refused, malformed or empty answer is
// an error, and nothing secret the server echoes reaches its text.
func TestAnthropicExchangeFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, reply, want string
		status            int
	}{
		{"revoked", `{"error":"invalid_grant","code":"copied","echo":"Bearer sk-ant-oat-SECRETSECRET","verifier":"%V"}`, "status=400", 400},
		{"malformed", `{"access_token":"sk-ant-oat-SECRET`, "invalid JSON", 200},
		{"no tokens", `{"token_type":"bearer"}`, "no tokens", 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var verifier string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var body map[string]string
				_ = json.NewDecoder(r.Body).Decode(&body)
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, strings.ReplaceAll(tc.reply, "%V", body["code_verifier"]))
			}))
			defer srv.Close()
			ui := &fakeUI{}
			ui.answers = map[string]func(context.Context, Prompt) (string, error){
				"select": answer(anthropicCopyCodeMethod),
				"manual_code": func(context.Context, Prompt) (string, error) {
					verifier = authParams(t, ui).Get("state")
					return "copied#" + verifier, nil
				},
			}
			_, err := loginAnthropic(context.Background(), ui, &Endpoints{AnthropicToken: srv.URL})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want it to mention %q", err, tc.want)
			}
			for _, secret := range []string{"SECRETSECRET", "sk-ant-oat-SECRET", verifier, "copied"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error leaks %q: %s", secret, err)
				}
			}
		})
	}
}

func TestAPIKeyLogin(t *testing.T) {
	t.Parallel()
	var asked Prompt
	ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){
		"secret": func(_ context.Context, p Prompt) (string, error) { asked = p; return "sk-ant-key", nil },
	}}
	cred, err := APIKeyLogin(context.Background(), "anthropic", ui)
	if err != nil {
		t.Fatal(err)
	}
	if asked.Message != "Enter Anthropic API key" {
		t.Errorf("prompt %q", asked.Message)
	}
	if string(cred) != `{"type":"api_key","key":"sk-ant-key"}` {
		t.Errorf("credential %s", cred)
	}
}

// TestMultiStepAPIKeyLogins: the credentials are those the reference
// stored for the same answers (compared byte for byte in auth.json).
func TestMultiStepAPIKeyLogins(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider string
		answers  []string
		want     string
	}{
		{"amazon-bedrock", []string{"aws-profile", "myprof"}, `{"type":"api_key","env":{"AWS_PROFILE":"myprof"}}`},
		{"amazon-bedrock", []string{"bearer-token", "tok"}, `{"type":"api_key","key":"tok"}`},
		{"amazon-bedrock", []string{"credential-chain", ""}, `{"type":"api_key"}`},
		{"google-vertex", []string{"service-account", "proj", "europe-west4", "/tmp/sa.json"}, `{"type":"api_key","env":{"GOOGLE_CLOUD_PROJECT":"proj","GOOGLE_CLOUD_LOCATION":"europe-west4","GOOGLE_APPLICATION_CREDENTIALS":"/tmp/sa.json"}}`},
		{"google-vertex", []string{"adc", "proj", "us"}, `{"type":"api_key","env":{"GOOGLE_CLOUD_PROJECT":"proj","GOOGLE_CLOUD_LOCATION":"us"}}`},
		{"cloudflare-ai-gateway", []string{"cfkey", "acct", "gw"}, `{"type":"api_key","key":"cfkey","env":{"CLOUDFLARE_ACCOUNT_ID":"acct","CLOUDFLARE_GATEWAY_ID":"gw"}}`},
		{"cloudflare-workers-ai", []string{"cfkey", "acct"}, `{"type":"api_key","key":"cfkey","env":{"CLOUDFLARE_ACCOUNT_ID":"acct"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.provider+"/"+tc.answers[0], func(t *testing.T) {
			t.Parallel()
			answers := tc.answers
			next := func(context.Context, Prompt) (string, error) {
				a := answers[0]
				answers = answers[1:]
				return a, nil
			}
			ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"select": next, "secret": next, "text": next}}
			cred, err := APIKeyLogin(context.Background(), tc.provider, ui)
			if err != nil {
				t.Fatal(err)
			}
			if string(cred) != tc.want || len(answers) != 0 {
				t.Errorf("credential %s (unused answers %v)\nwant %s", cred, answers, tc.want)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	in := `{"access_token":"abc","x":"Bearer tok.en-1"} url=https://platform.claude.com/v1/oauth/token ` + strings.Repeat("Z", 30)
	got := Redact(in, "mine")
	for _, s := range []string{`"abc"`, "tok.en-1", strings.Repeat("Z", 30)} {
		if strings.Contains(got, s) {
			t.Errorf("%q survives: %s", s, got)
		}
	}
	if !strings.Contains(got, "https://platform.claude.com/v1/oauth/token") {
		t.Errorf("the URL must stay readable: %s", got)
	}
}
