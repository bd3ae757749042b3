package google

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Google Cloud application default credentials (ADC), as Google's auth
// library finds them for the reference: the key file named by
// GOOGLE_APPLICATION_CREDENTIALS, else gcloud's application-default login
// file, else the metadata server of a Google Cloud machine.

// ErrNoADC is the auth library's error when no credentials are found.
const ErrNoADC = "Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information."

const cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

// tokenURL is Google's OAuth token endpoint. The reference's auth library
// always uses it, whatever token_uri a key file names.
const tokenURL = "https://oauth2.googleapis.com/token"

// adcToken is a cached access token, with the project a gcloud login
// bills its quota to (sent as x-goog-user-project).
type adcToken struct {
	value   string
	expires time.Time
	quota   string
}

var (
	adcMu    sync.Mutex
	adcCache = map[string]adcToken{}
)

// accessToken returns a bearer token from the application default
// credentials, cached until a minute before it expires.
// endpoint is the OAuth token endpoint (tokenURL but in tests).
func accessToken(ctx context.Context, client *http.Client, getenv func(string) string, endpoint string) (adcToken, error) {
	path := credentialsFile(getenv)
	key := path
	if key == "" {
		key = "metadata:" + metadataHost(getenv)
	}
	adcMu.Lock()
	if t, ok := adcCache[key]; ok && time.Now().Before(t.expires) {
		adcMu.Unlock()
		return t, nil
	}
	adcMu.Unlock()
	var (
		tok adcToken
		err error
	)
	if path != "" {
		tok, err = fileToken(ctx, client, path, endpoint)
	} else {
		tok, err = metadataToken(ctx, client, metadataHost(getenv))
	}
	if err != nil {
		return adcToken{}, err
	}
	adcMu.Lock()
	adcCache[key] = tok
	adcMu.Unlock()
	return tok, nil
}

// credentialsFile returns the key file to use, or "" to ask the metadata
// server.
func credentialsFile(getenv func(string) string) string {
	if p := getenv("GOOGLE_APPLICATION_CREDENTIALS"); p != "" {
		return p
	}
	dir := getenv("CLOUDSDK_CONFIG")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".config", "gcloud")
	}
	p := filepath.Join(dir, "application_default_credentials.json")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

func metadataHost(getenv func(string) string) string {
	if h := getenv("GCE_METADATA_HOST"); h != "" {
		return h
	}
	return "metadata.google.internal"
}

// credentials is the part of a key file that is read.
type credentials struct {
	Type         string `json:"type"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	RefreshToken string `json:"refresh_token"`
	ClientEmail  string `json:"client_email"`
	PrivateKey   string `json:"private_key"`
	PrivateKeyID string `json:"private_key_id"`
	QuotaProject string `json:"quota_project_id"`
}

func fileToken(ctx context.Context, client *http.Client, path, endpoint string) (adcToken, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return adcToken{}, fmt.Errorf("read Google credentials: %w", err)
	}
	var c credentials
	if err := json.Unmarshal(data, &c); err != nil {
		return adcToken{}, fmt.Errorf("parse Google credentials %s: %w", path, err)
	}
	form := url.Values{}
	switch c.Type {
	case "authorized_user":
		form.Set("client_id", c.ClientID)
		form.Set("client_secret", c.ClientSecret)
		form.Set("refresh_token", c.RefreshToken)
		form.Set("grant_type", "refresh_token")
	case "service_account":
		assertion, err := signedAssertion(c, endpoint, time.Now())
		if err != nil {
			return adcToken{}, err
		}
		form.Set("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer")
		form.Set("assertion", assertion)
	default:
		return adcToken{}, fmt.Errorf("unsupported Google credentials type %q in %s", c.Type, path)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return adcToken{}, fmt.Errorf("token request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	tok, err := fetchToken(client, req)
	if c.Type == "authorized_user" {
		tok.quota = c.QuotaProject
	}
	return tok, err
}

// signedAssertion is the RS256 JWT a service account trades for a token.
func signedAssertion(c credentials, audience string, now time.Time) (string, error) {
	block, _ := pem.Decode([]byte(c.PrivateKey))
	if block == nil {
		return "", errors.New("service account private key is not PEM")
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		if k, err1 := x509.ParsePKCS1PrivateKey(block.Bytes); err1 == nil {
			parsed = k
		} else {
			return "", fmt.Errorf("service account private key: %w", err)
		}
	}
	key, ok := parsed.(*rsa.PrivateKey)
	if !ok {
		return "", errors.New("service account private key is not RSA")
	}
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": c.PrivateKeyID})
	claims, _ := json.Marshal(map[string]any{
		"iss": c.ClientEmail, "scope": cloudPlatformScope, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	})
	unsigned := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	sum := sha256.Sum256([]byte(unsigned))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", fmt.Errorf("sign service account assertion: %w", err)
	}
	return unsigned + "." + enc.EncodeToString(sig), nil
}

// metadataToken asks the metadata server of a Google Cloud machine; a
// machine without one has no default credentials.
func metadataToken(ctx context.Context, client *http.Client, host string) (adcToken, error) {
	u := "http://" + host + "/computeMetadata/v1/instance/service-accounts/default/token?scopes=" + url.QueryEscape(cloudPlatformScope)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return adcToken{}, errors.New(ErrNoADC)
	}
	req.Header.Set("Metadata-Flavor", "Google")
	ctx2, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	tok, err := fetchToken(client, req.WithContext(ctx2))
	if err != nil {
		if ctx.Err() != nil {
			return adcToken{}, ctx.Err()
		}
		return adcToken{}, errors.New(ErrNoADC)
	}
	return tok, nil
}

func fetchToken(client *http.Client, req *http.Request) (adcToken, error) {
	res, err := client.Do(req)
	if err != nil {
		return adcToken{}, fmt.Errorf("request to %s failed: %w", req.URL.Redacted(), err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return adcToken{}, fmt.Errorf("token request to %s failed with status %d: %s", req.URL.Redacted(), res.StatusCode, strings.TrimSpace(string(body)))
	}
	var t struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" {
		return adcToken{}, fmt.Errorf("token response from %s has no access_token", req.URL.Redacted())
	}
	return adcToken{value: t.AccessToken, expires: time.Now().Add(time.Duration(t.ExpiresIn)*time.Second - time.Minute)}, nil
}
