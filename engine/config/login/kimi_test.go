package login

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func kimiServer(t *testing.T, polls ...string) *httptest.Server {
	var mu sync.Mutex
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/oauth/device_authorization", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.PostForm.Get("client_id") != kimiClientID {
			t.Errorf("device form %v", r.PostForm)
		}
		_, _ = io.WriteString(w, `{"device_code":"kdev","user_code":"K-1","verification_uri":"https://www.kimi.com/device","verification_uri_complete":"https://www.kimi.com/device?user_code=K-1","interval":3,"expires_in":600}`)
	})
	mux.HandleFunc("POST /api/oauth/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.PostForm.Get("device_code") != "kdev" || r.PostForm.Get("grant_type") != deviceGrantType {
			t.Errorf("token form %v", r.PostForm)
		}
		mu.Lock()
		defer mu.Unlock()
		p := polls[0]
		polls = polls[1:]
		status := 200
		if _, err := fmt.Sscanf(p, "%d ", &status); err == nil {
			p = p[4:]
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, p)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestKimiDeviceFlow(t *testing.T) {
	t.Parallel()
	srv := kimiServer(t, `400 {"error":"authorization_pending"}`, `400 {"error":"slow_down"}`, `{"access_token":"ka","refresh_token":"kr","expires_in":900}`)
	clock := &fakeClock{now: fixedNow}
	ui := &fakeUI{}
	cred, err := loginKimi(context.Background(), ui, &Endpoints{KimiHost: srv.URL + "/", Now: clock.Now, Sleep: clock.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(clock.waits) != "[3s 3s 8s]" {
		t.Errorf("waits %v", clock.waits)
	}
	if ui.events[0].URL != "https://www.kimi.com/device?user_code=K-1" {
		t.Errorf("notice %+v", ui.events[0])
	}
	if want := fmt.Sprintf(`{"type":"oauth","access":"ka","refresh":"kr","expires":%d}`, clock.Now().Add(900*time.Second).UnixMilli()); string(cred) != want {
		t.Errorf("credential %s, want %s", cred, want)
	}
}

func TestKimiFailures(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, poll, want string }{
		{"denied", `400 {"error":"access_denied"}`, "Kimi Code login was denied."},
		{"expired", `400 {"error":"expired_token"}`, "Kimi Code device authorization expired. Please restart login."},
		{"server", `502 upstream kdev`, "Kimi Code device token request failed with status 502: upstream [redacted]"},
		{"missing", `{"access_token":"ka"}`, "Kimi Code token poll response missing fields: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := kimiServer(t, tc.poll)
			clock := &fakeClock{now: fixedNow}
			_, err := loginKimi(context.Background(), &fakeUI{}, &Endpoints{KimiHost: srv.URL, Now: clock.Now, Sleep: clock.Sleep})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}
