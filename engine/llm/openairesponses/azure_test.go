package openairesponses

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestResolveAzure checks endpoint, api-version and deployment resolution
// against what the reference's resolveAzureConfig and
// resolveDeploymentName return for the same inputs.
func TestResolveAzure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, base string
		env        map[string]string
		want       azureConfig
		err        string
	}{
		{name: "bare azure host", base: "https://x.openai.azure.com", want: azureConfig{"https://x.openai.azure.com/openai/v1", "v1", "m"}},
		{name: "openai path", base: "https://x.openai.azure.com/openai/", want: azureConfig{"https://x.openai.azure.com/openai/v1", "v1", "m"}},
		{name: "responses path and query", base: "https://x.cognitiveservices.azure.com/openai/v1/responses?foo=1",
			want: azureConfig{"https://x.cognitiveservices.azure.com/openai/v1", "v1", "m"}},
		{name: "custom path kept", base: "https://x.ai.azure.com/custom/path/", want: azureConfig{"https://x.ai.azure.com/custom/path", "v1", "m"}},
		{name: "other host", base: "http://127.0.0.1:8080/v1", want: azureConfig{"http://127.0.0.1:8080/v1", "v1", "m"}},
		{name: "resource name", base: "http://ignored", env: map[string]string{"AZURE_OPENAI_RESOURCE_NAME": "res"},
			want: azureConfig{"https://res.openai.azure.com/openai/v1", "v1", "m"}},
		{name: "base url env first", env: map[string]string{"AZURE_OPENAI_BASE_URL": " https://b.openai.azure.com/openai ", "AZURE_OPENAI_RESOURCE_NAME": "res"},
			want: azureConfig{"https://b.openai.azure.com/openai/v1", "v1", "m"}},
		{name: "missing", err: "Azure OpenAI base URL is required. Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass azureBaseUrl, azureResourceName, or model.baseUrl."},
		{name: "invalid", base: "not a url", err: "Invalid Azure OpenAI base URL: not a url"},
		{name: "deployment map and version", base: "https://h.example.com:8443/",
			env:  map[string]string{"AZURE_OPENAI_DEPLOYMENT_NAME_MAP": "m=a=b, ,x=y", "AZURE_OPENAI_API_VERSION": "2024"},
			want: azureConfig{"https://h.example.com:8443", "2024", "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := resolveAzure("m", tt.base, func(k string) string { return tt.env[k] })
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
