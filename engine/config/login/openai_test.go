package login

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

const testDeviceID = "0F8E2A4C-1B3D-4E5F-8A9B-C0D1E2F3A4B5"

func chatGPTServer(t *testing.T, reply string, form *url.Values) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/accounts/oauth/token" {
			t.Errorf("path %s", r.URL.Path)
		}
		_ = r.ParseForm()
		*form = r.PostForm
		_, _ = io.WriteString(w, reply)
	}))
	t.Cleanup(srv.Close)
	return srv
}

const chatGPTTokens = `{"access_token":"oa","refresh_token":"or","id_token":"idt","expires_in":3600,"scope":"openid chatgpt.tokens.use.direct"}`

func TestChatGPTCallback(t *testing.T) {
	t.Parallel()
	var form url.Values
	srv := chatGPTServer(t, chatGPTTokens, &form)
	ep := &Endpoints{OpenAIAuthBase: srv.URL, OpenAICallbackPort: -1, Now: func() time.Time { return fixedNow },
		DeviceID: func() (string, error) { return testDeviceID, nil }}
	ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"manual_code": blockUntilDone}}
	ui.onEvent = func(e Event) {
		if e.Kind != "auth_url" {
			return
		}
		u, _ := url.Parse(e.URL)
		q := u.Query()
		go func() {
			// Without the issued client id the callback is refused.
			for _, extra := range []string{"", "&client_id=issued-1"} {
				resp, err := http.Get(q.Get("redirect_uri") + "?code=gc&state=" + url.QueryEscape(q.Get("state")) + extra)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
			}
		}()
	}
	cred, err := loginChatGPT(context.Background(), ui, ep)
	if err != nil {
		t.Fatal(err)
	}
	q := authParams(t, ui)
	for k, v := range map[string]string{"client_id": chatGPTDynamicClient, "agent_name_hint": "Pi", "ext_agent_host_id": "urn:uuid:" + strings.ToLower(testDeviceID),
		"response_type": "code", "resource": chatGPTResource, "scope": chatGPTScope, "code_challenge_method": "S256"} {
		if q.Get(k) != v {
			t.Errorf("authorize %s = %q, want %q", k, q.Get(k), v)
		}
	}
	if form.Get("client_id") != "issued-1" || form.Get("code") != "gc" || form.Get("resource") != chatGPTResource ||
		pkceChallenge(form.Get("code_verifier")) != q.Get("code_challenge") || form.Get("redirect_uri") != q.Get("redirect_uri") {
		t.Errorf("exchange form %v", form)
	}
	want := fmt.Sprintf(`{"type":"oauth","access":"oa","refresh":"or","expires":%d,"clientId":"issued-1","scopes":["openid","chatgpt.tokens.use.direct"]}`, fixedNow.Add(57*time.Minute).UnixMilli())
	if string(cred) != want {
		t.Errorf("credential %s\nwant %s", cred, want)
	}
}

func TestChatGPTFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, reply, paste, device, want string
	}{
		{"no device id", chatGPTTokens, "", "", "Sign in with ChatGPT requires a device ID (UUID) for this installation"},
		{"not a URL", chatGPTTokens, "abc", testDeviceID, "Paste the full callback URL from the browser"},
		{"other URL", chatGPTTokens, "https://example.com/auth/callback?code=x", testDeviceID, "The pasted callback URL must start with "},
		{"no direct scope", `{"access_token":"oa","refresh_token":"or","id_token":"i","expires_in":60,"scope":"openid"}`, "OK", testDeviceID, "OpenAI OAuth grant did not include chatgpt.tokens.use.direct"},
		{"no id token", `{"access_token":"oa","refresh_token":"or","expires_in":60,"scope":"x"}`, "OK", testDeviceID, "OpenAI OAuth token response did not contain an ID token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var form url.Values
			srv := chatGPTServer(t, tc.reply, &form)
			ep := &Endpoints{OpenAIAuthBase: srv.URL, OpenAICallbackPort: -1, DeviceID: func() (string, error) { return tc.device, nil }}
			ui := &fakeUI{}
			ui.answers = map[string]func(context.Context, Prompt) (string, error){"manual_code": func(_ context.Context, p Prompt) (string, error) {
				if tc.paste == "OK" {
					return p.Placeholder + "?code=c&client_id=cid&state=" + url.QueryEscape(authParams(t, ui).Get("state")), nil
				}
				return tc.paste, nil
			}}
			_, err := loginChatGPT(context.Background(), ui, ep)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}
