package bedrock

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// authenticatedMarker is the stand-in key of a provider configured by
// ambient credentials; it is never a bearer token.
const authenticatedMarker = "<authenticated>"

// env reads the process environment, or a test's.
type env func(string) string

func (e env) get(k string) string {
	if e == nil {
		return os.Getenv(k)
	}
	return e(k)
}

// The patterns are compiled on first use, not at package init: every pi
// start runs the init of every linked package.
var (
	arnRegion    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^arn:aws(?:-[a-z0-9-]+)?:bedrock:([a-z0-9-]+):`) })
	standardHost = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$`)
	})
)

// target is where a request goes and how it is signed.
type target struct {
	endpoint string // scheme://host[/path], no trailing slash
	region   string
}

// endpointRegion is the region of a standard Bedrock runtime URL, or "".
func endpointRegion(baseURL string) string {
	if baseURL == "" {
		return ""
	}
	host := baseURL
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndex(host, ":"); i >= 0 {
		host = host[:i]
	}
	if m := standardHost().FindStringSubmatch(strings.ToLower(host)); m != nil {
		return m[1]
	}
	return ""
}

// resolveTarget decides the region and endpoint as the reference does: a
// region in an inference-profile ARN wins, then AWS_REGION or
// AWS_DEFAULT_REGION, then the region of a standard endpoint that is
// used as is, then us-east-1 unless AWS_PROFILE is set, in which case
// the profile's configured region. A model's baseUrl that is not a
// standard Bedrock endpoint (a proxy, a VPC endpoint) is always used; a
// standard one only when no region or profile is configured, so the
// catalog's us-east-1 default never overrides the user's region.
func resolveTarget(model string, baseURL string, e env, files *sharedFiles) (target, error) {
	configured := e.get("AWS_REGION")
	if configured == "" {
		configured = e.get("AWS_DEFAULT_REGION")
	}
	ambientProfile := e.get("AWS_PROFILE") != ""
	epRegion := endpointRegion(baseURL)
	explicit := baseURL != "" && (epRegion == "" || (configured == "" && !ambientProfile))
	var t target
	switch m := arnRegion().FindStringSubmatch(model); {
	case m != nil:
		t.region = m[1]
	case configured != "":
		t.region = configured
	case epRegion != "" && explicit:
		t.region = epRegion
	case !ambientProfile:
		t.region = "us-east-1"
	default:
		t.region = files.profileValue(e, "region")
		if t.region == "" {
			return t, errors.New("Region is missing")
		}
	}
	if explicit {
		t.endpoint = strings.TrimRight(baseURL, "/")
	} else {
		suffix := "amazonaws.com"
		if strings.HasPrefix(t.region, "cn-") {
			suffix = "amazonaws.com.cn"
		}
		t.endpoint = "https://bedrock-runtime." + t.region + "." + suffix
	}
	return t, nil
}

// bearerToken is the Bedrock API key of a request: an explicit key
// (models.json, auth storage, --api-key), else AWS_BEARER_TOKEN_BEDROCK.
// AWS_BEDROCK_SKIP_AUTH=1 turns it off.
func bearerToken(apiKey string, e env) string {
	if e.get("AWS_BEDROCK_SKIP_AUTH") == "1" {
		return ""
	}
	if apiKey != "" && apiKey != authenticatedMarker {
		return apiKey
	}
	return e.get("AWS_BEARER_TOKEN_BEDROCK")
}

// credentials resolves the keys SigV4 signs with: dummy keys for a proxy
// that needs none (AWS_BEDROCK_SKIP_AUTH=1), the environment's keys, then
// the shared files' profile (static keys or credential_process), then ECS
// container credentials. SSO, web identity and instance metadata are not
// supported; their absence is reported in the error.
func credentials(ctx context.Context, e env, files *sharedFiles, client *http.Client) (aws.Credentials, error) {
	if e.get("AWS_BEDROCK_SKIP_AUTH") == "1" {
		return aws.Credentials{AccessKeyID: "dummy-access-key", SecretAccessKey: "dummy-secret-key"}, nil
	}
	if id, secret := e.get("AWS_ACCESS_KEY_ID"), e.get("AWS_SECRET_ACCESS_KEY"); id != "" && secret != "" {
		return aws.Credentials{AccessKeyID: id, SecretAccessKey: secret, SessionToken: e.get("AWS_SESSION_TOKEN"), Source: "env"}, nil
	}
	profile := files.profileName(e)
	if c, ok, err := files.profileCredentials(ctx, e, profile); err != nil || ok {
		return c, err
	}
	if c, ok, err := containerCredentials(ctx, e, client); err != nil || ok {
		return c, err
	}
	return aws.Credentials{}, fmt.Errorf("Could not load credentials from any providers (profile %q has no static keys or credential_process; SSO, web identity and instance metadata credentials are not supported)", profile)
}

// sharedFiles reads ~/.aws/credentials and ~/.aws/config (or the files
// AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE name) once per request.
type sharedFiles struct {
	home   string
	loaded bool
	creds  map[string]map[string]string
	config map[string]map[string]string
}

func (f *sharedFiles) load(e env) {
	if f.loaded {
		return
	}
	f.loaded = true
	home := f.home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	path := func(envName, def string) string {
		if p := e.get(envName); p != "" {
			if strings.HasPrefix(p, "~/") {
				p = filepath.Join(home, p[2:])
			}
			return p
		}
		return filepath.Join(home, ".aws", def)
	}
	f.creds = parseINI(path("AWS_SHARED_CREDENTIALS_FILE", "credentials"), false)
	f.config = parseINI(path("AWS_CONFIG_FILE", "config"), true)
}

func (f *sharedFiles) profileName(e env) string {
	if p := e.get("AWS_PROFILE"); p != "" {
		return p
	}
	return "default"
}

// profileValue is a key of the current profile, the credentials file
// first, as the SDK merges them.
func (f *sharedFiles) profileValue(e env, key string) string {
	f.load(e)
	name := f.profileName(e)
	if v := f.creds[name][key]; v != "" {
		return v
	}
	return f.config[name][key]
}

func (f *sharedFiles) profileCredentials(ctx context.Context, e env, name string) (aws.Credentials, bool, error) {
	f.load(e)
	get := func(k string) string {
		if v := f.creds[name][k]; v != "" {
			return v
		}
		return f.config[name][k]
	}
	if id, secret := get("aws_access_key_id"), get("aws_secret_access_key"); id != "" && secret != "" {
		return aws.Credentials{AccessKeyID: id, SecretAccessKey: secret, SessionToken: get("aws_session_token"), Source: "profile"}, true, nil
	}
	if cmd := get("credential_process"); cmd != "" {
		c, err := processCredentials(ctx, cmd)
		return c, true, err
	}
	return aws.Credentials{}, false, nil
}

// parseINI reads an AWS shared file into profile -> key -> value. In the
// config file a profile's section is "[profile name]" except "[default]".
func parseINI(path string, config bool) map[string]map[string]string {
	out := map[string]map[string]string{}
	fh, err := os.Open(path)
	if err != nil {
		return out
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	section := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' && strings.HasSuffix(line, "]") {
			section = strings.TrimSpace(line[1 : len(line)-1])
			if config {
				if rest, ok := strings.CutPrefix(section, "profile "); ok {
					section = strings.TrimSpace(rest)
				} else if section != "default" {
					// "[sso-session x]", "[services x]": not profiles.
					section = "\x00" + section
				}
			}
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || section == "" {
			continue
		}
		if out[section] == nil {
			out[section] = map[string]string{}
		}
		out[section][strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
	}
	return out
}

// processCredentials runs a profile's credential_process and reads the
// JSON document it prints.
func processCredentials(ctx context.Context, command string) (aws.Credentials, error) {
	out, err := exec.CommandContext(ctx, "sh", "-c", command).Output()
	if err != nil {
		return aws.Credentials{}, fmt.Errorf("credential_process failed: %w", err)
	}
	var doc struct {
		AccessKeyID     string `json:"AccessKeyId"`
		SecretAccessKey string `json:"SecretAccessKey"`
		SessionToken    string `json:"SessionToken"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || doc.AccessKeyID == "" || doc.SecretAccessKey == "" {
		return aws.Credentials{}, errors.New("credential_process returned no AccessKeyId and SecretAccessKey")
	}
	return aws.Credentials{AccessKeyID: doc.AccessKeyID, SecretAccessKey: doc.SecretAccessKey, SessionToken: doc.SessionToken, Source: "process"}, nil
}

// containerCredentials fetches an ECS task role's keys from the
// container credentials endpoint.
func containerCredentials(ctx context.Context, e env, client *http.Client) (aws.Credentials, bool, error) {
	u := e.get("AWS_CONTAINER_CREDENTIALS_FULL_URI")
	if rel := e.get("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"); rel != "" {
		u = "http://169.254.170.2" + rel
	}
	if u == "" {
		return aws.Credentials{}, false, nil
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return aws.Credentials{}, true, fmt.Errorf("container credentials: %w", err)
	}
	token := e.get("AWS_CONTAINER_AUTHORIZATION_TOKEN")
	if file := e.get("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"); file != "" {
		if b, err := os.ReadFile(file); err == nil {
			token = strings.TrimSpace(string(b))
		}
	}
	if token != "" {
		r.Header.Set("Authorization", token)
	}
	res, err := client.Do(r)
	if err != nil {
		return aws.Credentials{}, true, fmt.Errorf("container credentials: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	var doc struct {
		AccessKeyID     string `json:"AccessKeyId"`
		SecretAccessKey string `json:"SecretAccessKey"`
		Token           string `json:"Token"`
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &doc) != nil || doc.AccessKeyID == "" {
		return aws.Credentials{}, true, fmt.Errorf("container credentials: status %d", res.StatusCode)
	}
	return aws.Credentials{AccessKeyID: doc.AccessKeyID, SecretAccessKey: doc.SecretAccessKey, SessionToken: doc.Token, Source: "container"}, true, nil
}
