package login

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestOpenRouterLogin(t *testing.T) {
	t.Parallel()
	var got map[string]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &got)
		_, _ = io.WriteString(w, `{"key":"sk-or-v1-KEY","user_id":"u1"}`)
	}))
	defer srv.Close()
	ep := &Endpoints{OpenRouterKeys: srv.URL, OpenRouterAuthorize: "https://openrouter.test/auth"}
	ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"manual_code": blockUntilDone}}
	ui.onEvent = func(e Event) {
		if e.Kind != "auth_url" {
			return
		}
		u, _ := url.Parse(e.URL)
		cb := u.Query().Get("callback_url")
		if !strings.HasPrefix(cb, "http://127.0.0.1:") || !strings.Contains(cb, "/oauth/callback/") {
			t.Errorf("callback_url %q", cb)
		}
		go func() {
			resp, err := http.Get(cb + "?code=or-code")
			if err == nil {
				resp.Body.Close()
			}
		}()
	}
	cred, err := loginOpenRouter(context.Background(), ui, ep)
	if err != nil {
		t.Fatal(err)
	}
	q := authParams(t, ui)
	if got["code"] != "or-code" || got["code_challenge_method"] != "S256" || pkceChallenge(got["code_verifier"]) != q.Get("code_challenge") {
		t.Errorf("exchange %v, challenge %q", got, q.Get("code_challenge"))
	}
	if string(cred) != `{"type":"oauth","access":"sk-or-v1-KEY","refresh":"","expires":9007199254740991}` {
		t.Errorf("credential %s", cred)
	}
}

func TestOpenRouterPasteAndFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, paste, reply, want string
		status                   int
	}{
		{"refused", "http://127.0.0.1:1/oauth/callback/x?code=pc", `{"error":{"message":"bad code pc"}}`, "OpenRouter OAuth key exchange failed (HTTP 400): bad code [redacted]", 400},
		{"no key", "code=pc", `{}`, `OpenRouter OAuth response carries no "key"`, 200},
		{"invalid JSON", "pc", `nope`, "OpenRouter OAuth returned invalid JSON", 200},
		{"empty", " ", ``, "Missing authorization code", 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, tc.reply)
			}))
			defer srv.Close()
			ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"manual_code": answer(tc.paste)}}
			_, err := loginOpenRouter(context.Background(), ui, &Endpoints{OpenRouterKeys: srv.URL})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}
