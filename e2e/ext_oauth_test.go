package e2e_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oauthExt registers provider "corp" on the mock with OAuth code and no
// API key: requests carry getApiKey(credentials), refreshToken fails for
// the refresh token "fail", and modifyModels renames the models.
const oauthExt = `export default function (pi) {
  pi.registerProvider("corp", {
    baseUrl: "__BASE__", api: "__API__",
    models: [{ id: "c1", name: "Corp One", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100000, maxTokens: 1000 }],
    oauth: {
      name: "Corp SSO",
      async login() { throw new Error("interactive only"); },
      async refreshToken(cred) {
        if (cred.refresh === "fail") throw new Error("refresh boom");
        return { refresh: cred.refresh + "-2", access: "fresh-access", expires: Date.now() + 3600000 };
      },
      getApiKey(cred) { return "KEY-" + cred.access; },
      modifyModels(models) { return models.map((m) => ({ ...m, name: m.name + " (sub)" })); },
    },
  });
}
`

// TestRegisterProviderOAuthEndToEnd drives the binary with a provider
// whose credentials are an expired OAuth token in auth.json: the request
// carries the refreshed token's key, auth.json holds the refreshed
// credentials (other entries untouched), and a refresh that fails ends
// the run with the reference's error message.
func TestRegisterProviderOAuthEndToEnd(t *testing.T) {
	t.Parallel()
	for _, api := range apis {
		t.Run(api, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, api, `[{"text":"from corp"}]`, nil)
			base := e.srv.URL()
			if api == "anthropic-messages" {
				base = e.srv.BaseURL()
			}
			e.write("corp.ts", strings.NewReplacer("__BASE__", base, "__API__", api).Replace(oauthExt))
			authPath := filepath.Join(e.agentDir, "auth.json")
			auth := `{"other":{"type":"api_key","key":"k"},"corp":{"type":"oauth","refresh":"r1","access":"old","expires":1000,"accountId":"a"}}`
			if err := os.WriteFile(authPath, []byte(auth), 0o600); err != nil {
				t.Fatal(err)
			}

			r := e.run("", "-p", "--model", "corp/c1", "-e", "corp.ts", "hello")
			if r.code != 0 || !strings.Contains(r.stdout, "from corp") {
				t.Fatalf("print run: code %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			reqs := e.srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("want 1 request, got %d\nstderr: %s", len(reqs), r.stderr)
			}
			h := lowerKeys(reqs[0].Headers)
			if h["authorization"] != "Bearer KEY-fresh-access" && h["x-api-key"] != "KEY-fresh-access" {
				t.Errorf("refreshed key not sent: %v", h)
			}
			b, err := os.ReadFile(authPath)
			if err != nil {
				t.Fatal(err)
			}
			var stored struct {
				Other json.RawMessage `json:"other"`
				Corp  struct {
					Type, Refresh, Access string
					Expires               float64
				} `json:"corp"`
			}
			if err := json.Unmarshal(b, &stored); err != nil {
				t.Fatalf("auth.json: %v\n%s", err, b)
			}
			if stored.Corp.Type != "oauth" || stored.Corp.Refresh != "r1-2" || stored.Corp.Access != "fresh-access" || compactJSON(stored.Other) != `{"type":"api_key","key":"k"}` {
				t.Errorf("auth.json not updated as the reference writes it:\n%s", b)
			}
			if !strings.HasPrefix(string(b), "{\n  \"other\": {\n    \"type\": \"api_key\",") {
				t.Errorf("auth.json layout:\n%s", b)
			}
			if _, err := os.Stat(authPath + ".lock"); !os.IsNotExist(err) {
				t.Errorf("auth.json.lock left behind: %v", err)
			}

			// The token is now valid: RPC uses it as stored, and
			// modifyModels named the models for the OAuth credential.
			stdin := `{"id":"1","type":"get_available_models"}` + "\n"
			r = e.run(stdin, "--mode", "rpc", "-e", "corp.ts")
			if !strings.Contains(r.stdout, `"name":"Corp One (sub)"`) {
				t.Errorf("get_available_models: %s\nstderr: %s", r.stdout, r.stderr)
			}
			after, _ := os.ReadFile(authPath)
			if string(after) != string(b) {
				t.Errorf("a valid token was refreshed again:\n%s", after)
			}

			// A refresh that fails is the request's error.
			failing := `{"corp":{"type":"oauth","refresh":"fail","access":"old","expires":1000}}`
			if err := os.WriteFile(authPath, []byte(failing), 0o600); err != nil {
				t.Fatal(err)
			}
			r = e.run("", "--mode", "json", "--model", "corp/c1", "-e", "corp.ts", "hello")
			last := lastAssistant(records(t, r.stdout))
			if last == nil || last["stopReason"] != "error" || last["errorMessage"] != "OAuth refresh failed for corp: refresh boom" {
				t.Errorf("json run: last assistant %v\nstderr: %s", last, r.stderr)
			}
			if !strings.Contains(r.stdout, `"stopReason":"error","errorMessage":"OAuth refresh failed for corp: refresh boom","timestamp"`) {
				t.Errorf("errorMessage is written before timestamp, as the reference does:\n%s", r.stdout)
			}
			if after, _ := os.ReadFile(authPath); string(after) != failing {
				t.Errorf("a failed refresh changed auth.json:\n%s", after)
			}
		})
	}
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
