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

// githubServer is a GitHub device-flow server that answers the token
// polls from polls in turn, plus the Copilot token exchange and models.
type githubServer struct {
	t       *testing.T
	mu      sync.Mutex
	polls   []string
	forms   []url.Values
	enabled []string
	srv     *httptest.Server
}

func newGitHubServer(t *testing.T, interval string, polls ...string) *githubServer {
	g := &githubServer{t: t, polls: polls}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /login/device/code", func(w http.ResponseWriter, r *http.Request) {
		g.checkForm(r, map[string]string{"client_id": copilotClientID, "scope": "read:user"})
		fmt.Fprintf(w, `{"device_code":"DEV-CODE","user_code":"ABCD-1234","verification_uri":"https://github.com/login/device","expires_in":900%s}`, interval)
	})
	mux.HandleFunc("POST /login/oauth/access_token", func(w http.ResponseWriter, r *http.Request) {
		g.checkForm(r, map[string]string{"client_id": copilotClientID, "device_code": "DEV-CODE", "grant_type": deviceGrantType})
		g.mu.Lock()
		defer g.mu.Unlock()
		if len(g.polls) == 0 {
			_, _ = io.WriteString(w, `{"error":"authorization_pending"}`)
			return
		}
		reply := g.polls[0]
		g.polls = g.polls[1:]
		_, _ = io.WriteString(w, reply)
	})
	mux.HandleFunc("GET /copilot_internal/v2/token", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer gho_TOKEN" {
			t.Errorf("Copilot token exchange Authorization %q", r.Header.Get("Authorization"))
		}
		_, _ = io.WriteString(w, `{"token":"tid=1;proxy-ep=proxy.enterprise.githubcopilot.com;","expires_at":1800000000}`)
	})
	mux.HandleFunc("GET /models", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"data":[{"id":"gpt-4o","model_picker_enabled":true,"policy":{"state":"enabled"}},{"id":"claude-x","model_picker_enabled":true,"policy":{"state":"unconfigured"}},{"id":"unknown-y","model_picker_enabled":true,"policy":{"state":"unconfigured"}}]}`)
	})
	mux.HandleFunc("POST /models/{id}/policy", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.PathValue("id") != "claude-x" || string(b) != `{"state":"enabled"}` || r.Header.Get("openai-intent") != "chat-policy" ||
			r.Header.Get("x-interaction-type") != "chat-policy" || r.Header.Get("Authorization") != "Bearer tid=1;proxy-ep=proxy.enterprise.githubcopilot.com;" {
			t.Errorf("policy request %s %s %v", r.URL.Path, b, r.Header)
		}
		g.mu.Lock()
		g.enabled = append(g.enabled, r.PathValue("id"))
		g.mu.Unlock()
	})
	g.srv = httptest.NewServer(mux)
	t.Cleanup(g.srv.Close)
	return g
}

func (g *githubServer) checkForm(r *http.Request, want map[string]string) {
	if r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" || r.Header.Get("Accept") != "application/json" || r.Header.Get("User-Agent") != copilotUserAgent {
		g.t.Errorf("%s headers %v", r.URL.Path, r.Header)
	}
	if err := r.ParseForm(); err != nil {
		g.t.Error(err)
	}
	for k, v := range want {
		if r.PostForm.Get(k) != v {
			g.t.Errorf("%s %s = %q, want %q", r.URL.Path, k, r.PostForm.Get(k), v)
		}
	}
}

// fakeClock advances when the flow sleeps and records the waits.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Sleep(_ context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	return nil
}

func copilotEndpoints(g *githubServer, clock *fakeClock) *Endpoints {
	return &Endpoints{GitHubBase: g.srv.URL, CopilotTokenURL: g.srv.URL + "/copilot_internal/v2/token",
		CopilotModelsBase: g.srv.URL, Now: clock.Now, Sleep: clock.Sleep,
		CopilotKnownModel: func(id string) bool { return id != "unknown-y" }}
}

func TestCopilotDeviceFlow(t *testing.T) {
	t.Parallel()
	g := newGitHubServer(t, `,"interval":5`,
		`{"error":"authorization_pending"}`,
		`{"error":"slow_down"}`,
		`{"error":"slow_down","interval":7}`,
		`{"access_token":"gho_TOKEN","token_type":"bearer"}`)
	clock := &fakeClock{now: fixedNow}
	ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"text": answer(" https://company.ghe.com/ ")}}
	cred, err := loginCopilot(context.Background(), ui, copilotEndpoints(g, clock))
	if err != nil {
		t.Fatal(err)
	}
	// First poll after one interval; pending keeps it; slow_down adds 5s;
	// a slow_down with an interval sets it.
	want := []time.Duration{5 * time.Second, 5 * time.Second, 10 * time.Second, 7 * time.Second}
	if fmt.Sprint(clock.waits) != fmt.Sprint(want) {
		t.Errorf("poll waits %v, want %v", clock.waits, want)
	}
	var c map[string]any
	if err := json.Unmarshal(cred, &c); err != nil {
		t.Fatal(err)
	}
	if c["type"] != "oauth" || c["refresh"] != "gho_TOKEN" || c["enterpriseUrl"] != "company.ghe.com" ||
		c["access"] != "tid=1;proxy-ep=proxy.enterprise.githubcopilot.com;" || c["expires"] != float64(1800000000*1000-5*60*1000) {
		t.Errorf("credential %s", cred)
	}
	if fmt.Sprint(c["availableModelIds"]) != "[gpt-4o claude-x unknown-y]" || fmt.Sprint(g.enabled) != "[claude-x]" {
		t.Errorf("models %v, enabled %v", c["availableModelIds"], g.enabled)
	}
	var dev *Event
	for i := range ui.events {
		if ui.events[i].Kind == "device_code" {
			dev = &ui.events[i]
		}
	}
	if dev == nil || dev.UserCode != "ABCD-1234" || dev.URL != "https://github.com/login/device" {
		t.Errorf("device notice %+v", dev)
	}
}

func TestCopilotDeviceFlowFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, interval, domain string
		polls                  []string
		want                   string
	}{
		{"denied", "", "", []string{`{"error":"access_denied","error_description":"The user said no"}`}, "Device flow failed: access_denied: The user said no"},
		{"expired", `,"interval":300`, "", nil, "Device flow timed out"},
		{"expired after slow_down", `,"interval":300`, "", []string{`{"error":"slow_down"}`}, errSlowDownExpiry.Error()},
		{"malformed", "", "", []string{`{"weird":true}`}, "Invalid device token response"},
		{"bad domain", "", "https://", nil, "Invalid GitHub Enterprise URL/domain"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGitHubServer(t, tc.interval, tc.polls...)
			clock := &fakeClock{now: fixedNow}
			ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"text": answer(tc.domain)}}
			_, err := loginCopilot(context.Background(), ui, copilotEndpoints(g, clock))
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "DEV-CODE") {
				t.Errorf("error leaks the device code: %s", err)
			}
		})
	}
}

func TestCopilotDefaultPollInterval(t *testing.T) {
	t.Parallel()
	g := newGitHubServer(t, "", `{"access_token":"gho_TOKEN"}`)
	clock := &fakeClock{now: fixedNow}
	ui := &fakeUI{answers: map[string]func(context.Context, Prompt) (string, error){"text": answer("")}}
	if _, err := loginCopilot(context.Background(), ui, copilotEndpoints(g, clock)); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(clock.waits) != "[5s]" {
		t.Errorf("waits %v, want the default 5s before the first poll", clock.waits)
	}
}
