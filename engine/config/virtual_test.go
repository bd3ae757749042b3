package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The entry is the reference's (its get_available_models for the same
// definition), a virtual-only provider is available without credentials,
// a physical id cannot be taken, and unregistering removes the entry and
// the placeholder credential.
func TestRegisterVirtualModel(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "models.json"), []byte(`{"providers":{"mock":{"baseUrl":"http://x/v1","api":"openai-completions","apiKey":"k","models":[{"id":"m"}]}}}`), 0o600))
	r, errs := loadModels(dir, func(string) string { return "" })
	require.Empty(t, errs)
	name := "Auto"
	cw := 1000.0
	m, err := r.RegisterVirtualModel(VirtualDef{Provider: "router", ID: "auto", Name: &name, ThinkingLevels: []string{"low", "high"}, ContextWindow: &cw})
	require.NoError(t, err)
	assert.Equal(t, `{"id":"auto","name":"Auto","api":"pi-virtual","provider":"router","baseUrl":"","reasoning":true,"thinkingLevelMap":{"off":null,"minimal":null,"low":"low","medium":null,"high":"high","xhigh":null,"max":null},"input":["text","image"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":0}`, string(m.Raw))
	assert.True(t, r.HasConfiguredAuth("router"))
	assert.Same(t, m, r.Find("router", "auto"))
	assert.Nil(t, r.PhysicalModel("router", "auto"))
	assert.NotNil(t, r.PhysicalModel("mock", "m"))

	_, err = r.RegisterVirtualModel(VirtualDef{Provider: "mock", ID: "m"})
	require.EqualError(t, err, "Virtual model mock/m conflicts with a physical model.")
	_, err = r.RegisterVirtualModel(VirtualDef{Provider: " ", ID: "x"})
	require.EqualError(t, err, "Virtual model provider and id must not be empty.")

	// Under a physical provider: listed after its models, keyed by it.
	v, err := r.RegisterVirtualModel(VirtualDef{Provider: "mock", ID: "auto"})
	require.NoError(t, err)
	assert.False(t, v.Reasoning)
	assert.Contains(t, string(v.Raw), `"thinkingLevelMap":{"off":"off","minimal":null`)
	assert.NotContains(t, string(v.Raw), `"name"`, "an unset name stays unset, as JSON.stringify drops undefined")
	key, _ := r.APIKey("mock")
	assert.Equal(t, "k", key, "the provider's own key is untouched")

	r.UnregisterVirtualModel("router", "auto")
	assert.Nil(t, r.Find("router", "auto"))
	assert.False(t, r.HasConfiguredAuth("router"))
	r.UnregisterVirtualModel("mock", "m")
	assert.NotNil(t, r.Find("mock", "m"), "a physical model is not unregistered")
}
