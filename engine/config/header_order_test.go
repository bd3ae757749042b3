package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequestHeaderOrder checks that models.json's header order survives
// to requests: the provider's headers, then the model's, a name given
// again (in any case) moving to its later place, as pi 1.6.0 handed them
// to before_provider_headers (checked live with a probe extension).
func TestRequestHeaderOrder(t *testing.T) {
	t.Parallel()
	const modelsJSON = `{"providers":{"cap":{"baseUrl":"http://127.0.0.1:1","api":"anthropic-messages","apiKey":"k",
  "headers":{"X-Zeta":"z","x-alpha":"a","X-Mid":"m"},
  "models":[{"id":"m1","headers":{"x-model-b":"b","X-Zeta":"mz","x-model-a":"a"}},{"id":"m2"},{"id":"m3","headers":{"x-mid":"lower"}},
    {"id":"m9","headers":{"x-d":"d","x-s":"def"}}],
  "modelOverrides":{"m2":{"headers":{"x-o2":"2","x-o1":"1"}},"m9":{"headers":{"x-s":"ov","x-o":"o"}}}}}}`
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "models.json"), []byte(modelsJSON), 0o600))
	reg, errs := LoadModels(dir)
	require.Empty(t, errs)
	tests := []struct {
		id        string
		wantOrder []string
		wantHdrs  map[string]string
	}{
		{id: "m1", wantOrder: []string{"x-alpha", "X-Mid", "x-model-b", "X-Zeta", "x-model-a", "Authorization"},
			wantHdrs: map[string]string{"x-alpha": "a", "X-Mid": "m", "x-model-b": "b", "X-Zeta": "mz", "x-model-a": "a"}},
		{id: "m2", wantOrder: []string{"X-Zeta", "x-alpha", "X-Mid", "x-o2", "x-o1", "Authorization"},
			wantHdrs: map[string]string{"X-Zeta": "z", "x-alpha": "a", "X-Mid": "m", "x-o2": "2", "x-o1": "1"}},
		// A definition's headers spread over its override's (checked live).
		{id: "m9", wantOrder: []string{"X-Zeta", "x-alpha", "X-Mid", "x-s", "x-o", "x-d", "Authorization"},
			wantHdrs: map[string]string{"X-Zeta": "z", "x-alpha": "a", "X-Mid": "m", "x-s": "def", "x-o": "o", "x-d": "d"}},
		{id: "m3", wantOrder: []string{"X-Zeta", "x-alpha", "x-mid", "Authorization"},
			wantHdrs: map[string]string{"X-Zeta": "z", "x-alpha": "a", "x-mid": "lower"}},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			m := reg.Find("cap", tc.id)
			require.NotNil(t, m)
			assert.Equal(t, tc.wantOrder, reg.RequestHeaderOrder(m))
			_, hdrs, err := reg.RequestAuth(m)
			require.NoError(t, err)
			assert.Equal(t, tc.wantHdrs, hdrs)
		})
	}
}

// TestCatalogHeaderOrder checks that a catalog model's own headers keep
// the catalog's order (GitHub Copilot's, as pi 1.6.0 listed them).
func TestCatalogHeaderOrder(t *testing.T) {
	t.Parallel()
	reg, errs := LoadModels(t.TempDir())
	require.Empty(t, errs)
	m := reg.Find("github-copilot", "claude-fable-5")
	require.NotNil(t, m)
	want := []string{"User-Agent", "Editor-Version", "Editor-Plugin-Version", "Copilot-Integration-Id", "Authorization"}
	assert.Equal(t, want, reg.RequestHeaderOrder(m))
}
