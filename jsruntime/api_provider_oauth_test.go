package jsruntime

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// oauthExt registers "corp" with oauth code and refreshModels. Its
// refreshToken fails when the stored refresh token is "fail".
const oauthExt = `
const note = (ctx, tag, v) => ctx.ui.notify(tag + "=" + JSON.stringify(v === undefined ? "<undefined>" : v));
const seen = [];
export default function (pi) {
  pi.registerProvider("corp", {
    baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions",
    models: [{ id: "c1", name: "C1" }],
    oauth: {
      name: "Corp SSO",
      async login() { throw new Error("no login here"); },
      async refreshToken(cred, signal) {
        seen.push(["refresh", cred, typeof signal.aborted]);
        if (cred.refresh === "fail") throw new Error("refresh boom");
        return { refresh: cred.refresh + "+", access: "fresh", expires: Date.now() + 3600000 };
      },
      getApiKey(cred) { seen.push(["key", cred.access]); return "KEY-" + cred.access; },
      modifyModels(models, cred) { return models.map((m) => ({ ...m, name: m.name + " (" + cred.type + ")" })); },
    },
    async refreshModels(ctx) {
      seen.push(["models", Object.keys(ctx), ctx.credential && ctx.credential.type, ctx.stored, ctx.allowNetwork, ctx.baseUrl]);
      await ctx.publish({ persist: { models: ["r1"] } });
      return [{ id: "r1", name: "R1" }, { id: "r2" }];
    },
  });
  pi.registerProvider("flaky", {
    baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "k", models: [{ id: "f1" }],
    async refreshModels() { throw new Error("catalog down"); },
  });
  pi.registerCommand("probe", { handler: async (_a, ctx) => {
    const mr = ctx.modelRegistry;
    const m = mr.find("corp", "r1");
    note(ctx, "names", mr.getAll().filter((x) => x.provider === "corp").map((x) => x.name));
    note(ctx, "display", mr.getProviderDisplayName("corp"));
    note(ctx, "provider", mr.getProvider("corp"));
    note(ctx, "usingOAuth", mr.isUsingOAuth(m));
    note(ctx, "status", mr.getProviderAuthStatus("corp"));
    note(ctx, "akh", await mr.getApiKeyAndHeaders(m));
    note(ctx, "akp", await mr.getApiKeyForProvider("corp"));
    try { note(ctx, "pauth", await mr.getProviderAuth("corp")); } catch (e) { note(ctx, "pauth", "threw " + e.message); }
    note(ctx, "seen", seen);
    const r = await mr.refresh({ allowNetwork: false });
    note(ctx, "refresh", [r.aborted, [...r.errors].map(([k, e]) => k + ": " + e.message)]);
  }});
}
`

func TestRegisterProviderOAuth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		refresh string
		want    map[string]string
	}{
		{
			name: "expired credential is refreshed and used", refresh: "r",
			want: map[string]string{
				// r2 has no name: the reference leaves a definition's name
				// undefined, and modifyModels sees that.
				"names":      `["R1 (oauth)","undefined (oauth)"]`,
				"display":    `"Corp SSO"`,
				"provider":   `{"id":"corp","name":"Corp SSO","baseUrl":"http://127.0.0.1:9/v1"}`,
				"usingOAuth": `true`,
				"status":     `{"configured":true,"source":"stored"}`,
				"akh":        `{"ok":true,"apiKey":"KEY-fresh"}`,
				"akp":        `"KEY-fresh"`,
				"pauth":      `{"auth":{"apiKey":"KEY-fresh"},"source":"OAuth"}`,
				"refresh":    `[false,["flaky: catalog down"]]`,
				"seen": `[["models",["credential","stored","publish","allowNetwork","force","signal","baseUrl"],"oauth",null,false,"http://127.0.0.1:9/v1"],` +
					`["refresh",{"type":"oauth","refresh":"r","access":"old","expires":1000},"boolean"],["key","fresh"],["key","fresh"],["key","fresh"],["key","fresh"]]`,
			},
		},
		{
			name: "a failing refresh is the caller's error", refresh: "fail",
			want: map[string]string{
				"akh":   `{"ok":false,"error":"refresh boom"}`,
				"akp":   `"<undefined>"`,
				"pauth": `"threw OAuth refresh failed for corp: refresh boom"`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			auth := `{"corp":{"type":"oauth","refresh":"` + tc.refresh + `","access":"old","expires":1000}}`
			require.NoError(t, os.WriteFile(filepath.Join(dir, "auth.json"), []byte(auth), 0o600))
			h := newProviderHarnessIn(t, dir, oauthExt)
			require.NoError(t, h.flushErr)
			got := h.command(t, "/probe")
			for tag, want := range tc.want {
				assert.Equal(t, want, got[tag], tag)
			}
			b, err := os.ReadFile(filepath.Join(dir, "auth.json"))
			require.NoError(t, err)
			var stored map[string]map[string]any
			require.NoError(t, json.Unmarshal(b, &stored))
			if tc.refresh == "fail" {
				assert.Equal(t, auth, string(b))
				return
			}
			assert.Equal(t, "r+", stored["corp"]["refresh"])
			assert.True(t, strings.HasPrefix(string(b), "{\n  \"corp\": {\n    \"refresh\": \"r+\",\n    \"access\": \"fresh\","), string(b))
			store, err := os.ReadFile(filepath.Join(dir, "models-store.json"))
			require.NoError(t, err)
			assert.JSONEq(t, `{"corp":{"models":["r1"]}}`, string(store), "publish({persist}) reaches models-store.json")
			require.True(t, h.reg.UsesOAuth("corp"))
			h.api.unregisterProvider("corp")
			assert.False(t, h.reg.UsesOAuth("corp"), "unregistering drops the provider's OAuth code")
		})
	}
}
