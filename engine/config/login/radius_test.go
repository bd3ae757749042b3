package login

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine/config"
)

// radiusGateway is a fake gateway: discovery, the token endpoint (answers
// popped from polls; "!" marks a 400) and device authorization.
func radiusGateway(t *testing.T, device string, polls ...string) (*httptest.Server, *[]url.Values) {
	var mu sync.Mutex
	var forms []url.Values
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("GET /v1/oauth", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"authorizationEndpoint":%q}`, srv.URL+"/authorize")
	})
	mux.HandleFunc("POST /v1/oauth/device", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.PostForm.Get("client_id") != config.RadiusClientID || r.PostForm.Get("scope") != config.RadiusScope {
			t.Errorf("device form %v", r.PostForm)
		}
		_, _ = io.WriteString(w, device)
	})
	mux.HandleFunc("POST /v1/oauth/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		defer mu.Unlock()
		forms = append(forms, r.PostForm)
		p := polls[0]
		polls = polls[1:]
		if p[0] == '!' {
			w.WriteHeader(400)
			p = p[1:]
		}
		_, _ = io.WriteString(w, p)
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &forms
}

const radiusToken = `{"access_token":"ra","refresh_token":"rr","expires_in":3600,"scope":"gateway offline_access"}`

func TestRadiusBrowserFlow(t *testing.T) {
	t.Parallel()
	srv, forms := radiusGateway(t, "", radiusToken)
	clock := &fakeClock{now: fixedNow}
	ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"select": answer(radiusBrowser)}}
	// The "browser": follow the auth URL's redirect_uri with a code and the state.
	ui.onEvent = func(e Event) {
		if e.Kind != "auth_url" {
			return
		}
		u, _ := url.Parse(e.URL)
		q := u.Query()
		want := []string{"response_type", "client_id", "redirect_uri", "scope", "code_challenge", "code_challenge_method", "handoff", "state"}
		var got []string
		for _, kv := range strings.Split(u.RawQuery, "&") {
			k, _, _ := strings.Cut(kv, "=")
			got = append(got, k)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || u.Path != "/authorize" || q.Get("client_id") != "pi-gateway" || q.Get("handoff") != "url" || q.Get("code_challenge_method") != "S256" {
			t.Errorf("authorize URL %s", e.URL)
		}
		go func() {
			resp, err := http.Get(q.Get("redirect_uri") + "?code=the-code&state=" + url.QueryEscape(q.Get("state")))
			if err == nil {
				resp.Body.Close()
			}
		}()
	}
	cred, err := loginRadius(context.Background(), ui, &Endpoints{RadiusGateway: srv.URL, RadiusCallbackPort: -1, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`{"type":"oauth","access":"ra","refresh":"rr","expires":%d,"scope":"gateway offline_access"}`, fixedNow.Add(time.Hour-time.Minute).UnixMilli())
	if string(cred) != want {
		t.Errorf("credential %s, want %s", cred, want)
	}
	f := (*forms)[0]
	if f.Get("grant_type") != "authorization_code" || f.Get("code") != "the-code" || f.Get("code_verifier") == "" || !strings.HasPrefix(f.Get("redirect_uri"), "http://127.0.0.1:") {
		t.Errorf("exchange form %v", f)
	}
	if ui.events[0].Kind != "progress" || !strings.HasPrefix(ui.events[0].Message, "Listening for OAuth callback on http://127.0.0.1:") {
		t.Errorf("first notice %+v", ui.events[0])
	}
}

// TestRadiusDeviceFlow polls as the reference does: the first poll at
// once (no wait before it), then every interval, five seconds more after
// slow_down.
func TestRadiusDeviceFlow(t *testing.T) {
	t.Parallel()
	device := `{"device_code":"rdev","user_code":"RU-1","verification_uri":"https://radius.example/device","expires_in":600,"interval":3}`
	tests := []struct {
		name  string
		polls []string
		want  string // credential prefix, or the error
		waits string
	}{
		{"success", []string{`!{"error":"authorization_pending"}`, `!{"error":"slow_down"}`, radiusToken}, `{"type":"oauth","access":"ra"`, "[3s 8s]"},
		{"expired", []string{`!{"error":"expired_token"}`}, "Device authorization expired.", ""},
		{"denied", []string{`!{"error":"access_denied"}`}, "Device authorization was denied.", ""},
		{"other", []string{`!{"error":"server_error","error_description":"down"}`}, "Radius OAuth token request failed: server_error: down", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, forms := radiusGateway(t, device, tc.polls...)
			clock := &fakeClock{now: fixedNow}
			ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"select": answer(radiusDeviceCode)}}
			cred, err := loginRadius(context.Background(), ui, &Endpoints{RadiusGateway: srv.URL, Now: clock.Now, Sleep: clock.Sleep})
			got := string(cred)
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if tc.waits != "" && fmt.Sprint(clock.waits) != tc.waits {
				t.Errorf("waits %v, want %s", clock.waits, tc.waits)
			}
			if f := (*forms)[0]; f.Get("grant_type") != deviceGrantType || f.Get("device_code") != "rdev" || f.Get("client_id") != config.RadiusClientID {
				t.Errorf("poll form %v", f)
			}
			if ui.events[0].Kind != "device_code" || ui.events[0].UserCode != "RU-1" {
				t.Errorf("notice %+v", ui.events[0])
			}
		})
	}
}

func TestRadiusDeviceRejectsBadAnswers(t *testing.T) {
	t.Parallel()
	for device, want := range map[string]string{
		`{"device_code":"d","user_code":"u","expires_in":5}`:                                "Radius OAuth device authorization response is missing required fields",
		`{"device_code":"d","user_code":"u","verification_uri":"ftp://x/y","expires_in":5}`: "Untrusted verification_uri in Radius OAuth device authorization response",
	} {
		srv, _ := radiusGateway(t, device)
		ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"select": answer(radiusDeviceCode)}}
		_, err := loginRadius(context.Background(), ui, &Endpoints{RadiusGateway: srv.URL})
		if err == nil || err.Error() != want {
			t.Errorf("%s: err %v, want %q", device, err, want)
		}
	}
}

func TestRadiusRefresh(t *testing.T) {
	t.Parallel()
	srv, forms := radiusGateway(t, "", radiusToken)
	h := &config.RadiusOAuth{Gateway: srv.URL, Now: func() time.Time { return fixedNow }}
	cred, err := h.RefreshToken(context.Background(), []byte(`{"type":"oauth","access":"old","refresh":"r-old","expires":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cred), `"access":"ra"`) {
		t.Errorf("refreshed %s", cred)
	}
	if f := (*forms)[0]; f.Get("grant_type") != "refresh_token" || f.Get("refresh_token") != "r-old" || f.Get("client_id") != "pi-gateway" {
		t.Errorf("refresh form %v", f)
	}
	if key, _ := h.APIKey(context.Background(), cred); key != "ra" {
		t.Errorf("api key %q", key)
	}
}

func TestRadiusCatalog(t *testing.T) {
	t.Parallel()
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		if r.URL.Path != "/v1/config" {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, `{"baseUrl":"https://gw.example/v1","models":[
			{"id":"m1","name":"One","reasoning":true,"input":["text"],"cost":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":100},
			{"id":"broken","name":"No cost","reasoning":false,"input":["text"],"contextWindow":1,"maxTokens":1}]}`)
	}))
	t.Cleanup(srv.Close)
	models, err := config.LoadRadiusCatalog(context.Background(), nil, srv.URL, "radius", "the-key")
	if err != nil {
		t.Fatal(err)
	}
	if gotAuth != "Bearer the-key" {
		t.Errorf("authorization %q", gotAuth)
	}
	if len(models) != 1 || !strings.Contains(string(models[0]), `"api":"pi-messages"`) || !strings.Contains(string(models[0]), `"baseUrl":"https://gw.example/v1"`) || !strings.Contains(string(models[0]), `"provider":"radius"`) {
		t.Fatalf("models %s", models)
	}
	if _, err := config.LoadRadiusCatalog(context.Background(), nil, srv.URL+"/nope", "radius", "k"); err == nil || !strings.Contains(err.Error(), "Could not load Radius config from") {
		t.Errorf("err %v", err)
	}
}
