package jsruntime

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builtinOAuthExt asks ctx.modelRegistry about built-in providers.
const builtinOAuthExt = `
const note = (ctx, tag, v) => ctx.ui.notify(tag + "=" + JSON.stringify(v === undefined ? "<undefined>" : v));
export default function (pi) {
  pi.registerCommand("probe", { handler: async (_a, ctx) => {
    const mr = ctx.modelRegistry;
    for (const [p, id] of [["github-copilot", "claude-fable-5"], ["anthropic", "claude-sonnet-4-5"], ["openai", "gpt-4o"]]) {
      const m = mr.find(p, id);
      note(ctx, p + ".oauth", mr.isUsingOAuth(m));
      const r = await mr.getApiKeyAndHeaders(m);
      note(ctx, p + ".akh", [r.ok, r.apiKey, r.baseUrl]);
      note(ctx, p + ".headers", r.headers);
    }
  }});
}
`

// TestBuiltinOAuthInModelRegistry checks isUsingOAuth and
// getApiKeyAndHeaders for built-in providers with a stored OAuth
// credential, as the reference answered them (Copilot's base URL comes
// from its token's proxy endpoint).
func TestBuiltinOAuthInModelRegistry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exp := strconv.FormatInt(time.Now().Add(24*time.Hour).UnixMilli(), 10)
	const copilotToken = "tid=1;exp=9999999999;proxy-ep=proxy.individual.githubcopilot.com;sku=x"
	auth := `{"github-copilot":{"type":"oauth","refresh":"ghu_x","access":"` + copilotToken + `","expires":` + exp + `},` +
		`"anthropic":{"type":"oauth","refresh":"r","access":"sk-ant-oat01-abc","expires":` + exp + `},` +
		`"openai":{"type":"api_key","key":"sk-1"}}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "auth.json"), []byte(auth), 0o600))
	h := newProviderHarnessIn(t, dir, builtinOAuthExt)
	require.NoError(t, h.flushErr)
	h.reg.EnableBuiltinOAuth() // as cmd/pi does
	got := h.command(t, "/probe")
	want := map[string]string{
		"github-copilot.oauth": `true`,
		"github-copilot.akh":   `[true,"` + copilotToken + `","https://api.individual.githubcopilot.com"]`,
		"anthropic.oauth":      `true`,
		"anthropic.akh":        `[true,"sk-ant-oat01-abc",null]`,
		"openai.oauth":         `false`,
		"openai.akh":           `[true,"sk-1",null]`,
		"openai.headers":       `"<undefined>"`,
		"github-copilot.headers": `{"User-Agent":"GitHubCopilotChat/0.35.0","Editor-Version":"vscode/1.107.0",` +
			`"Editor-Plugin-Version":"copilot-chat/0.35.0","Copilot-Integration-Id":"vscode-chat"}`,
	}
	for tag, w := range want {
		assert.Equal(t, w, got[tag], tag)
	}
}
