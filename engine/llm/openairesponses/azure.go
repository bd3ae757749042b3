package openairesponses

import (
	"errors"
	"net/url"
	"os"
	"strings"
)

// flavor selects which of the reference's three Responses adapters a
// Provider speaks: they share the input conversion and the stream
// handling, and differ in URL, auth, a few body fields and error wording.
type flavor int

const (
	flavorOpenAI flavor = iota // "openai-responses"
	flavorAzure                // "azure-openai-responses"
	flavorCodex                // "openai-codex-responses"
)

// defaultAzureAPIVersion is the api-version query value when
// AZURE_OPENAI_API_VERSION is unset.
const defaultAzureAPIVersion = "v1"

// azureConfig is where an Azure request goes and as what.
type azureConfig struct {
	// BaseURL has no trailing slash; "/responses" is appended to it.
	BaseURL    string
	APIVersion string
	// Deployment is sent as the body's "model".
	Deployment string
}

// resolveAzure works out the endpoint as the reference does:
// AZURE_OPENAI_BASE_URL, else https://<AZURE_OPENAI_RESOURCE_NAME>.openai.azure.com/openai/v1,
// else the model's baseUrl; Azure hosts get the /openai/v1 path when
// theirs is empty or a known partial form. The deployment is the model's
// entry in AZURE_OPENAI_DEPLOYMENT_NAME_MAP ("id=name,id=name") or its id.
func resolveAzure(modelID, modelBaseURL string, getenv func(string) string) (azureConfig, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	cfg := azureConfig{APIVersion: getenv("AZURE_OPENAI_API_VERSION"), Deployment: modelID}
	if cfg.APIVersion == "" {
		cfg.APIVersion = defaultAzureAPIVersion
	}
	if name, ok := parseDeploymentMap(getenv("AZURE_OPENAI_DEPLOYMENT_NAME_MAP"))[modelID]; ok {
		cfg.Deployment = name
	}
	base := strings.TrimSpace(getenv("AZURE_OPENAI_BASE_URL"))
	if base == "" {
		if res := getenv("AZURE_OPENAI_RESOURCE_NAME"); res != "" {
			base = "https://" + res + ".openai.azure.com/openai/v1"
		}
	}
	if base == "" {
		base = modelBaseURL
	}
	if base == "" {
		return cfg, errors.New("Azure OpenAI base URL is required. Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass azureBaseUrl, azureResourceName, or model.baseUrl.")
	}
	norm, err := normalizeAzureBaseURL(base)
	if err != nil {
		return cfg, err
	}
	cfg.BaseURL = norm
	return cfg, nil
}

func parseDeploymentMap(v string) map[string]string {
	out := map[string]string{}
	for entry := range strings.SplitSeq(v, ",") {
		entry = strings.TrimSpace(entry)
		id, name, _ := strings.Cut(entry, "=")
		// Like JavaScript's split("=", 2), anything after a second "="
		// is dropped.
		name, _, _ = strings.Cut(name, "=")
		if id == "" || name == "" {
			continue
		}
		out[strings.TrimSpace(id)] = strings.TrimSpace(name)
	}
	return out
}

func normalizeAzureBaseURL(raw string) (string, error) {
	trimmed := strings.TrimRight(strings.TrimSpace(raw), "/")
	u, err := url.Parse(trimmed)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", errors.New("Invalid Azure OpenAI base URL: " + raw)
	}
	host := u.Hostname()
	azureHost := strings.HasSuffix(host, ".openai.azure.com") || strings.HasSuffix(host, ".cognitiveservices.azure.com") ||
		strings.HasSuffix(host, ".ai.azure.com")
	switch strings.TrimRight(u.Path, "/") {
	case "", "/openai", "/openai/v1/responses":
		if azureHost {
			u.Path, u.RawPath, u.RawQuery, u.ForceQuery = "/openai/v1", "", "", false
		}
	}
	return strings.TrimRight(u.String(), "/"), nil
}
