package packages

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Resolved is one resource a package provides, with what the reference
// reports as its sourceInfo: the declaring source string, its scope and
// the package root as base folder.
type Resolved struct {
	Path    string
	Enabled bool
	Source  string
	Scope   string
	BaseDir string
	// Root is the package folder ("" for a settings entry naming a
	// single file).
	Root string
}

// InstallFailure is a declared package that was missing and could not
// be installed; its resources are skipped and the start goes on.
type InstallFailure struct {
	Source, Scope, Message string
}

func (f InstallFailure) String() string {
	return fmt.Sprintf("Could not install %s package %s: %s", f.Scope, f.Source, f.Message)
}

// Resources are the resolved package resources by type (ResourceTypes).
type Resources map[string][]Resolved

// dedupe keeps one declaration per identity: a project entry replaces a
// user one, except that a project entry with autoload false is a delta
// over the user's, and both are kept (the delta first).
func (m *Manager) dedupe(entries []Entry) []Entry {
	var out []Entry
	seen := map[string]int{}
	for _, e := range entries {
		id := Parse(e.Source).Identity(m.baseDir(e.Scope))
		i, ok := seen[id]
		if !ok {
			seen[id] = len(out)
			out = append(out, e)
			continue
		}
		prev := out[i]
		if prev.Scope == ScopeProject && e.Scope == ScopeUser {
			if prev.Filter != nil && prev.Filter.NoAutoload {
				out = append(out, e)
			}
		} else if e.Scope == ScopeProject {
			out[i] = e
		}
	}
	return out
}

// Resolve finds the resources of the configured packages (project
// declarations first when trusted, then the user's), installing any
// that are missing. Offline, or when an install fails, the package is
// skipped and reported.
func (m *Manager) Resolve(ctx context.Context) (Resources, []InstallFailure) {
	var entries []Entry
	if m.Trusted {
		entries = append(entries, m.Entries(ScopeProject)...)
	}
	entries = append(entries, m.Entries(ScopeUser)...)
	return m.resolveEntries(ctx, m.dedupe(entries))
}

// ResolveTemporary resolves -e sources (npm:, git:, URLs and package
// folders), installed under <agentDir>/tmp/extensions/ and refreshed on
// each start: an unpinned npm package when the registry has a newer
// matching version, a git checkout from its remote unless its ref is a
// commit already checked out.
func (m *Manager) ResolveTemporary(ctx context.Context, sources []string) (Resources, []InstallFailure) {
	var entries []Entry
	for _, s := range sources {
		entries = append(entries, Entry{Source: s, Scope: ScopeTemporary})
	}
	return m.resolveEntries(ctx, entries)
}

var commitRe = lazyRe(`(?i)^[0-9a-f]{7,64}$`)

func (m *Manager) resolveEntries(ctx context.Context, entries []Entry) (Resources, []InstallFailure) {
	res := Resources{}
	seen := map[string]map[string]bool{}
	add := func(t string, r Resolved) {
		if seen[t] == nil {
			seen[t] = map[string]bool{}
		}
		key := r.Path
		if real, err := filepath.EvalSymlinks(r.Path); err == nil {
			key = real
		}
		if seen[t][key] {
			return
		}
		seen[t][key] = true
		res[t] = append(res[t], r)
	}
	var failures []InstallFailure
	for _, e := range entries {
		src, scope := e.Source, e.Scope
		if e.Filter != nil && e.Filter.NoAutoload && scope == ScopeProject {
			// The delta resolves against the user's declaration.
			for _, u := range m.Entries(ScopeUser) {
				if Parse(u.Source).Identity(m.baseDir(ScopeUser)) == Parse(e.Source).Identity(m.baseDir(ScopeProject)) {
					src, scope = u.Source, ScopeUser
					break
				}
			}
		}
		s := Parse(src)
		collect := func(root string) bool {
			got, ok := Collect(root, e.Filter)
			for _, t := range ResourceTypes {
				for _, r := range got[t] {
					add(t, Resolved{Path: r.Path, Enabled: r.Enabled, Source: e.Source, Scope: e.Scope, BaseDir: root, Root: root})
				}
			}
			return ok
		}
		if s.Kind == KindLocal {
			p := ResolvePath(s.LocalPath, m.baseDir(scope))
			st, err := os.Stat(p)
			if err != nil {
				continue
			}
			if st.Mode().IsRegular() {
				add("extensions", Resolved{Path: p, Enabled: true, Source: e.Source, Scope: e.Scope, BaseDir: filepath.Dir(p)})
				continue
			}
			if !collect(p) {
				for _, x := range extensionEntries(p) {
					add("extensions", Resolved{Path: x, Enabled: true, Source: e.Source, Scope: e.Scope, BaseDir: p, Root: p})
				}
			}
			continue
		}
		if err := m.checkScope(scope); err != nil {
			continue
		}
		dir := m.InstalledPath(s, scope)
		installMissing := func() bool {
			if m.Offline() {
				return false
			}
			fmt.Fprintf(m.out(), "Installing %s...\n", src)
			if err := m.installSource(ctx, s, scope); err != nil {
				failures = append(failures, InstallFailure{Source: src, Scope: scope, Message: err.Error()})
				return false
			}
			return true
		}
		switch s.Kind {
		case KindNpm:
			v := Installed(dir)
			need := v == "" || (s.Range != "" && !satisfies(v, s.Range))
			if !need && scope == ScopeTemporary && !s.Pinned && !m.Offline() {
				if latest, err := m.latest(ctx, s, scope); err == nil && latest != "" && greater(latest, v) {
					spec := s
					if s.Version == "" {
						spec.Version, spec.Spec = "latest", s.Name+"@latest"
					}
					// A failed refresh keeps the cached copy.
					_ = m.installSource(ctx, spec, scope)
				}
			}
			if need && !installMissing() {
				continue
			}
		case KindGit:
			if _, err := os.Stat(dir); err != nil {
				if !installMissing() {
					continue
				}
			} else if scope == ScopeTemporary && !m.Offline() {
				g := m.git()
				head := strings.ToLower(g.Head(ctx, dir))
				if !(s.Ref != "" && commitRe.get().MatchString(s.Ref) && strings.HasPrefix(head, strings.ToLower(s.Ref))) {
					// A failed refresh keeps the cached checkout.
					_ = g.Update(ctx, s, dir)
				}
			}
		}
		collect(dir)
	}
	return res, failures
}

// Paths lists the enabled resources of type t.
func (r Resources) Paths(t string) []string {
	var out []string
	for _, x := range r[t] {
		if x.Enabled {
			out = append(out, x.Path)
		}
	}
	return out
}

// HostDependencyWarnings are the reference's warnings for packages with
// loaded extensions that list a host-provided package (which pi maps for
// extensions) in "dependencies" instead of "peerDependencies", by
// package.json path.
func (r Resources) HostDependencyWarnings() []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range r["extensions"] {
		if !x.Enabled || x.Root == "" || seen[x.Root] {
			continue
		}
		seen[x.Root] = true
		pj := filepath.Join(x.Root, "package.json")
		b, err := os.ReadFile(pj)
		if err != nil {
			continue
		}
		var m struct {
			Dependencies map[string]any `json:"dependencies"`
		}
		if json.Unmarshal(stripBOM(b), &m) != nil {
			continue
		}
		var host []string
		for name := range m.Dependencies {
			if IsHostPackage(name) {
				host = append(host, name)
			}
		}
		if len(host) == 0 {
			continue
		}
		sort.Strings(host)
		out = append(out, fmt.Sprintf("Extension package %q: Host-provided extension packages must be declared in peerDependencies with a \"*\" range, not dependencies: %s. Installed copies can bypass the extension loader and create duplicate runtime modules.", pj, strings.Join(host, ", ")))
	}
	return out
}
