package google

import (
	"context"
	"errors"
	"net/http"
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

// vertexEndpoint returns the streaming URL of a Vertex AI request and its
// credential: an API key, or else a bearer token. With an API key (Vertex
// AI express mode) the model is addressed as publishers/google/models/<id>
// on the global endpoint or the model's base URL. Without one, the
// application default credentials give the token, and the model is
// addressed under projects/<project>/locations/<location> on the
// location's endpoint (a custom base URL takes the short form, as the
// SDK treats it as the collection's own address).
func vertexEndpoint(ctx context.Context, client *http.Client, req *engine.LLMRequest, getenv func(string) string) (target, key string, token adcToken, err error) {
	m := req.Model
	key = vertexAPIKey(req.APIKey)
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
		return join(base), key, adcToken{}, nil
	}
	project := firstEnv(getenv, "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT")
	if project == "" {
		return "", "", adcToken{}, errors.New(ErrVertexProject)
	}
	location := getenv("GOOGLE_CLOUD_LOCATION")
	if location == "" {
		return "", "", adcToken{}, errors.New(ErrVertexLocation)
	}
	token, err = accessToken(ctx, client, getenv, tokenURL)
	if err != nil {
		return "", "", adcToken{}, err
	}
	if base != "" {
		return join(base), "", token, nil
	}
	switch {
	case location == "global":
		base = "https://aiplatform.googleapis.com"
	case multiRegional[location]:
		base = "https://aiplatform." + location + ".rep.googleapis.com"
	default:
		base = "https://" + location + "-aiplatform.googleapis.com"
	}
	return base + "/v1/projects/" + project + "/locations/" + location + "/" + model, "", token, nil
}

// multiRegional are the locations served from aiplatform.<loc>.rep.
var multiRegional = map[string]bool{"us": true, "eu": true}

func firstEnv(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}
