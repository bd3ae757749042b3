package e2e_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSecretsStaySecret signs in to a provider with an OAuth token and an
// API key, and points it at a server that refuses every request with a body
// echoing the credential it was sent (as some gateways do). The secret must
// appear in no output: not in print or JSON mode's stdout or stderr (with
// --verbose), not in the session file, and not in the HTML export.
func TestSecretsStaySecret(t *testing.T) {
	t.Parallel()
	const (
		oauthToken  = "sk-ant-oat01-SECRET-OAUTH-0123456789abcdef"
		apiKey      = "sk-or-v1-SECRET-APIKEY-fedcba9876543210"
		radiusToken = "gw7Qk2ZxR4vN9pL3mT8sY1cB6dH0jF5a"
	)
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		cred := r.Header.Get("Authorization") + " " + r.Header.Get("X-Api-Key")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"authentication_error","message":"token rejected: %s"}}`, strings.TrimSpace(cred))
	}))
	t.Cleanup(echo.Close)

	cases := []struct {
		name, provider, model, secret string
		auth                          map[string]any
		models                        map[string]any
		store                         map[string]any // models-store.json
	}{
		{
			name: "oauth", provider: "anthropic", model: "claude-sonnet-4-5", secret: oauthToken,
			auth: map[string]any{"anthropic": map[string]any{"type": "oauth", "access": oauthToken,
				"refresh": "refresh-SECRET", "expires": time.Now().Add(time.Hour).UnixMilli()}},
			models: map[string]any{"providers": map[string]any{"anthropic": map[string]any{"baseUrl": echo.URL}}},
		},
		{
			// A models.json Radius provider: its access token has no
			// recognisable shape, so only knowing it can mask it.
			name: "radius-oauth", provider: "myradius", model: "team-fast", secret: radiusToken,
			auth: map[string]any{"myradius": map[string]any{"type": "oauth", "access": radiusToken,
				"refresh": "radius-refresh-SECRET", "expires": time.Now().Add(time.Hour).UnixMilli()}},
			models: map[string]any{"providers": map[string]any{"myradius": map[string]any{
				"baseUrl": echo.URL + "/v1", "oauth": "radius"}}},
			store: map[string]any{"myradius": map[string]any{"checkedAt": 1, "models": []any{map[string]any{
				"id": "team-fast", "name": "Team Fast", "reasoning": false, "input": []any{"text"},
				"cost":          map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
				"contextWindow": 100000, "maxTokens": 8000, "api": "pi-messages", "provider": "myradius",
				"baseUrl": echo.URL + "/v1"}}}},
		},
		{
			name: "api-key", provider: "leaky", model: "m1", secret: apiKey,
			auth: map[string]any{"leaky": map[string]any{"type": "api_key", "key": apiKey}},
			models: map[string]any{"providers": map[string]any{"leaky": map[string]any{
				"baseUrl": echo.URL + "/v1", "api": "openai-completions",
				"models": []any{map[string]any{"id": "m1"}}}}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "openai-completions", `[]`, map[string]any{"retry": map[string]any{"enabled": false}})
			e.writeJSON(filepath.Join(e.agentDir, "auth.json"), c.auth)
			e.writeJSON(filepath.Join(e.agentDir, "models.json"), c.models)
			if c.store != nil {
				e.writeJSON(filepath.Join(e.agentDir, "models-store.json"), c.store)
			}
			var outputs []string
			for _, mode := range [][]string{{"-p"}, {"--mode", "json"}} {
				args := append(append([]string{}, mode...), "--verbose", "--provider", c.provider, "--model", c.model, "hello")
				r := e.run("", args...)
				if r.code == 0 && !strings.Contains(r.stdout+r.stderr, "401") && !strings.Contains(r.stdout+r.stderr, "rejected") {
					t.Fatalf("%v: the refused request should surface as an error; stdout=%q stderr=%q", mode, r.stdout, r.stderr)
				}
				outputs = append(outputs, "stdout "+strings.Join(mode, " ")+": "+r.stdout, "stderr: "+r.stderr)
			}
			files := e.sessionFiles()
			if len(files) == 0 {
				t.Fatal("no session file was written")
			}
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				outputs = append(outputs, "session "+f+": "+string(b))
			}
			html := filepath.Join(e.root, "out.html")
			if r := e.run("", "--export", files[0], html); r.code != 0 {
				t.Fatalf("export: %+v", r)
			}
			b, err := os.ReadFile(html)
			if err != nil {
				t.Fatal(err)
			}
			outputs = append(outputs, "html: "+string(b))
			for _, o := range outputs {
				if strings.Contains(o, c.secret) {
					i := strings.Index(o, c.secret)
					t.Errorf("the secret leaked in %s", o[:min(len(o), max(0, i-200)+400)])
				}
			}
			// The error stays useful: the server's message is shown, with
			// the credential masked.
			var sawMessage bool
			for _, o := range outputs {
				sawMessage = sawMessage || strings.Contains(o, "token rejected")
			}
			if !sawMessage {
				t.Errorf("the server's error message was lost:\n%s", strings.Join(outputs, "\n"))
			}
		})
	}
}
