package login

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

func xaiServer(t *testing.T, device string, polls ...string) *httptest.Server {
	var mu sync.Mutex
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth2/device/code", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.PostForm.Get("client_id") != xaiClientID || r.PostForm.Get("scope") != xaiScope || r.PostForm.Get("referrer") != "pi" {
			t.Errorf("device form %v", r.PostForm)
		}
		_, _ = io.WriteString(w, device)
	})
	mux.HandleFunc("POST /oauth2/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.PostForm.Get("grant_type") != deviceGrantType || r.PostForm.Get("device_code") != "xdev" || r.PostForm.Get("client_id") != xaiClientID {
			t.Errorf("token form %v", r.PostForm)
		}
		mu.Lock()
		defer mu.Unlock()
		p := polls[0]
		polls = polls[1:]
		status := 200
		if p[0] == '!' {
			status, p = 400, p[1:]
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, p)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

const xaiDevice = `{"device_code":"xdev","user_code":"XU-1","verification_uri":"https://accounts.x.ai/device","verification_uri_complete":"https://accounts.x.ai/device?code=XU-1","interval":2,"expires_in":600}`

func TestXAIDeviceFlow(t *testing.T) {
	t.Parallel()
	srv := xaiServer(t, xaiDevice, `!{"error":"authorization_pending"}`, `!{"error":"slow_down","interval":4}`, `{"access_token":"xa","refresh_token":"xr","expires_in":7200}`)
	clock := &fakeClock{now: fixedNow}
	ui := &fakeUI{}
	cred, err := loginXAI(context.Background(), ui, &Endpoints{XAIAuthBase: srv.URL, Now: clock.Now, Sleep: clock.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(clock.waits) != "[2s 2s 4s]" {
		t.Errorf("waits %v", clock.waits)
	}
	if ui.events[0].URL != "https://accounts.x.ai/device?code=XU-1" || ui.events[0].UserCode != "XU-1" {
		t.Errorf("notice %+v", ui.events[0])
	}
	want := fmt.Sprintf(`{"type":"oauth","access":"xa","refresh":"xr","expires":%d}`, clock.Now().Add(2*time.Hour-5*time.Minute).UnixMilli())
	if string(cred) != want {
		t.Errorf("credential %s, want %s", cred, want)
	}
}

func TestXAIFailures(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, device, poll, want string }{
		{"denied", xaiDevice, `!{"error":"access_denied"}`, "xAI device authorization was denied"},
		{"expired", xaiDevice, `!{"error":"expired_token"}`, "xAI device code expired"},
		{"other", xaiDevice, `!{"error":"server_error","error_description":"down"}`, "xAI OAuth device token polling failed (HTTP 400): server_error: down"},
		{"no refresh token", xaiDevice, `{"access_token":"xa"}`, "Invalid xAI OAuth response field: refresh_token"},
		{"http verification", `{"device_code":"xdev","user_code":"U","verification_uri":"http://evil","expires_in":5}`, ``, "Untrusted verification URI in xAI OAuth response"},
		{"invalid JSON", xaiDevice, `not json`, "xAI OAuth returned invalid JSON (HTTP 200)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := xaiServer(t, tc.device, tc.poll)
			clock := &fakeClock{now: fixedNow}
			_, err := loginXAI(context.Background(), &fakeUI{}, &Endpoints{XAIAuthBase: srv.URL, Now: clock.Now, Sleep: clock.Sleep})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}
