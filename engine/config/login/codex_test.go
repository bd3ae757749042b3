package login

import (
	"context"
	"encoding/base64"
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

func codexJWT(account string) string {
	payload := base64.RawStdEncoding.EncodeToString([]byte(`{"https://api.openai.com/auth":{"chatgpt_account_id":"` + account + `"}}`))
	return "eyJhbGciOiJub25lIn0." + payload + ".sig"
}

// codexServer is auth.openai.com: the token endpoint checks the form and
// the device endpoints answer polls from a script.
type codexServer struct {
	mu    sync.Mutex
	srv   *httptest.Server
	form  url.Values
	polls []func(w http.ResponseWriter)
}

func newCodexServer(t *testing.T, access string, polls ...func(w http.ResponseWriter)) *codexServer {
	c := &codexServer{polls: polls}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			t.Errorf("token Content-Type %q", r.Header.Get("Content-Type"))
		}
		_ = r.ParseForm()
		c.mu.Lock()
		c.form = r.PostForm
		c.mu.Unlock()
		fmt.Fprintf(w, `{"access_token":%q,"refresh_token":"rt-1","expires_in":864000}`, access)
	})
	mux.HandleFunc("POST /api/accounts/deviceauth/usercode", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if string(b) != `{"client_id":"app_EMoamEEZ73f0CkXaXp7hrann"}` {
			t.Errorf("usercode body %s", b)
		}
		_, _ = io.WriteString(w, `{"device_auth_id":"dev-id","user_code":"USER-1","interval":"3"}`)
	})
	mux.HandleFunc("POST /api/accounts/deviceauth/token", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if string(b) != `{"device_auth_id":"dev-id","user_code":"USER-1"}` {
			t.Errorf("device token body %s", b)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if len(c.polls) == 0 {
			w.WriteHeader(403)
			return
		}
		p := c.polls[0]
		c.polls = c.polls[1:]
		p(w)
	})
	c.srv = httptest.NewServer(mux)
	t.Cleanup(c.srv.Close)
	return c
}

func reply(status int, body string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) { w.WriteHeader(status); _, _ = io.WriteString(w, body) }
}

func checkCodexCredential(t *testing.T, raw json.RawMessage, access string, now time.Time) {
	t.Helper()
	want := fmt.Sprintf(`{"type":"oauth","access":%q,"refresh":"rt-1","expires":%d,"accountId":"acct_1"}`, access, now.Add(864000*time.Second).UnixMilli())
	if string(raw) != want {
		t.Errorf("credential\n got %s\nwant %s", raw, want)
	}
}

func TestCodexBrowserCallback(t *testing.T) {
	t.Parallel()
	access := codexJWT("acct_1")
	c := newCodexServer(t, access)
	ep := &Endpoints{CodexAuthBase: c.srv.URL, CodexCallbackPort: -1, Now: func() time.Time { return fixedNow }}
	ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){
		"select": answer(codexBrowserMethod), "manual_code": blockUntilDone,
	}}
	ui.onEvent = func(e Event) {
		if e.Kind != "auth_url" {
			return
		}
		u, _ := url.Parse(e.URL)
		q := u.Query()
		go func() {
			resp, err := http.Get(q.Get("redirect_uri") + "?code=cx-code&state=" + q.Get("state"))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		}()
	}
	cred, err := loginCodex(context.Background(), ui, ep)
	if err != nil {
		t.Fatal(err)
	}
	q := authParams(t, ui)
	for k, v := range map[string]string{"response_type": "code", "client_id": codexClientID, "scope": codexScope,
		"code_challenge_method": "S256", "id_token_add_organizations": "true", "codex_cli_simplified_flow": "true", "originator": "pi"} {
		if q.Get(k) != v {
			t.Errorf("authorize %s = %q, want %q", k, q.Get(k), v)
		}
	}
	if len(q.Get("state")) != 32 {
		t.Errorf("state %q is not 16 random bytes in hex", q.Get("state"))
	}
	c.mu.Lock()
	form := c.form
	c.mu.Unlock()
	if form.Get("grant_type") != "authorization_code" || form.Get("client_id") != codexClientID || form.Get("code") != "cx-code" ||
		form.Get("redirect_uri") != q.Get("redirect_uri") || pkceChallenge(form.Get("code_verifier")) != q.Get("code_challenge") {
		t.Errorf("exchange form %v", form)
	}
	checkCodexCredential(t, cred, access, fixedNow)
}

func TestCodexDeviceCode(t *testing.T) {
	t.Parallel()
	access := codexJWT("acct_1")
	c := newCodexServer(t, access,
		reply(403, ""),
		reply(400, `{"error":{"code":"deviceauth_authorization_pending"}}`),
		reply(400, `{"error":"slow_down"}`),
		reply(200, `{"authorization_code":"dev-auth-code","code_verifier":"dev-verifier"}`))
	clock := &fakeClock{now: fixedNow}
	ep := &Endpoints{CodexAuthBase: c.srv.URL, Now: clock.Now, Sleep: clock.Sleep}
	ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"select": answer(codexDeviceMethod)}}
	cred, err := loginCodex(context.Background(), ui, ep)
	if err != nil {
		t.Fatal(err)
	}
	// No wait before the first poll; 3s, then 8s after the slow_down.
	if fmt.Sprint(clock.waits) != "[3s 3s 8s]" {
		t.Errorf("waits %v", clock.waits)
	}
	if form := c.form; form.Get("code") != "dev-auth-code" || form.Get("code_verifier") != "dev-verifier" || form.Get("redirect_uri") != c.srv.URL+"/deviceauth/callback" {
		t.Errorf("exchange form %v", form)
	}
	if ui.events[0].Kind != "device_code" || ui.events[0].UserCode != "USER-1" || ui.events[0].URL != c.srv.URL+"/codex/device" {
		t.Errorf("notice %+v", ui.events[0])
	}
	checkCodexCredential(t, cred, access, clock.Now())
}

func TestCodexFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, access string
		polls        []func(http.ResponseWriter)
		want         string
	}{
		{"no account id", "not-a-jwt", []func(http.ResponseWriter){reply(200, `{"authorization_code":"a","code_verifier":"v"}`)}, "Failed to extract accountId from token"},
		{"device error", codexJWT("acct_1"), []func(http.ResponseWriter){reply(500, `{"error":"boom","device_auth_id":"dev-id"}`)}, "OpenAI Codex device auth failed with status 500: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newCodexServer(t, tc.access, tc.polls...)
			clock := &fakeClock{now: fixedNow}
			ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"select": answer(codexDeviceMethod)}}
			_, err := loginCodex(context.Background(), ui, &Endpoints{CodexAuthBase: c.srv.URL, Now: clock.Now, Sleep: clock.Sleep})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "dev-id") {
				t.Errorf("error leaks the device auth id: %s", err)
			}
		})
	}
}
