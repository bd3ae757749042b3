package login

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestMetaDeviceFlow(t *testing.T) {
	t.Parallel()
	polls := []string{`{"error":"authorization_pending"}`, `{"access_token":"meta-identity"}`}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oidc/device/authorization/", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.PostForm.Get("client_id") != metaClientID {
			t.Errorf("form %v", r.PostForm)
		}
		_, _ = io.WriteString(w, `{"device_code":"mdev","user_code":"M-1","verification_uri":"https://meta.com/device","interval":2}`)
	})
	mux.HandleFunc("POST /oidc/device/token/", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.PostForm.Get("device_code") != "mdev" || r.PostForm.Get("grant_type") != deviceGrantType {
			t.Errorf("form %v", r.PostForm)
		}
		p := polls[0]
		polls = polls[1:]
		_, _ = io.WriteString(w, p)
	})
	mux.HandleFunc("POST /muse-code/key", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer meta-identity" || r.Header.Get("x-api-version") != "1.0.0" {
			t.Errorf("mint headers %v", r.Header)
		}
		_, _ = io.WriteString(w, `{"api_key":"meta-key"}`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	clock := &fakeClock{now: fixedNow}
	ui := &fakeUI{}
	cred, err := loginMeta(context.Background(), ui, &Endpoints{MetaAuthBase: srv.URL, MetaMintURL: srv.URL + "/muse-code/key", Now: clock.Now, Sleep: clock.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	_ = json.Unmarshal(cred, &c)
	if c["type"] != "oauth" || c["refresh"] != "meta-identity" || c["access"] != "meta-key" {
		t.Errorf("credential %s", cred)
	}
	if fmt.Sprint(clock.waits) != "[2s 2s]" || ui.events[0].URL != "https://meta.com/device" {
		t.Errorf("waits %v, events %+v", clock.waits, ui.events)
	}
}
