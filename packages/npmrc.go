package packages

import (
	"bufio"
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// DefaultRegistry is npm's public registry.
const DefaultRegistry = "https://registry.npmjs.org/"

// NpmConfig is the part of npm's configuration the registry client
// reads: the default registry, per-scope registries and credentials
// keyed by npm's "nerf dart" (//host[:port]/path/).
type NpmConfig struct {
	Registry string
	Scopes   map[string]string // "@scope" → registry URL
	// Tokens are _authToken values; Basic are _auth values (base64 of
	// user:password), both by nerf dart.
	Tokens, Basic map[string]string
}

// LoadNpmConfig reads npm's configuration as npm does for an install
// with --prefix root: the project file <root>/.npmrc, then the user's
// ($NPM_CONFIG_USERCONFIG or ~/.npmrc), then the global npmrc
// ($NPM_CONFIG_GLOBALCONFIG); the first file to set a key wins, and
// npm_config_* environment variables win over all of them.
func LoadNpmConfig(root string, env func(string) string) NpmConfig {
	if env == nil {
		env = os.Getenv
	}
	c := NpmConfig{Scopes: map[string]string{}, Tokens: map[string]string{}, Basic: map[string]string{}}
	set := map[string]bool{}
	apply := func(key, val string) {
		lk := strings.ToLower(key)
		if set[lk] {
			return
		}
		set[lk] = true
		switch {
		case lk == "registry":
			c.Registry = val
		case strings.HasPrefix(key, "@") && strings.HasSuffix(lk, ":registry"):
			c.Scopes[strings.TrimSuffix(key, key[len(key)-len(":registry"):])] = val
		case strings.HasPrefix(key, "//") && strings.HasSuffix(key, ":_authToken"):
			c.Tokens[strings.TrimSuffix(key, ":_authToken")] = val
		case strings.HasPrefix(key, "//") && strings.HasSuffix(key, ":_auth"):
			c.Basic[strings.TrimSuffix(key, ":_auth")] = val
		}
	}
	for _, k := range []string{"npm_config_registry", "NPM_CONFIG_REGISTRY"} {
		if v := env(k); v != "" {
			apply("registry", v)
		}
	}
	home := env("HOME")
	user := env("NPM_CONFIG_USERCONFIG")
	if user == "" {
		user = env("npm_config_userconfig")
	}
	if user == "" && home != "" {
		user = filepath.Join(home, ".npmrc")
	}
	files := []string{}
	if root != "" {
		files = append(files, filepath.Join(root, ".npmrc"))
	}
	if user != "" {
		files = append(files, user)
	}
	if g := env("NPM_CONFIG_GLOBALCONFIG"); g != "" {
		files = append(files, g)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		parseNpmrc(b, env, apply)
	}
	if c.Registry == "" {
		c.Registry = DefaultRegistry
	}
	return c
}

var envRefRe = lazyRe(`\$\{([^}]+)\}`)

// parseNpmrc calls apply for each key=value line of an ini-style npmrc,
// with ${VAR} references replaced from env as npm does.
func parseNpmrc(b []byte, env func(string) string, apply func(key, val string)) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' || line[0] == '[' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		expand := func(s string) string {
			return envRefRe.get().ReplaceAllStringFunc(s, func(m string) string { return env(m[2 : len(m)-1]) })
		}
		apply(expand(k), expand(v))
	}
}

// RegistryFor is the registry that serves package name: its scope's, or
// the default.
func (c NpmConfig) RegistryFor(name string) string {
	r := c.Registry
	if strings.HasPrefix(name, "@") {
		if scope, _, ok := strings.Cut(name, "/"); ok {
			if s, ok := c.Scopes[scope]; ok {
				r = s
			}
		}
	}
	if !strings.HasSuffix(r, "/") {
		r += "/"
	}
	return r
}

// AuthFor is the Authorization header value for a request to rawURL:
// the credential whose nerf dart is the longest prefix of the URL's
// //host/path, as npm matches them.
func (c NpmConfig) AuthFor(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	dart := "//" + u.Host + u.Path
	best, header := -1, ""
	try := func(m map[string]string, scheme string) {
		for k, v := range m {
			key := k
			if !strings.HasSuffix(key, "/") {
				key += "/"
			}
			if strings.HasPrefix(dart, key) || dart+"/" == key {
				if len(key) > best && v != "" {
					best, header = len(key), scheme+" "+v
				}
			}
		}
	}
	try(c.Tokens, "Bearer")
	try(c.Basic, "Basic")
	return header
}
