package google

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pi-go/pi/engine"
)

// metadataServer stands in for a Google Cloud machine's metadata server.
func metadataServer(t *testing.T, calls *atomic.Int32) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.Header.Get("Metadata-Flavor") != "Google" || !strings.HasPrefix(r.URL.Path, "/computeMetadata/v1/instance/service-accounts/default/token") ||
			r.URL.Query().Get("scopes") != cloudPlatformScope {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		fmt.Fprint(w, `{"access_token":"ya29.meta","expires_in":3600,"token_type":"Bearer"}`)
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// TestVertexEndpoint checks how a Vertex AI request is addressed and
// which credential it carries.
func TestVertexEndpoint(t *testing.T) {
	t.Parallel()
	const path = "publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
	var calls atomic.Int32
	meta := metadataServer(t, &calls)
	adc := func(loc string) map[string]string {
		return map[string]string{"GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": loc, "GCE_METADATA_HOST": meta, "HOME": t.TempDir()}
	}
	tests := []struct {
		name, base, key    string
		env                map[string]string
		want, wantKey, tok string
		wantErr            string
	}{
		{name: "express mode", base: "https://{location}-aiplatform.googleapis.com", key: "k",
			want: "https://aiplatform.googleapis.com/v1/" + path, wantKey: "k"},
		{name: "custom base", base: "http://proxy.local/", key: " k ", want: "http://proxy.local/v1/" + path, wantKey: "k"},
		{name: "custom base with version", base: "http://proxy.local/v1beta1/projects/p/locations/l", key: "k",
			want: "http://proxy.local/v1beta1/projects/p/locations/l/" + path, wantKey: "k"},
		{name: "no project", key: "gcp-vertex-credentials", wantErr: ErrVertexProject},
		{name: "placeholder key, no location", key: "<authenticated>", env: map[string]string{"GCLOUD_PROJECT": "p"}, wantErr: ErrVertexLocation},
		{name: "adc regional", base: "https://{location}-aiplatform.googleapis.com", env: adc("us-central1"), tok: "ya29.meta",
			want: "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/" + path},
		{name: "adc global", env: adc("global"), tok: "ya29.meta",
			want: "https://aiplatform.googleapis.com/v1/projects/p/locations/global/" + path},
		{name: "adc multi-region", env: adc("eu"), tok: "ya29.meta",
			want: "https://aiplatform.eu.rep.googleapis.com/v1/projects/p/locations/eu/" + path},
		// Recorded from the reference: a custom base URL keeps the short form.
		{name: "adc custom base", base: "http://127.0.0.1:1", env: adc("us-central1"), tok: "ya29.meta",
			want: "http://127.0.0.1:1/v1/" + path},
		{name: "no adc", env: map[string]string{"GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "l", "GCE_METADATA_HOST": "127.0.0.1:1", "HOME": t.TempDir()},
			wantErr: ErrNoADC},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := testModel("gemini-2.5-pro")
			m.BaseURL = tt.base
			got, key, tok, err := vertexEndpoint(context.Background(), http.DefaultClient,
				&engine.LLMRequest{Model: m, APIKey: tt.key}, func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want || key != tt.wantKey || tok.value != tt.tok {
				t.Errorf("got %q %q %q %v, want %q %q %q", got, key, tok.value, err, tt.want, tt.wantKey, tt.tok)
			}
		})
	}
}

// TestADCFiles trades key files for tokens: a gcloud login's refresh
// token, and a service account's signed assertion.
func TestADCFiles(t *testing.T) {
	t.Parallel()
	key, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	var endpoint string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			t.Error(err)
		}
		switch r.PostForm.Get("grant_type") {
		case "refresh_token":
			if r.PostForm.Get("refresh_token") != "rt" || r.PostForm.Get("client_id") != "cid" {
				http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
				return
			}
			fmt.Fprint(w, `{"access_token":"ya29.user","expires_in":3600}`)
		case "urn:ietf:params:oauth:grant-type:jwt-bearer":
			parts := strings.Split(r.PostForm.Get("assertion"), ".")
			if len(parts) != 3 {
				http.Error(w, "bad assertion", http.StatusBadRequest)
				return
			}
			claims, _ := jsonB64(parts[1])
			if claims["iss"] != "sa@p.iam.gserviceaccount.com" || claims["aud"] != endpoint || claims["scope"] != cloudPlatformScope {
				http.Error(w, "bad claims", http.StatusBadRequest)
				return
			}
			fmt.Fprint(w, `{"access_token":"ya29.sa","expires_in":3600}`)
		default:
			http.Error(w, "bad grant", http.StatusBadRequest)
		}
	}))
	t.Cleanup(srv.Close)
	endpoint = srv.URL + "/token"
	dir := t.TempDir()
	write := func(name string, v any) string {
		p := filepath.Join(dir, name)
		b, _ := json.Marshal(v)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	user := write("user.json", map[string]string{"type": "authorized_user", "client_id": "cid", "client_secret": "cs", "refresh_token": "rt", "quota_project_id": "qp"})
	sa := write("sa.json", map[string]string{"type": "service_account", "client_email": "sa@p.iam.gserviceaccount.com", "private_key": pemKey, "private_key_id": "k1"})
	other := write("ext.json", map[string]string{"type": "external_account"})
	gcloud := filepath.Join(dir, "gcloud")
	if err := os.MkdirAll(gcloud, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gcloud, "application_default_credentials.json"), mustRead(t, user), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env     map[string]string
		want    string
		wantErr string
	}{
		{name: "authorized user", env: map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": user}, want: "ya29.user"},
		{name: "service account", env: map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": sa}, want: "ya29.sa"},
		{name: "gcloud login file", env: map[string]string{"CLOUDSDK_CONFIG": gcloud}, want: "ya29.user"},
		{name: "unsupported type", env: map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": other}, wantErr: `unsupported Google credentials type "external_account"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tok, err := accessToken(context.Background(), http.DefaultClient, func(k string) string { return tt.env[k] }, endpoint)
			got := tok.value
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %q %v, want %q", got, err, tt.want)
			}
			if wantQuota := map[string]string{"ya29.user": "qp"}[tt.want]; tok.quota != wantQuota {
				t.Errorf("quota project %q, want %q", tok.quota, wantQuota)
			}
		})
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonB64(s string) (map[string]any, error) {
	var m map[string]any
	b, err := base64URL(s)
	if err != nil {
		return nil, err
	}
	return m, json.Unmarshal(b, &m)
}

func base64URL(s string) ([]byte, error) { return base64.RawURLEncoding.DecodeString(s) }
