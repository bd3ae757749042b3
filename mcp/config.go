package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/pi-go/pi/internal/jsonx"
)

// Exposures are the values "exposure" and "toolExposure" accept, in the
// order the reference lists them in its error messages.
var Exposures = []string{"codemode", "deferred", "direct", "hidden"}

// exposureAliases are older names, replaced by their current name when a
// config is read.
var exposureAliases = map[string]string{"codemode-deferred": "codemode"}

// overrideKeys are what a project entry without command, url or type
// may change of the global server of the same name.
var overrideKeys = []string{"enabled", "exposure", "toolExposure"}

// Server is one validated mcpServers entry and where it came from.
type Server struct {
	Name string
	// Scope is "global", "project" or "extension"; Source the file (or
	// the extension's path) that defined it, Override the project file
	// that changed its enabled state or exposure.
	Scope, Source, Override string
	// Config is the entry as written, aliases resolved, key order kept.
	Config jsonx.Object

	Command string
	Args    []string
	Env     [][2]string
	Cwd     string

	URL     string
	Headers [][2]string
	// OAuth is the entry's "oauth" object, when it has one.
	OAuth jsonx.Object

	Enabled      bool
	Exposure     string
	ToolExposure [][2]string
	Description  string
	// TimeoutSec is the per-request timeout (default 60).
	TimeoutSec float64
}

// IsHTTP reports a streamable HTTP server.
func (s *Server) IsHTTP() bool { return s.URL != "" }

// Transport describes the server in one line, as pi mcp list shows it.
func (s *Server) Transport() string {
	if s.IsHTTP() {
		return s.URL
	}
	return strings.Join(append([]string{s.Command}, s.Args...), " ")
}

// ToolExposureOf is the exposure of one of the server's tools: an exact
// toolExposure key, else the first pattern that matches, else the
// server's exposure.
func (s *Server) ToolExposureOf(tool string) string {
	for _, kv := range s.ToolExposure {
		if kv[0] == tool {
			return kv[1]
		}
	}
	for _, kv := range s.ToolExposure {
		if strings.Contains(kv[0], "*") && MatchPattern(kv[0], tool) {
			return kv[1]
		}
	}
	return s.Exposure
}

// MatchPattern matches a tool name against a name or pattern where *
// matches any characters, as toolExposure, --tools and --exclude-tools
// take them.
func MatchPattern(pattern, name string) bool {
	if !strings.Contains(pattern, "*") {
		return pattern == name
	}
	parts := strings.Split(pattern, "*")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	re, err := regexp.Compile("^" + strings.Join(parts, ".*") + "$")
	return err == nil && re.MatchString(name)
}

// Config is what the mcp.json files configure.
type Config struct {
	Servers []*Server
	// Errors are the invalid entries and unreadable files, each
	// "<path>: <message>"; the other servers still connect.
	Errors []string
	// AutoEnableCodemode is the files' autoEnableCodemode, nil when unset.
	AutoEnableCodemode *bool
	// ProjectConfig is the project's mcp.json path when the project is
	// trusted (whether or not the file exists).
	ProjectConfig string
}

// Find returns the server of that name.
func (c *Config) Find(name string) *Server {
	for _, s := range c.Servers {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// GlobalPath is the user-level mcp.json.
func GlobalPath(agentDir string) string { return filepath.Join(agentDir, "mcp.json") }

// ProjectPath is a project's mcp.json.
func ProjectPath(cwd string) string { return filepath.Join(cwd, ".pi", "mcp.json") }

// Load reads the user-level mcp.json and, for a trusted project, the
// project's: a project entry replaces the global one of the same name,
// and one without command, url or type only overrides its enabled
// state and exposure. Disabled servers are included.
func Load(agentDir, cwd string, trusted bool) *Config {
	c := &Config{}
	c.readFile(GlobalPath(agentDir), "global")
	if trusted {
		c.ProjectConfig = ProjectPath(cwd)
		c.readFile(c.ProjectConfig, "project")
	}
	return c
}

func (c *Config) readFile(path, scope string) {
	b, err := os.ReadFile(path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			c.Errors = append(c.Errors, fmt.Sprintf("%s: %v", path, err))
		}
		return
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	v, err := jsonx.Decode(b)
	if err != nil {
		c.Errors = append(c.Errors, fmt.Sprintf("%s: %v", path, err))
		return
	}
	root, ok := v.(jsonx.Object)
	servers, hasServers := root.Get("mcpServers")
	serverObj, serversOK := servers.(jsonx.Object)
	if !ok || (hasServers && !serversOK) {
		c.Errors = append(c.Errors, path+`: expected an object with an "mcpServers" object`)
		return
	}
	if a, ok := root.Get("autoEnableCodemode"); ok {
		if b, isBool := a.(bool); isBool {
			c.AutoEnableCodemode = &b
		} else {
			c.Errors = append(c.Errors, path+": autoEnableCodemode must be a boolean")
		}
	}
	for _, f := range serverObj {
		name := f.Key
		entry, isObj := f.Value.(jsonx.Object)
		if scope == "project" && isObj && isOverride(entry) {
			base := c.Find(name)
			var extra []string
			for _, g := range entry {
				if !slices.Contains(overrideKeys, g.Key) {
					extra = append(extra, g.Key)
				}
			}
			switch {
			case base == nil:
				c.Errors = append(c.Errors, fmt.Sprintf(`%s: server "%s" needs "command" or "url", or a global server to override`, path, name))
			case len(extra) > 0:
				c.Errors = append(c.Errors, fmt.Sprintf(`%s: server "%s": an override can only set %s`, path, name, strings.Join(overrideKeys, ", ")))
			default:
				merged := slices.Clone(base.Config)
				for _, g := range entry {
					merged = merged.Put(g.Key, g.Value)
				}
				s, msg := Validate(name, merged)
				if msg != "" {
					c.Errors = append(c.Errors, path+": "+msg)
					continue
				}
				s.Scope, s.Source, s.Override = base.Scope, base.Source, path
				c.replace(s)
			}
			continue
		}
		s, msg := Validate(name, f.Value)
		if msg != "" {
			c.Errors = append(c.Errors, path+": "+msg)
			continue
		}
		if clash := c.clash(name); clash != "" {
			c.Errors = append(c.Errors, fmt.Sprintf(`%s: server "%s" conflicts with "%s"`, path, name, clash))
			continue
		}
		if scope == "project" && s.IsHTTP() {
			if _, ok := s.Config.Get("auth"); ok {
				c.Errors = append(c.Errors, fmt.Sprintf(`%s: server "%s": auth is only allowed in the global mcp.json`, path, name))
				continue
			}
		}
		s.Scope, s.Source = scope, path
		c.replace(s)
	}
}

// replace sets the server of s's name, in place when there is one.
func (c *Config) replace(s *Server) {
	for i, o := range c.Servers {
		if o.Name == s.Name {
			c.Servers[i] = s
			return
		}
	}
	c.Servers = append(c.Servers, s)
}

// clash is another server whose name differs from name only in - and _:
// both would share one tool namespace.
func (c *Config) clash(name string) string {
	for _, o := range c.Servers {
		if o.Name != name && Namespace(o.Name) == Namespace(name) {
			return o.Name
		}
	}
	return ""
}

// Namespace is a server's tool namespace, mcp__<server> with - as _.
func Namespace(server string) string { return "mcp__" + strings.ReplaceAll(server, "-", "_") }

func isOverride(entry jsonx.Object) bool {
	for _, k := range []string{"command", "url", "type"} {
		if entry.Index(k) >= 0 {
			return false
		}
	}
	return true
}

// Validate checks one mcpServers entry (config files are a trust
// boundary) and returns the server, or the reference's message for what
// is wrong with it.
func Validate(name string, raw any) (*Server, string) {
	if !validServerName(name) {
		return nil, fmt.Sprintf(`invalid server name "%s" (use letters, digits, "_" and "-")`, name)
	}
	entry, ok := raw.(jsonx.Object)
	if !ok {
		return nil, fmt.Sprintf(`server "%s" must be an object`, name)
	}
	entry = resolveAliases(slices.Clone(entry))
	bad := func(msg string) (*Server, string) { return nil, fmt.Sprintf(`server "%s": %s`, name, msg) }
	s := &Server{Name: name, Config: entry, Enabled: true, Exposure: "codemode", TimeoutSec: 60}
	if v, ok := entry.Get("enabled"); ok {
		b, isBool := v.(bool)
		if !isBool {
			return bad("enabled must be a boolean")
		}
		s.Enabled = b
	}
	if v, ok := entry.Get("description"); ok {
		d, isStr := v.(string)
		if !isStr {
			return bad("description must be a string")
		}
		s.Description = d
	}
	if v, ok := entry.Get("timeout"); ok {
		n, isNum := v.(json.Number)
		f, err := n.Float64()
		if !isNum || err != nil || !(f > 0) {
			return bad("timeout must be a positive number of seconds")
		}
		s.TimeoutSec = f
	}
	typ, _ := entry.Get("type")
	u, hasURL := entry.Get("url")
	cmd, hasCmd := entry.Get("command")
	if typ == "sse" {
		return bad("legacy SSE transport is not supported; use the streamable HTTP URL")
	}
	urlStr, urlIsStr := u.(string)
	cmdStr, cmdIsStr := cmd.(string)
	switch {
	case hasURL && urlIsStr && (typ == nil || typ == "http" || typ == "streamable-http"):
		pu, err := url.Parse(urlStr)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return bad("url must be an http or https URL")
		}
		s.URL = urlStr
		if v, ok := entry.Get("headers"); ok {
			h, ok := stringPairs(v)
			if !ok {
				return bad("headers must map names to strings")
			}
			s.Headers = h
		}
		if v, ok := entry.Get("oauth"); ok {
			o, isObj := v.(jsonx.Object)
			if !isObj {
				return bad("oauth must be an object")
			}
			if msg := validateOAuth(o); msg != "" {
				return bad(msg)
			}
			s.OAuth = o
		}
		if v, ok := entry.Get("auth"); ok {
			if msg := validateAuth(v, urlStr); msg != "" {
				return bad(msg)
			}
		}
	case hasCmd && cmdIsStr && (typ == nil || typ == "stdio"):
		s.Command = cmdStr
		if v, ok := entry.Get("args"); ok {
			arr, isArr := v.([]any)
			if !isArr {
				return bad("args must be an array of strings")
			}
			for _, a := range arr {
				as, isStr := a.(string)
				if !isStr {
					return bad("args must be an array of strings")
				}
				s.Args = append(s.Args, as)
			}
		}
		if v, ok := entry.Get("env"); ok {
			e, ok := stringPairs(v)
			if !ok {
				return bad("env must map names to strings")
			}
			s.Env = e
		}
		if v, ok := entry.Get("cwd"); ok {
			c, isStr := v.(string)
			if !isStr {
				return bad("cwd must be a string")
			}
			s.Cwd = c
		}
	default:
		return nil, fmt.Sprintf(`server "%s" needs either "command" (stdio) or "url" (streamable HTTP)`, name)
	}
	quoted := make([]string, len(Exposures))
	for i, e := range Exposures {
		quoted[i] = `"` + e + `"`
	}
	list := strings.Join(quoted, ", ")
	if v, ok := entry.Get("exposure"); ok {
		e, _ := v.(string)
		if !slices.Contains(Exposures, e) {
			return bad("exposure must be one of " + list)
		}
		s.Exposure = e
	}
	if v, ok := entry.Get("toolExposure"); ok {
		o, isObj := v.(jsonx.Object)
		if !isObj {
			return bad("toolExposure must map tool names to exposures")
		}
		for _, f := range o {
			e, _ := f.Value.(string)
			if !slices.Contains(Exposures, e) {
				return bad(fmt.Sprintf(`toolExposure "%s" must be one of %s`, f.Key, list))
			}
			s.ToolExposure = append(s.ToolExposure, [2]string{f.Key, e})
		}
	}
	return s, ""
}

// validServerName reports a name of letters, digits, _ and -, which
// tool names and namespaces are built from.
func validServerName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func resolveAliases(entry jsonx.Object) jsonx.Object {
	alias := func(v any) any {
		if s, ok := v.(string); ok {
			if a, ok := exposureAliases[s]; ok {
				return a
			}
		}
		return v
	}
	if v, ok := entry.Get("exposure"); ok {
		entry = entry.Put("exposure", alias(v))
	}
	if v, ok := entry.Get("toolExposure"); ok {
		if o, isObj := v.(jsonx.Object); isObj {
			o = slices.Clone(o)
			for i := range o {
				o[i].Value = alias(o[i].Value)
			}
			entry = entry.Put("toolExposure", o)
		}
	}
	return entry
}

func stringPairs(v any) ([][2]string, bool) {
	o, ok := v.(jsonx.Object)
	if !ok {
		return nil, false
	}
	out := [][2]string{}
	for _, f := range o {
		s, ok := f.Value.(string)
		if !ok {
			return nil, false
		}
		out = append(out, [2]string{f.Key, s})
	}
	return out, true
}

// AddServer adds (or replaces) a server entry in an mcp.json, creating
// the file when missing; other content is kept and the file keeps its
// indentation. It reports whether an entry was replaced.
func AddServer(path, name string, entry jsonx.Object) (replaced bool, err error) {
	err = editServers(path, func(servers jsonx.Object) (jsonx.Object, bool) {
		replaced = servers.Index(name) >= 0
		return servers.Put(name, entry), true
	})
	return replaced, err
}

// RemoveServer removes a server entry from an mcp.json; false when the
// file does not define it.
func RemoveServer(path, name string) (removed bool, err error) {
	if _, err := os.Stat(path); err != nil {
		return false, nil
	}
	err = editServers(path, func(servers jsonx.Object) (jsonx.Object, bool) {
		if servers.Index(name) < 0 {
			return servers, false
		}
		removed = true
		return servers.Delete(name), true
	})
	return removed, err
}

// leadingIndent finds the file's indentation (compiled on use: package
// regexps cost every start).
var leadingIndent = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^([ \t]+)\S`) })

func editServers(path string, edit func(jsonx.Object) (jsonx.Object, bool)) error {
	text, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
	root := jsonx.Object{}
	if len(text) > 0 {
		v, err := jsonx.Decode(text)
		if err != nil {
			return err
		}
		r, ok := v.(jsonx.Object)
		sv, has := r.Get("mcpServers")
		_, isObj := sv.(jsonx.Object)
		if !ok || (has && !isObj) {
			return fmt.Errorf(`%s: expected an object with an "mcpServers" object`, path)
		}
		root = r
	}
	sv, _ := root.Get("mcpServers")
	servers, _ := sv.(jsonx.Object)
	if servers == nil {
		servers = jsonx.Object{}
	}
	servers, changed := edit(servers)
	if !changed {
		return nil
	}
	root = root.Put("mcpServers", servers)
	compact, err := jsonx.Marshal(root)
	if err != nil {
		return err
	}
	indent := "  "
	if m := leadingIndent().FindSubmatch(text); m != nil {
		indent = string(m[1])
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", indent); err != nil {
		return err
	}
	out.WriteByte('\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}
