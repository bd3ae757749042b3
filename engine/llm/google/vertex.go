package google

import (
	"errors"
	"net/url"
	"regexp"
	"strings"

	"github.com/pi-go/pi/engine"
)

// vertexCredentialsMarker is the stand-in key that asks for Google Cloud
// application default credentials instead of an API key.
const vertexCredentialsMarker = "gcp-vertex-credentials"

// Errors of the reference for a Vertex AI request without a project or
// location (application default credentials need both).
const (
	ErrVertexProject  = "Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options."
	ErrVertexLocation = "Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options."
	// ErrVertexADC is ours: this build cannot mint Google Cloud access
	// tokens, so only API-key access to Vertex AI works.
	ErrVertexADC = "Vertex AI with application default credentials is not supported by this build of pi; set GOOGLE_CLOUD_API_KEY or an apiKey for the provider"
)

var apiVersionSegment = regexp.MustCompile(`^v\d+(?:beta\d*)?$`)

// vertexAPIKey returns the request's key unless it is empty, the
// credentials marker or a "<placeholder>".
func vertexAPIKey(key string) string {
	key = strings.TrimSpace(key)
	placeholder := len(key) > 2 && key[0] == '<' && key[len(key)-1] == '>' && !strings.Contains(key[1:len(key)-1], ">")
	if key == "" || key == vertexCredentialsMarker || placeholder {
		return ""
	}
	return key
}

// customBase returns a model's base URL unless it is empty or a template
// with {location} (the catalog's), which leaves the choice to the SDK.
func customBase(base string) string {
	base = strings.TrimSpace(base)
	if base == "" || strings.Contains(base, "{location}") {
		return ""
	}
	return base
}

// hasAPIVersion reports whether a base URL's path already names the API
// version, in which case none is added.
func hasAPIVersion(base string) bool {
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" {
		return regexp.MustCompile(`(?:^|/)v\d+(?:beta\d*)?(?:/|$)`).MatchString(base)
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if apiVersionSegment.MatchString(seg) {
			return true
		}
	}
	return false
}

// vertexEndpoint returns the streaming URL and key of a Vertex AI request.
// With an API key (Vertex AI express mode) the model is addressed as
// publishers/google/models/<id> on the global endpoint or the model's
// base URL. Without one, the reference uses application default
// credentials with a project and location; those are checked as the
// reference does, but the request then fails because this build has no
// Google Cloud token source.
func vertexEndpoint(req *engine.LLMRequest, getenv func(string) string) (string, string, error) {
	m := req.Model
	key := vertexAPIKey(req.APIKey)
	base := customBase(m.BaseURL)
	model := "publishers/google/models/" + m.ID + ":streamGenerateContent?alt=sse"
	join := func(root string) string {
		root = strings.TrimRight(root, "/")
		if !hasAPIVersion(root) {
			root += "/v1"
		}
		return root + "/" + model
	}
	if key != "" {
		if base == "" {
			base = "https://aiplatform.googleapis.com"
		}
		return join(base), key, nil
	}
	project := firstEnv(getenv, "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT")
	if project == "" {
		return "", "", errors.New(ErrVertexProject)
	}
	location := getenv("GOOGLE_CLOUD_LOCATION")
	if location == "" {
		return "", "", errors.New(ErrVertexLocation)
	}
	return "", "", errors.New(ErrVertexADC)
}

func firstEnv(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}
