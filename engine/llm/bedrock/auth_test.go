package bedrock

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/pi-go/pi/engine"
)

// TestSignMatchesReference re-signs a request the reference sent (its
// headers and payload hash, captured from pi 1.6.0 with AKIDEXAMPLE/x)
// and expects the reference's signature.
func TestSignMatchesReference(t *testing.T) {
	t.Parallel()
	hr, err := http.NewRequest(http.MethodPost, "http://127.0.0.1:18931/model/anthropic.claude-haiku-4-5-20251001-v1%3A0/converse-stream", strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	hr.ContentLength = 5834
	for k, v := range map[string]string{
		"content-type":          "application/json",
		"x-amz-user-agent":      "aws-sdk-js/3.1126.0 pi/1.6.0",
		"amz-sdk-invocation-id": "7a1312c5-d3c1-4953-a379-b1d4f23da67e",
		"amz-sdk-request":       "attempt=1; max=3",
		"x-amz-content-sha256":  "7159a316ae0fef03b08425a21be9c52624854916e4a04fd436127227e7624716",
	} {
		hr.Header.Set(k, v)
	}
	at := time.Date(2026, 11, 30, 4, 15, 11, 0, time.UTC)
	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "x"}
	if err := sign(context.Background(), hr, creds, hr.Header.Get("x-amz-content-sha256"), "us-east-1", at); err != nil {
		t.Fatal(err)
	}
	want := "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261130/us-east-1/bedrock/aws4_request, " +
		"SignedHeaders=amz-sdk-invocation-id;amz-sdk-request;content-length;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-user-agent, " +
		"Signature=799b1c05a3e0a483273f447463a60f9edeee5733dfb9c507e9193ab00d7cd496"
	if got := hr.Header.Get("Authorization"); got != want {
		t.Errorf("authorization\n got: %s\nwant: %s", got, want)
	}
	if got := hr.Header.Get("X-Amz-Date"); got != "20261130T041511Z" {
		t.Errorf("x-amz-date %s", got)
	}
}

func TestAuthHeaders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		env     map[string]string
		apiKey  string
		headers map[string]string
		want    map[string]string // "" means absent
	}{
		{"sigv4_session", map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s", "AWS_SESSION_TOKEN": "tok", "AWS_REGION": "eu-west-1"}, "<authenticated>",
			map[string]string{"x-custom": "1", "X-Amz-Date": "evil", "Authorization": "evil"},
			map[string]string{"Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20261130/eu-west-1/bedrock/aws4_request, SignedHeaders=amz-sdk-invocation-id;amz-sdk-request;content-length;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token;x-amz-user-agent;x-custom, Signature=",
				"X-Amz-Security-Token": "tok", "X-Custom": "1", "X-Amz-Date": "20261130T041511Z"}},
		{"bearer_env", map[string]string{"AWS_BEARER_TOKEN_BEDROCK": "bt", "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s"}, "<authenticated>", nil,
			map[string]string{"Authorization": "Bearer bt", "X-Amz-Date": "", "X-Amz-Content-Sha256": ""}},
		{"bearer_api_key", nil, "key-1", nil, map[string]string{"Authorization": "Bearer key-1"}},
		{"skip_auth", map[string]string{"AWS_BEDROCK_SKIP_AUTH": "1", "AWS_BEARER_TOKEN_BEDROCK": "bt"}, "", nil,
			map[string]string{"Authorization": "AWS4-HMAC-SHA256 Credential=dummy-access-key/"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, http.StatusOK, nil, okStream(t))
			m := claudeModel(srv.URL)
			m.Headers = tc.headers
			_, msg := run(t, testProvider(t, tc.env), &engine.LLMRequest{Model: m, APIKey: tc.apiKey, Messages: []*engine.Message{user("hi")}})
			if msg.StopReason != engine.StopStop {
				t.Fatalf("request failed: %s", msg.ErrorMessage)
			}
			got := srv.last(t).Header
			for k, v := range tc.want {
				switch {
				case v == "" && got.Get(k) != "":
					t.Errorf("%s = %q, want none", k, got.Get(k))
				case v != "" && !strings.HasPrefix(got.Get(k), v):
					t.Errorf("%s = %q, want prefix %q", k, got.Get(k), v)
				}
			}
		})
	}
}

func TestResolveTarget(t *testing.T) {
	t.Parallel()
	std := "https://bedrock-runtime.us-east-1.amazonaws.com"
	tests := []struct {
		name, model, base string
		env               map[string]string
		config            string
		endpoint, region  string
		err               string
	}{
		{"catalog_default", "anthropic.x", std, nil, "", std, "us-east-1", ""},
		{"env_region_wins", "anthropic.x", std, map[string]string{"AWS_REGION": "eu-central-1"}, "", "https://bedrock-runtime.eu-central-1.amazonaws.com", "eu-central-1", ""},
		{"default_region", "anthropic.x", std, map[string]string{"AWS_DEFAULT_REGION": "ap-south-1"}, "", "https://bedrock-runtime.ap-south-1.amazonaws.com", "ap-south-1", ""},
		{"arn_region", "arn:aws:bedrock:eu-west-3:123:application-inference-profile/abc", std, map[string]string{"AWS_REGION": "us-west-2"}, "", "https://bedrock-runtime.eu-west-3.amazonaws.com", "eu-west-3", ""},
		{"custom_endpoint_kept", "anthropic.x", "https://proxy.example/bedrock/", map[string]string{"AWS_REGION": "us-west-2"}, "", "https://proxy.example/bedrock", "us-west-2", ""},
		{"custom_endpoint_default_region", "anthropic.x", "http://127.0.0.1:9", nil, "", "http://127.0.0.1:9", "us-east-1", ""},
		{"standard_other_region", "anthropic.x", "https://bedrock-runtime.eu-north-1.amazonaws.com", nil, "", "https://bedrock-runtime.eu-north-1.amazonaws.com", "eu-north-1", ""},
		{"profile_region", "anthropic.x", std, map[string]string{"AWS_PROFILE": "work"}, "[profile work]\nregion = ca-central-1\n", "https://bedrock-runtime.ca-central-1.amazonaws.com", "ca-central-1", ""},
		{"profile_without_region", "anthropic.x", std, map[string]string{"AWS_PROFILE": "work"}, "", "", "", "Region is missing"},
		{"china", "anthropic.x", std, map[string]string{"AWS_REGION": "cn-north-1"}, "", "https://bedrock-runtime.cn-north-1.amazonaws.com.cn", "cn-north-1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			if tc.config != "" {
				writeFile(t, filepath.Join(home, ".aws", "config"), tc.config)
			}
			got, err := resolveTarget(tc.model, tc.base, fakeEnv(tc.env), &sharedFiles{home: home})
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("err %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil || got.endpoint != tc.endpoint || got.region != tc.region {
				t.Errorf("got %+v %v, want %s %s", got, err, tc.endpoint, tc.region)
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestCredentialChain(t *testing.T) {
	t.Parallel()
	ecs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "ecs-token" {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		_, _ = w.Write([]byte(`{"AccessKeyId":"ECSKEY","SecretAccessKey":"es","Token":"et","Expiration":"2030-01-01T00:00:00Z"}`))
	}))
	t.Cleanup(ecs.Close)
	tests := []struct {
		name, creds, config string
		env                 map[string]string
		wantID, wantToken   string
		err                 string
	}{
		{"env", "[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = fs\n", "",
			map[string]string{"AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "s"}, "ENVKEY", "", ""},
		{"default_profile", "# keys\n[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = fs\naws_session_token = ft\n", "", nil, "FILEKEY", "ft", ""},
		{"named_profile_in_config", "", "[default]\naws_access_key_id = D\naws_secret_access_key = d\n[profile work]\naws_access_key_id = WORK\naws_secret_access_key = w\n",
			map[string]string{"AWS_PROFILE": "work"}, "WORK", "", ""},
		{"credential_process", "", "[profile p]\ncredential_process = printf '{\"Version\":1,\"AccessKeyId\":\"PROC\",\"SecretAccessKey\":\"ps\",\"SessionToken\":\"pt\"}'\n",
			map[string]string{"AWS_PROFILE": "p"}, "PROC", "pt", ""},
		{"ecs", "", "", map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": ecs.URL, "AWS_CONTAINER_AUTHORIZATION_TOKEN": "ecs-token"}, "ECSKEY", "et", ""},
		{"none", "", "", map[string]string{"AWS_PROFILE": "sso-only"}, "", "", `Could not load credentials from any providers`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			if tc.creds != "" {
				writeFile(t, filepath.Join(home, ".aws", "credentials"), tc.creds)
			}
			if tc.config != "" {
				writeFile(t, filepath.Join(home, ".aws", "config"), tc.config)
			}
			c, err := credentials(context.Background(), fakeEnv(tc.env), &sharedFiles{home: home}, http.DefaultClient)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil || c.AccessKeyID != tc.wantID || c.SessionToken != tc.wantToken {
				t.Errorf("got %+v %v", c, err)
			}
		})
	}
}
