package packages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pi-go/pi/internal/jsonx"
)

// Scopes of a package declaration.
const (
	ScopeUser      = "user"
	ScopeProject   = "project"
	ScopeTemporary = "temporary"
)

// ErrUntrusted refuses project package storage in an untrusted project.
var ErrUntrusted = errors.New("Project is not trusted; refusing to access project package storage")

// Entry is one declaration of settings "packages": a source string, or
// an object with a source and resource filters.
type Entry struct {
	Source string
	Filter *Filter
	Scope  string
}

// Manager runs package operations for one agent directory and working
// directory.
type Manager struct {
	AgentDir, Cwd string
	// Trusted allows the project's settings and package storage.
	Trusted bool
	// NpmCommand is the npmCommand setting: when set, npm work is done by
	// that command as the reference does it, instead of the built-in
	// client.
	NpmCommand []string
	// Out receives progress lines ("Installing npm:x...") and an
	// external command's output; nil discards them.
	Out io.Writer
	// Registry overrides the built-in client's configuration (tests).
	Registry *Registry
	// Env reads the environment (nil: os.Getenv).
	Env func(string) string
}

func (m *Manager) env(k string) string {
	if m.Env != nil {
		return m.Env(k)
	}
	return os.Getenv(k)
}

func (m *Manager) out() io.Writer {
	if m.Out == nil {
		return io.Discard
	}
	return m.Out
}

// Offline reports PI_OFFLINE: installs and updates then skip the network.
func (m *Manager) Offline() bool {
	v := strings.ToLower(m.env("PI_OFFLINE"))
	return v == "1" || v == "true" || v == "yes"
}

// settingsPath is the file a scope's declarations live in.
func (m *Manager) settingsPath(scope string) string {
	if scope == ScopeProject {
		return filepath.Join(m.Cwd, ".pi", "settings.json")
	}
	return filepath.Join(m.AgentDir, "settings.json")
}

// baseDir is what a scope's relative paths resolve from.
func (m *Manager) baseDir(scope string) string {
	switch scope {
	case ScopeProject:
		return filepath.Join(m.Cwd, ".pi")
	case ScopeUser:
		return m.AgentDir
	}
	return m.Cwd
}

// rawEntries reads a scope's "packages" array as written.
func (m *Manager) rawEntries(scope string) (jsonx.Object, []any, error) {
	if scope == ScopeProject && !m.Trusted {
		return nil, nil, nil
	}
	obj, err := readJSONObject(m.settingsPath(scope))
	if err != nil {
		return nil, nil, err
	}
	v, _ := obj.Get("packages")
	list, _ := v.([]any)
	return obj, list, nil
}

// Entries are a scope's declarations; malformed ones are skipped.
func (m *Manager) Entries(scope string) []Entry {
	_, list, err := m.rawEntries(scope)
	if err != nil {
		return nil
	}
	return ParseEntries(list, scope)
}

// ParseEntries reads a settings "packages" array (strings and objects,
// decoded by jsonx or encoding/json).
func ParseEntries(list []any, scope string) []Entry {
	var out []Entry
	for _, v := range list {
		switch e := v.(type) {
		case string:
			out = append(out, Entry{Source: e, Scope: scope})
		case jsonx.Object:
			m := map[string]any{}
			for _, f := range e {
				m[f.Key] = f.Value
			}
			if en, ok := entryFromMap(m, scope); ok {
				out = append(out, en)
			}
		case map[string]any:
			if en, ok := entryFromMap(e, scope); ok {
				out = append(out, en)
			}
		}
	}
	return out
}

func entryFromMap(m map[string]any, scope string) (Entry, bool) {
	src, ok := m["source"].(string)
	if !ok {
		return Entry{}, false
	}
	f := &Filter{Lists: map[string][]string{}, HasLists: map[string]bool{}}
	for _, t := range ResourceTypes {
		raw, ok := m[t].([]any)
		if !ok {
			continue
		}
		f.HasLists[t] = true
		list := []string{}
		for _, x := range raw {
			if s, ok := x.(string); ok {
				list = append(list, s)
			}
		}
		f.Lists[t] = list
	}
	if a, ok := m["autoload"].(bool); ok && !a {
		f.NoAutoload = true
	}
	return Entry{Source: src, Filter: f, Scope: scope}, true
}

// NpmRoot is where a scope's npm packages are installed.
func (m *Manager) NpmRoot(scope string) string {
	switch scope {
	case ScopeProject:
		return filepath.Join(m.Cwd, ".pi", "npm")
	case ScopeTemporary:
		return m.tempDir("npm", "", "")
	}
	return filepath.Join(m.AgentDir, "npm")
}

// gitRoot is where a scope's git checkouts live ("" for temporary ones,
// which each have their own hashed folder).
func (m *Manager) gitRoot(scope string) string {
	switch scope {
	case ScopeProject:
		return filepath.Join(m.Cwd, ".pi", "git")
	case ScopeTemporary:
		return ""
	}
	return filepath.Join(m.AgentDir, "git")
}

// tempDir is the reference's folder for -e packages:
// <agentDir>/tmp/extensions/<prefix>/<first 8 hex of sha256>/<suffix>.
func (m *Manager) tempDir(prefix, suffix, ref string) string {
	key := prefix + "-" + suffix
	if ref != "" {
		key += "@" + ref
	}
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(m.AgentDir, "tmp", "extensions", prefix, hex.EncodeToString(sum[:])[:8], suffix)
}

// InstalledPath is where a source is (or would be) installed in scope.
func (m *Manager) InstalledPath(s Source, scope string) string {
	switch s.Kind {
	case KindNpm:
		return filepath.Join(m.NpmRoot(scope), "node_modules", filepath.FromSlash(s.Name))
	case KindGit:
		if scope == ScopeTemporary {
			return m.tempDir("git-"+s.Host, s.Path, s.Ref)
		}
		return filepath.Join(m.gitRoot(scope), s.Host, filepath.FromSlash(s.Path))
	}
	return ResolvePath(s.LocalPath, m.baseDir(scope))
}

func (m *Manager) checkScope(scope string) error {
	if scope == ScopeProject && !m.Trusted {
		return ErrUntrusted
	}
	return nil
}

// npmFor is the built-in installer for an npm root, configured as npm
// would be for --prefix root (its .npmrc, the user's, the environment),
// unless Registry overrides it.
func (m *Manager) npmFor(root string, checkout bool) *Npm {
	r := m.Registry
	if r == nil {
		r = &Registry{Config: LoadNpmConfig(root, m.Env), UserAgent: "pi"}
	}
	return &Npm{Root: root, Registry: r, Checkout: checkout}
}

func (m *Manager) git() *Git {
	return &Git{Deps: m.gitDeps}
}

// gitDeps installs a checkout's dependencies, with npmCommand when set.
func (m *Manager) gitDeps(ctx context.Context, dir string) error {
	if len(m.NpmCommand) > 0 {
		return m.external().run(ctx, dir, m.external().gitDepsArgs()...)
	}
	return m.npmFor(dir, true).Install(ctx, nil)
}

// installSource installs one parsed source into scope.
func (m *Manager) installSource(ctx context.Context, s Source, scope string) error {
	if scope == ScopeTemporary {
		// -e packages are private to the user, as the reference keeps
		// them.
		tmp := filepath.Join(m.AgentDir, "tmp", "extensions")
		if err := os.MkdirAll(tmp, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", tmp, err)
		}
		_ = os.Chmod(tmp, 0o700)
	}
	switch s.Kind {
	case KindNpm:
		root := m.NpmRoot(scope)
		if len(m.NpmCommand) > 0 {
			return m.external().install(ctx, root, []string{s.Spec})
		}
		return m.npmFor(root, false).Install(ctx, []NpmSpec{{Name: s.Name, Want: s.Version}})
	case KindGit:
		return m.git().Install(ctx, s, m.InstalledPath(s, scope), m.gitRoot(scope))
	}
	return nil
}

// Install installs source and records it in the scope's settings (the
// user's, or the project's with local), as `pi install` does.
func (m *Manager) Install(ctx context.Context, source string, local bool) error {
	scope := ScopeUser
	if local {
		scope = ScopeProject
	}
	if err := m.checkScope(scope); err != nil {
		return err
	}
	s := Parse(source)
	fmt.Fprintf(m.out(), "Installing %s...\n", source)
	switch s.Kind {
	case KindLocal:
		p := ResolvePath(s.LocalPath, m.Cwd)
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("Path does not exist: %s", p)
		}
	default:
		if err := m.installSource(ctx, s, scope); err != nil {
			return err
		}
	}
	_, err := m.addToSettings(source, scope)
	return err
}

// matchKey is what settings entries and a typed source are compared by.
func (m *Manager) matchKey(source, scope string, typed bool) string {
	s := Parse(source)
	if s.Kind == KindLocal {
		base := m.baseDir(scope)
		if typed {
			base = m.Cwd
		}
		return "local:" + ResolvePath(s.LocalPath, base)
	}
	return s.Identity("")
}

// settingsSource is how a typed source is written to settings: a local
// path relative to the settings file's folder.
func (m *Manager) settingsSource(source, scope string) string {
	s := Parse(source)
	if s.Kind != KindLocal {
		return source
	}
	rel, err := filepath.Rel(m.baseDir(scope), ResolvePath(s.LocalPath, m.Cwd))
	if err != nil || rel == "" {
		return "."
	}
	return rel
}

func entrySource(v any) string {
	switch e := v.(type) {
	case string:
		return e
	case jsonx.Object:
		if s, ok := e.Get("source"); ok {
			if str, ok := s.(string); ok {
				return str
			}
		}
	}
	return ""
}

func (m *Manager) addToSettings(source, scope string) (bool, error) {
	obj, list, err := m.rawEntries(scope)
	if err != nil {
		return false, err
	}
	if obj == nil {
		obj = jsonx.Object{}
	}
	norm := m.settingsSource(source, scope)
	key := m.matchKey(source, scope, true)
	next := append([]any{}, list...)
	found := false
	for i, e := range next {
		if m.matchKey(entrySource(e), scope, false) != key {
			continue
		}
		found = true
		if entrySource(e) == norm {
			return false, nil
		}
		if o, ok := e.(jsonx.Object); ok {
			next[i] = append(jsonx.Object{}, o...).Put("source", norm)
		} else {
			next[i] = norm
		}
		break
	}
	if !found {
		next = append(next, norm)
	}
	return true, writeJSONFile(m.settingsPath(scope), obj.Put("packages", next), false)
}

func (m *Manager) removeFromSettings(source, scope string) (bool, error) {
	obj, list, err := m.rawEntries(scope)
	if err != nil || obj == nil {
		return false, err
	}
	key := m.matchKey(source, scope, true)
	next := []any{}
	for _, e := range list {
		if m.matchKey(entrySource(e), scope, false) != key {
			next = append(next, e)
		}
	}
	if len(next) == len(list) {
		return false, nil
	}
	return true, writeJSONFile(m.settingsPath(scope), obj.Put("packages", next), false)
}

// Remove uninstalls source and drops its settings entry; false when no
// entry matched.
func (m *Manager) Remove(ctx context.Context, source string, local bool) (bool, error) {
	scope := ScopeUser
	if local {
		scope = ScopeProject
	}
	if err := m.checkScope(scope); err != nil {
		return false, err
	}
	s := Parse(source)
	fmt.Fprintf(m.out(), "Removing %s...\n", source)
	switch s.Kind {
	case KindNpm:
		root := m.NpmRoot(scope)
		if _, err := os.Stat(root); err == nil {
			var err error
			if len(m.NpmCommand) > 0 {
				err = m.external().uninstall(ctx, root, s.Name)
			} else {
				err = m.npmFor(root, false).Uninstall(ctx, s.Name)
			}
			if err != nil {
				return false, err
			}
		}
	case KindGit:
		if err := m.git().Remove(m.InstalledPath(s, scope), m.gitRoot(scope)); err != nil {
			return false, err
		}
	}
	return m.removeFromSettings(source, scope)
}

// Configured is one `pi list` line.
type Configured struct {
	Source, Scope string
	Filtered      bool
	// InstalledPath is empty when the package is not on disk.
	InstalledPath string
}

// List is the configured packages, user scope first.
func (m *Manager) List() []Configured {
	var out []Configured
	for _, scope := range []string{ScopeUser, ScopeProject} {
		for _, e := range m.Entries(scope) {
			c := Configured{Source: e.Source, Scope: scope, Filtered: e.Filter != nil}
			p := m.InstalledPath(Parse(e.Source), scope)
			if _, err := os.Stat(p); err == nil {
				c.InstalledPath = p
			}
			out = append(out, c)
		}
	}
	return out
}

// noMatch is the error for an update of a source no settings entry
// names, with the entry the user probably meant.
func (m *Manager) noMatch(source string, entries []Entry) error {
	t := strings.TrimSpace(source)
	for _, e := range entries {
		s := Parse(e.Source)
		switch s.Kind {
		case KindNpm:
			if t == s.Name || t == s.Spec {
				return fmt.Errorf("No matching package found for %s. Did you mean %s?", source, e.Source)
			}
		case KindGit:
			short := s.Host + "/" + s.Path
			if t == short || (s.Ref != "" && t == short+"@"+s.Ref) {
				return fmt.Errorf("No matching package found for %s. Did you mean %s?", source, e.Source)
			}
		}
	}
	return fmt.Errorf("No matching package found for %s", source)
}

// Update reconciles the configured packages (or the one source names)
// with their sources: unpinned npm packages move to the newest matching
// version, git checkouts to their ref or branch. It returns one line per
// changed package ("npm:foo 1.2.0 -> 1.3.0") and warnings.
func (m *Manager) Update(ctx context.Context, source string) (updated, warnings []string, err error) {
	all := append(m.Entries(ScopeUser), m.Entries(ScopeProject)...)
	var sel []Entry
	ident := ""
	if source != "" {
		ident = m.matchKey(source, ScopeUser, true)
	}
	for _, e := range all {
		if ident != "" && m.matchKey(e.Source, e.Scope, false) != ident {
			continue
		}
		sel = append(sel, e)
	}
	if source != "" && len(sel) == 0 {
		return nil, nil, m.noMatch(source, all)
	}
	if m.Offline() {
		return nil, nil, nil
	}
	for _, e := range sel {
		s := Parse(e.Source)
		if err := m.checkScope(e.Scope); err != nil {
			return updated, warnings, err
		}
		scope := ""
		if e.Scope == ScopeProject {
			scope = " (project)"
		}
		switch s.Kind {
		case KindNpm:
			if s.Pinned {
				continue
			}
			dir := m.InstalledPath(s, e.Scope)
			from := Installed(dir)
			target := ""
			if from != "" {
				target, _ = m.latest(ctx, s, e.Scope)
				if target != "" && !greater(target, from) {
					continue
				}
			}
			fmt.Fprintf(m.out(), "Updating %s...\n", e.Source)
			spec := s
			if s.Version == "" {
				spec.Version, spec.Spec = "latest", s.Name+"@latest"
			}
			if err := m.installSource(ctx, spec, e.Scope); err != nil {
				return updated, warnings, err
			}
			to := Installed(dir)
			if to != from {
				updated = append(updated, fmt.Sprintf("%s%s %s -> %s", e.Source, scope, orNone(from), orNone(to)))
			} else if target != "" {
				warnings = append(warnings, fmt.Sprintf("%s is still %s (registry reports %s); npm registry metadata may be stale, try again in a few minutes", e.Source, to, target))
			}
		case KindGit:
			dir := m.InstalledPath(s, e.Scope)
			fmt.Fprintf(m.out(), "Updating %s...\n", e.Source)
			g := m.git()
			from := g.Head(ctx, dir)
			var err error
			if from == "" {
				err = g.Install(ctx, s, dir, m.gitRoot(e.Scope))
			} else {
				err = g.Update(ctx, s, dir)
			}
			if err != nil {
				return updated, warnings, err
			}
			if to := g.Head(ctx, dir); to != from {
				updated = append(updated, fmt.Sprintf("%s%s %s -> %s", e.Source, scope, short(from), short(to)))
			}
		}
	}
	return updated, warnings, nil
}

func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

func short(h string) string {
	if h == "" {
		return "(none)"
	}
	if len(h) > 7 {
		return h[:7]
	}
	return h
}

// latest is the newest version an unpinned npm source would install.
func (m *Manager) latest(ctx context.Context, s Source, scope string) (string, error) {
	// A version check never holds a start or an update longer than the
	// reference's 10 s network timeout.
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if len(m.NpmCommand) > 0 {
		return m.external().latest(ctx, m.Cwd, s)
	}
	r := m.npmFor(m.NpmRoot(scope), false).Registry
	versions, tags, err := r.Versions(ctx, s.Name)
	if err != nil {
		return "", err
	}
	if s.Version != "" && s.Range == "" {
		return tags[s.Version], nil
	}
	if s.Range != "" {
		return maxSatisfying(versions, s.Range), nil
	}
	return tags["latest"], nil
}
