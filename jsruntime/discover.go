package jsruntime

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Scope and source values of a discovered extension, as the reference
// labels its resources.
const (
	ScopeCLI     = "cli"
	ScopeProject = "project"
	ScopeUser    = "user"

	SourceCLI   = "cli"
	SourceLocal = "local" // listed in a settings file
	SourceAuto  = "auto"  // found in an extensions directory
)

// Source is one extension entry file to load.
type Source struct {
	// Path is the absolute entry file. It is also the extension's identity
	// in error messages ("Failed to load extension \"<Path>\": …").
	Path   string
	Scope  string
	Source string
	// Origin and BaseDir label an extension a pi package provides
	// ("package" and the package root); empty for the others, whose
	// sourceInfo says "top-level" and the scope's folder.
	Origin, BaseDir string
}

// DiscoverOptions says where to look for extensions.
type DiscoverOptions struct {
	AgentDir string // ~/.pi/agent or $PI_CODING_AGENT_DIR
	Cwd      string
	// Trusted gates everything under <Cwd>/.pi: project settings entries and
	// the project extension directories.
	Trusted bool
	// GlobalSettings and ProjectSettings are the "extensions" arrays of the
	// user and project settings files: paths (relative to the agent dir and
	// to <Cwd>/.pi respectively) plus "!glob", "+path" and "-path" filters.
	GlobalSettings  []string
	ProjectSettings []string
	// CLI are the -e/--extension arguments in order, relative to Cwd.
	CLI []string
	// NoDiscovery is -ne: only CLI paths load.
	NoDiscovery bool
}

// rank orders resources as the reference's resourcePrecedenceRank does:
// project before user, listed-in-settings before auto-discovered.
func rank(s Source) int {
	switch {
	case s.Scope == ScopeCLI:
		return -1
	case s.Scope == ScopeProject && s.Source == SourceLocal:
		return 0
	case s.Scope == ScopeProject:
		return 1
	case s.Source == SourceLocal:
		return 2
	default:
		return 3
	}
}

// Discover returns the extension entries to load, in load order. Missing
// directories are not errors; a CLI path that does not exist is kept so
// that loading reports it as the reference does.
func Discover(opts DiscoverOptions) []Source {
	var all []Source
	for _, p := range opts.CLI {
		abs := resolveFrom(opts.Cwd, p)
		if st, err := os.Stat(abs); err == nil && st.IsDir() {
			if entries := dirEntries(abs); entries != nil {
				for _, e := range entries {
					all = append(all, Source{Path: e, Scope: ScopeCLI, Source: SourceCLI})
				}
				continue
			}
		}
		all = append(all, Source{Path: abs, Scope: ScopeCLI, Source: SourceCLI})
	}
	if !opts.NoDiscovery {
		projectBase := filepath.Join(opts.Cwd, ".pi")
		if opts.Trusted {
			all = append(all, settingsEntries(opts.ProjectSettings, projectBase, ScopeProject)...)
			for _, dir := range []string{filepath.Join(projectBase, "extensions"), filepath.Join(projectBase, "agent", "extensions")} {
				for _, e := range autoEntries(dir) {
					if isEnabledByOverrides(e, opts.ProjectSettings, projectBase) {
						all = append(all, Source{Path: e, Scope: ScopeProject, Source: SourceAuto})
					}
				}
			}
		}
		all = append(all, settingsEntries(opts.GlobalSettings, opts.AgentDir, ScopeUser)...)
		for _, e := range autoEntries(filepath.Join(opts.AgentDir, "extensions")) {
			if isEnabledByOverrides(e, opts.GlobalSettings, opts.AgentDir) {
				all = append(all, Source{Path: e, Scope: ScopeUser, Source: SourceAuto})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return rank(all[i]) < rank(all[j]) })
	seen := map[string]bool{}
	out := all[:0]
	for _, s := range all {
		key := s.Path
		if real, err := filepath.EvalSymlinks(s.Path); err == nil {
			key = real
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, s)
	}
	return out
}

// resolveFrom makes p absolute against base, expanding a leading "~".
func resolveFrom(base, p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// readPiExtensions returns the "pi.extensions" array of a package.json.
func readPiExtensions(pkgJSON string) []string {
	b, err := os.ReadFile(pkgJSON)
	if err != nil {
		return nil
	}
	var m struct {
		Pi struct {
			Extensions []string `json:"extensions"`
		} `json:"pi"`
	}
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m.Pi.Extensions
}

// dirEntries resolves a directory to its entry files: the package.json
// manifest's existing files, else index.ts, else index.js; nil when the
// directory is not an extension.
func dirEntries(dir string) []string {
	if list := readPiExtensions(filepath.Join(dir, "package.json")); len(list) > 0 {
		var entries []string
		for _, e := range list {
			p := resolveFrom(dir, e)
			if _, err := os.Stat(p); err == nil {
				entries = append(entries, p)
			}
		}
		if len(entries) > 0 {
			return entries
		}
	}
	for _, name := range []string{"index.ts", "index.js"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return []string{p}
		}
	}
	return nil
}

func isExtensionFile(name string) bool {
	return strings.HasSuffix(name, ".ts") || strings.HasSuffix(name, ".js")
}

// autoEntries lists an extensions directory one level deep, in name order
// (the order Node's readdir gives on Linux), skipping dot entries,
// node_modules and names matched by the directory's ignore files.
func autoEntries(dir string) []string {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil
	}
	if root := dirEntries(dir); root != nil {
		return root
	}
	ignores := readIgnoreRules(dir)
	list, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range list {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		full := filepath.Join(dir, name)
		fi, err := os.Stat(full) // follows symlinks, as the reference does
		if err != nil {
			continue
		}
		rel := name
		if fi.IsDir() {
			rel += "/"
		}
		if ignored(ignores, rel) {
			continue
		}
		switch {
		case fi.Mode().IsRegular() && isExtensionFile(name):
			out = append(out, full)
		case fi.IsDir():
			out = append(out, dirEntries(full)...)
		}
	}
	return out
}

// readIgnoreRules reads .gitignore, .ignore and .fdignore. Only the simple
// one-level subset matters here, since discovery never goes deeper.
func readIgnoreRules(dir string) []string {
	var rules []string
	for _, f := range []string{".gitignore", ".ignore", ".fdignore"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			rules = append(rules, line)
		}
	}
	return rules
}

// ignored applies gitignore rules in order; a later "!rule" re-includes.
func ignored(rules []string, rel string) bool {
	isDir := strings.HasSuffix(rel, "/")
	name := strings.TrimSuffix(rel, "/")
	out := false
	for _, r := range rules {
		neg := strings.HasPrefix(r, "!")
		r = strings.TrimPrefix(r, "!")
		dirOnly := strings.HasSuffix(r, "/")
		r = strings.Trim(r, "/")
		if dirOnly && !isDir {
			continue
		}
		if ok, _ := path.Match(r, name); ok {
			out = !neg
		}
	}
	return out
}

// splitOverrides separates plain settings entries from "!", "+", "-" ones.
func splitOverrides(entries []string) (plain, excl, incl, forceExcl []string) {
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e, "!"):
			excl = append(excl, e[1:])
		case strings.HasPrefix(e, "+"):
			incl = append(incl, e[1:])
		case strings.HasPrefix(e, "-"):
			forceExcl = append(forceExcl, e[1:])
		default:
			plain = append(plain, e)
		}
	}
	return
}

// matchesGlob tries a pattern against the path relative to base, the base
// name and the absolute path, as the reference's minimatch checks do.
func matchesGlob(file string, patterns []string, base string) bool {
	rel, _ := filepath.Rel(base, file)
	rel = filepath.ToSlash(rel)
	for _, p := range patterns {
		p = filepath.ToSlash(p)
		for _, cand := range []string{rel, filepath.Base(file), filepath.ToSlash(file)} {
			if ok, _ := doublestar.Match(p, cand); ok {
				return true
			}
		}
	}
	return false
}

func matchesExact(file string, patterns []string, base string) bool {
	rel, _ := filepath.Rel(base, file)
	rel = filepath.ToSlash(rel)
	for _, p := range patterns {
		p = filepath.ToSlash(filepath.Clean(strings.TrimPrefix(p, "./")))
		if p == rel || p == filepath.ToSlash(file) {
			return true
		}
	}
	return false
}

// isEnabledByOverrides applies the settings filters to an auto-discovered
// file: "!glob" disables, "+path" re-enables, "-path" disables for good.
func isEnabledByOverrides(file string, entries []string, base string) bool {
	_, excl, incl, forceExcl := splitOverrides(entries)
	enabled := true
	if len(excl) > 0 && matchesGlob(file, excl, base) {
		enabled = false
	}
	if matchesExact(file, incl, base) {
		enabled = true
	}
	if matchesExact(file, forceExcl, base) {
		enabled = false
	}
	return enabled
}

// settingsEntries resolves the plain paths of a settings "extensions"
// array (files or extension directories) and applies its filters.
func settingsEntries(entries []string, base, scope string) []Source {
	plain, excl, incl, forceExcl := splitOverrides(entries)
	var out []Source
	for _, p := range plain {
		abs := resolveFrom(base, p)
		st, err := os.Stat(abs)
		if err != nil {
			continue
		}
		var files []string
		if st.IsDir() {
			files = autoEntries(abs)
		} else {
			files = []string{abs}
		}
		for _, f := range files {
			enabled := !(len(excl) > 0 && matchesGlob(f, excl, base))
			if matchesExact(f, incl, base) {
				enabled = true
			}
			if matchesExact(f, forceExcl, base) {
				enabled = false
			}
			if enabled {
				out = append(out, Source{Path: f, Scope: scope, Source: SourceLocal})
			}
		}
	}
	return out
}
