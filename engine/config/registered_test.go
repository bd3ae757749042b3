package config

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
)

const mockModelsJSON = `{"providers":{"mock":{"baseUrl":"http://127.0.0.1:1/v1","api":"openai-completions","apiKey":"mock-key","models":[{"id":"mock-model"}]}}}`

func TestRegisterProviderModels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		config  string
		find    string // model id of provider "acme"
		want    string // its JSON
		wantErr string
	}{
		{
			name:   "definition keeps its keys and order",
			config: `{"baseUrl":"http://a/v1","apiKey":"K","api":"openai-completions","models":[{"id":"m1","name":"One","reasoning":false,"input":["text"],"cost":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":100}]}`,
			find:   "m1",
			want:   `{"id":"m1","name":"One","reasoning":false,"input":["text"],"cost":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0},"contextWindow":1000,"maxTokens":100,"api":"openai-completions","provider":"acme","baseUrl":"http://a/v1"}`,
		},
		{
			name:   "minimal definition, headers dropped, api in place",
			config: `{"baseUrl":"http://a/v1","apiKey":"K","api":"openai-completions","models":[{"api":"anthropic-messages","id":"m2","headers":{"X":"1"},"compat":{"a":1}}]}`,
			find:   "m2",
			want:   `{"api":"anthropic-messages","id":"m2","compat":{"a":1},"provider":"acme","baseUrl":"http://a/v1"}`,
		},
		{
			name:    "no api",
			config:  `{"baseUrl":"http://a/v1","models":[{"id":"b"}]}`,
			wantErr: `Provider acme, model b: no "api" specified. Set it at model level or provider level.`,
		},
		{
			name:    "no baseUrl",
			config:  `{"api":"openai-completions","models":[{"id":"b"}]}`,
			wantErr: `Provider acme: "baseUrl" is required when defining custom models.`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, errs := loadTestRegistry(t, mockModelsJSON, "", nil)
			require.Empty(t, errs)
			n := len(r.All())
			err := r.RegisterProvider("acme", json.RawMessage(tc.config))
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				assert.Len(t, r.All(), n, "a failed registration changes nothing")
				return
			}
			require.NoError(t, err)
			m := r.Find("acme", tc.find)
			require.NotNil(t, m)
			assert.Equal(t, tc.want, marshal(t, m))
			assert.Equal(t, "acme", r.All()[len(r.All())-1].Provider, "a new provider goes last")
		})
	}
}

func TestRegisterProviderAuthAndRestore(t *testing.T) {
	t.Parallel()
	r, _ := loadTestRegistry(t, mockModelsJSON, "", map[string]string{"HDR": "envhdr", "OPENAI_API_KEY": "sk"})
	before := marshal(t, r.Find("mock", "mock-model"))
	require.NoError(t, r.RegisterProvider("acme", json.RawMessage(`{"baseUrl":"http://a/v1","apiKey":"K","api":"openai-completions","headers":{"X-A":"a","X-E":"$HDR"},"models":[{"id":"m1"}]}`)))
	assert.True(t, r.HasConfiguredAuth("acme"))
	assert.Contains(t, ids(r.Available()), "acme/m1")
	key, hdrs, err := r.RequestAuth(r.Find("acme", "m1"))
	require.NoError(t, err)
	assert.Equal(t, "K", key)
	assert.Equal(t, map[string]string{"X-A": "a", "X-E": "envhdr"}, hdrs)
	assert.Equal(t, AuthStatus{Configured: true, Source: "fallback"}, r.ProviderAuthStatus("acme"))
	assert.Equal(t, AuthStatus{Configured: true, Source: "models_json_key"}, r.ProviderAuthStatus("mock"))
	assert.Equal(t, AuthStatus{}, r.ProviderAuthStatus("nope"))
	assert.Equal(t, AuthStatus{Configured: true, Source: "environment", Label: "OPENAI_API_KEY"}, r.ProviderAuthStatus("openai"))
	assert.Equal(t, "configured API key", r.KeySource("acme"))
	assert.Equal(t, "OPENAI_API_KEY", r.KeySource("openai"))
	assert.Equal(t, "", r.KeySource("nope"))

	// Redirecting an existing provider keeps its models and key.
	require.NoError(t, r.RegisterProvider("mock", json.RawMessage(`{"baseUrl":"http://gw/v1","headers":{"X-Over":"1"}}`)))
	m := r.Find("mock", "mock-model")
	require.NotNil(t, m)
	assert.Equal(t, "http://gw/v1", m.BaseURL)
	key, hdrs, err = r.RequestAuth(m)
	require.NoError(t, err)
	assert.Equal(t, "mock-key", key)
	assert.Equal(t, map[string]string{"X-Over": "1"}, hdrs)

	// A re-registration merges over the previous one.
	require.NoError(t, r.RegisterProvider("acme", json.RawMessage(`{"apiKey":"K2"}`)))
	key, _, _ = r.RequestAuth(r.Find("acme", "m1"))
	assert.Equal(t, "K2", key)

	r.UnregisterProvider("acme")
	r.UnregisterProvider("mock")
	assert.Nil(t, r.Find("acme", "m1"))
	assert.False(t, r.HasConfiguredAuth("acme"))
	assert.Equal(t, before, marshal(t, r.Find("mock", "mock-model")))
	_, hdrs, _ = r.RequestAuth(r.Find("mock", "mock-model"))
	assert.Empty(t, hdrs)
}

func ids(ms []*engine.Model) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Ref())
	}
	return out
}
