package packages

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ResourceTypes are the four kinds of resource a package provides, in
// the reference's order.
var ResourceTypes = []string{"extensions", "skills", "prompts", "themes"}

// Manifest is the "pi" key of a package.json: resource lists (nil when
// absent) and the changelog path.
type Manifest struct {
	Lists         map[string][]string
	ChangelogPath *string
}

// ReadManifest reads the pi manifest of the package.json at p; nil when
// the file is missing, malformed or has no "pi" object.
func ReadManifest(p string) *Manifest {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var pkg struct {
		Pi map[string]json.RawMessage `json:"pi"`
	}
	if json.Unmarshal(stripBOM(b), &pkg) != nil || pkg.Pi == nil {
		return nil
	}
	m := &Manifest{Lists: map[string][]string{}}
	for _, t := range ResourceTypes {
		var list []string
		if raw, ok := pkg.Pi[t]; ok && json.Unmarshal(raw, &list) == nil && list != nil {
			m.Lists[t] = list
		}
	}
	var cl string
	if raw, ok := pkg.Pi["changelogPath"]; ok && json.Unmarshal(raw, &cl) == nil {
		m.ChangelogPath = &cl
	}
	return m
}

// Filter is the object form of a settings entry: a nil list keeps the
// package's own selection, an empty one loads none of that type.
type Filter struct {
	Lists map[string][]string
	// HasLists marks the types the entry names (even as []).
	HasLists map[string]bool
	// Autoload false makes a project entry a delta over the user's.
	NoAutoload bool
}

// Resource is one resolved file of a package.
type Resource struct {
	Path    string
	Enabled bool
}

// Collect lists a package's resources of each type: the filter narrows
// the package's selection (its manifest, else its conventional folders).
// ok is false when the folder declares nothing (no manifest lists and no
// conventional folder): a plain directory is then an extension itself.
func Collect(root string, f *Filter) (res map[string][]Resource, ok bool) {
	res = map[string][]Resource{}
	m := ReadManifest(filepath.Join(root, "package.json"))
	if f != nil {
		for _, t := range ResourceTypes {
			switch {
			case f.NoAutoload:
				if list := f.Lists[t]; len(list) > 0 {
					res[t] = deltaFilter(manifestFiles(root, m, t), list, root)
				}
			case f.HasLists[t]:
				all := manifestFiles(root, m, t)
				on := map[string]bool{}
				if len(f.Lists[t]) > 0 {
					// An empty list turns the type off.
					on = applyPatterns(all, f.Lists[t], root)
				}
				for _, p := range all {
					res[t] = append(res[t], Resource{Path: p, Enabled: on[p]})
				}
			default:
				res[t] = enabledAll(defaultFiles(root, m, t))
			}
		}
		return res, true
	}
	if m != nil && len(m.Lists) > 0 {
		for _, t := range ResourceTypes {
			if list, has := m.Lists[t]; has {
				res[t] = enabledAll(fromManifest(root, list, t))
			}
		}
		return res, true
	}
	any := false
	for _, t := range ResourceTypes {
		dir := filepath.Join(root, t)
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			res[t] = enabledAll(collectResourceFiles(dir, t))
			any = true
		}
	}
	return res, any
}

func enabledAll(paths []string) []Resource {
	out := make([]Resource, len(paths))
	for i, p := range paths {
		out[i] = Resource{Path: p, Enabled: true}
	}
	return out
}

// defaultFiles is what a type loads with no filter: the manifest's list
// when it has one for the type, else the conventional folder.
func defaultFiles(root string, m *Manifest, t string) []string {
	if m != nil {
		if list, ok := m.Lists[t]; ok {
			return fromManifest(root, list, t)
		}
	}
	dir := filepath.Join(root, t)
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return collectResourceFiles(dir, t)
	}
	return nil
}

// manifestFiles is what a filter may select from: the manifest's list
// (with its own overrides applied) or the conventional folder.
func manifestFiles(root string, m *Manifest, t string) []string {
	if m != nil && len(m.Lists[t]) > 0 {
		return fromManifest(root, m.Lists[t], t)
	}
	dir := filepath.Join(root, t)
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return collectResourceFiles(dir, t)
	}
	return nil
}

// fromManifest resolves a manifest list: plain paths and globs (dot
// segments skipped by globs), then its "!", "+", "-" overrides.
func fromManifest(root string, entries []string, t string) []string {
	var paths []string
	var overrides []string
	for _, e := range entries {
		if isOverride(e) {
			overrides = append(overrides, e)
			continue
		}
		if !strings.ContainsAny(e, "*?") {
			paths = append(paths, filepath.Join(root, e))
			continue
		}
		matches, _ := doublestar.Glob(os.DirFS(root), filepath.ToSlash(strings.TrimPrefix(e, "./")))
		var found []string
		for _, mm := range matches {
			hidden := false
			for _, seg := range strings.Split(mm, "/") {
				if seg != ".." && strings.HasPrefix(seg, ".") {
					hidden = true
				}
			}
			if !hidden {
				found = append(found, filepath.Join(root, filepath.FromSlash(mm)))
			}
		}
		sort.Strings(found)
		paths = append(paths, found...)
	}
	files := filesFromPaths(paths, t)
	if len(overrides) == 0 {
		return files
	}
	on := applyPatterns(files, overrides, root)
	var out []string
	for _, f := range files {
		if on[f] {
			out = append(out, f)
		}
	}
	return out
}

func isOverride(s string) bool {
	return strings.HasPrefix(s, "!") || strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-")
}

// filesFromPaths expands directories into their resource files.
func filesFromPaths(paths []string, t string) []string {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if st.Mode().IsRegular() {
			out = append(out, p)
		} else if st.IsDir() {
			out = append(out, collectResourceFiles(p, t)...)
		}
	}
	return out
}

// collectResourceFiles finds a type's files under dir: extension entry
// points, skill files, or every .md (prompts) or .json (themes) file.
func collectResourceFiles(dir, t string) []string {
	switch t {
	case "skills":
		return collectSkills(dir, dir, nil)
	case "extensions":
		return collectExtensions(dir)
	case "prompts":
		return collectFiles(dir, dir, ".md", nil)
	default:
		return collectFiles(dir, dir, ".json", nil)
	}
}

// ignoreRule is one line of a .gitignore, .ignore or .fdignore, with the
// folder it came from as prefix.
type ignoreRule struct {
	pattern string
	neg     bool
	dirOnly bool
	rooted  bool
}

func addIgnores(rules []ignoreRule, dir, root string) []ignoreRule {
	rel, _ := filepath.Rel(root, dir)
	prefix := ""
	if rel != "." {
		prefix = filepath.ToSlash(rel) + "/"
	}
	for _, f := range []string{".gitignore", ".ignore", ".fdignore"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimRight(line, "\r")
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			r := ignoreRule{}
			if strings.HasPrefix(line, "!") {
				r.neg, line = true, line[1:]
			} else if strings.HasPrefix(line, `\!`) {
				line = line[1:]
			}
			line = strings.TrimSpace(line)
			if strings.HasSuffix(line, "/") {
				r.dirOnly, line = true, strings.TrimSuffix(line, "/")
			}
			if strings.HasPrefix(line, "/") || strings.Contains(line, "/") {
				r.rooted = true
			}
			line = strings.TrimPrefix(line, "/")
			if prefix != "" {
				r.rooted = true
				line = prefix + line
			}
			r.pattern = line
			rules = append(rules, r)
		}
	}
	return rules
}

// ignoredBy applies gitignore rules to rel (relative to the walk root);
// a later rule wins.
func ignoredBy(rules []ignoreRule, rel string, isDir bool) bool {
	out := false
	for _, r := range rules {
		if r.dirOnly && !isDir {
			continue
		}
		var ok bool
		if r.rooted {
			ok, _ = doublestar.Match(r.pattern, rel)
		} else {
			ok, _ = path.Match(r.pattern, path.Base(rel))
		}
		if ok {
			out = !r.neg
		}
	}
	return out
}

type dirent struct {
	name        string
	full        string
	isDir, file bool
}

// readDir lists dir in name order, following symlinks and skipping dot
// entries and node_modules.
func readDir(dir string) []dirent {
	list, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []dirent
	for _, e := range list {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		full := filepath.Join(dir, name)
		st, err := os.Stat(full)
		if err != nil {
			continue
		}
		out = append(out, dirent{name: name, full: full, isDir: st.IsDir(), file: st.Mode().IsRegular()})
	}
	return out
}

func relSlash(root, p string) string {
	rel, _ := filepath.Rel(root, p)
	return filepath.ToSlash(rel)
}

func collectFiles(dir, root, ext string, rules []ignoreRule) []string {
	rules = addIgnores(rules, dir, root)
	var out []string
	for _, e := range readDir(dir) {
		if ignoredBy(rules, relSlash(root, e.full), e.isDir) {
			continue
		}
		if e.isDir {
			out = append(out, collectFiles(e.full, root, ext, rules)...)
		} else if e.file && strings.HasSuffix(e.name, ext) {
			out = append(out, e.full)
		}
	}
	return out
}

// collectSkills finds SKILL.md files (a folder with one is a skill and
// is not searched further) and, at the top of the folder, plain .md
// files.
func collectSkills(dir, root string, rules []ignoreRule) []string {
	rules = addIgnores(rules, dir, root)
	skill := filepath.Join(dir, "SKILL.md")
	if st, err := os.Stat(skill); err == nil && st.Mode().IsRegular() && !ignoredBy(rules, relSlash(root, skill), false) {
		return []string{skill}
	}
	var out []string
	for _, e := range readDir(dir) {
		rel := relSlash(root, e.full)
		if e.file && strings.HasSuffix(e.name, ".md") && dir == root && !ignoredBy(rules, rel, false) {
			out = append(out, e.full)
			continue
		}
		if !e.isDir || ignoredBy(rules, rel, true) {
			continue
		}
		out = append(out, collectSkills(e.full, root, rules)...)
	}
	return out
}

// extensionEntries resolves a folder to its entry files: the manifest's
// existing extension files, else index.ts, else index.js.
func extensionEntries(dir string) []string {
	if m := ReadManifest(filepath.Join(dir, "package.json")); m != nil && len(m.Lists["extensions"]) > 0 {
		var out []string
		for _, e := range m.Lists["extensions"] {
			p := filepath.Join(dir, e)
			if _, err := os.Stat(p); err == nil {
				out = append(out, p)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	for _, n := range []string{"index.ts", "index.js"} {
		p := filepath.Join(dir, n)
		if _, err := os.Stat(p); err == nil {
			return []string{p}
		}
	}
	return nil
}

// collectExtensions lists an extensions folder: its own entry files if
// it is an extension, else its .ts/.js files and its subfolders' entries.
func collectExtensions(dir string) []string {
	if e := extensionEntries(dir); e != nil {
		return e
	}
	rules := addIgnores(nil, dir, dir)
	var out []string
	for _, e := range readDir(dir) {
		if ignoredBy(rules, relSlash(dir, e.full), e.isDir) {
			continue
		}
		if e.file && (strings.HasSuffix(e.name, ".ts") || strings.HasSuffix(e.name, ".js")) {
			out = append(out, e.full)
		} else if e.isDir {
			out = append(out, extensionEntries(e.full)...)
		}
	}
	return out
}

// matchesGlob tries patterns against the path relative to base, the base
// name and the absolute path (a SKILL.md also by its folder), as the
// reference's minimatch checks do.
func matchesGlob(file string, patterns []string, base string) bool {
	cands := []string{relSlash(base, file), filepath.Base(file), filepath.ToSlash(file)}
	if filepath.Base(file) == "SKILL.md" {
		d := filepath.Dir(file)
		cands = append(cands, relSlash(base, d), filepath.Base(d), filepath.ToSlash(d))
	}
	for _, p := range patterns {
		p = filepath.ToSlash(path.Clean(p))
		for _, c := range cands {
			if ok, _ := doublestar.Match(p, c); ok {
				return true
			}
		}
	}
	return false
}

func matchesExact(file string, patterns []string, base string) bool {
	cands := []string{relSlash(base, file), filepath.ToSlash(file)}
	if filepath.Base(file) == "SKILL.md" {
		d := filepath.Dir(file)
		cands = append(cands, relSlash(base, d), filepath.ToSlash(d))
	}
	for _, p := range patterns {
		p = filepath.ToSlash(path.Clean(strings.TrimPrefix(p, "./")))
		for _, c := range cands {
			if p == c {
				return true
			}
		}
	}
	return false
}

// applyPatterns is the settings filter over all: plain patterns select
// (everything when there are none), "!" excludes, "+" adds back an exact
// path, "-" removes an exact path for good.
func applyPatterns(all, patterns []string, base string) map[string]bool {
	var incl, excl, force, forceExcl []string
	for _, p := range patterns {
		switch {
		case strings.HasPrefix(p, "+"):
			force = append(force, p[1:])
		case strings.HasPrefix(p, "-"):
			forceExcl = append(forceExcl, p[1:])
		case strings.HasPrefix(p, "!"):
			excl = append(excl, p[1:])
		default:
			incl = append(incl, p)
		}
	}
	on := map[string]bool{}
	for _, f := range all {
		sel := len(incl) == 0 || matchesGlob(f, incl, base)
		if sel && len(excl) > 0 && matchesGlob(f, excl, base) {
			sel = false
		}
		if !sel && len(force) > 0 && matchesExact(f, force, base) {
			sel = true
		}
		if sel && len(forceExcl) > 0 && matchesExact(f, forceExcl, base) {
			sel = false
		}
		on[f] = sel
	}
	return on
}

// deltaFilter is an autoload:false project entry: only the files its
// patterns name get a state (enabled unless "!" or "-"); the user's
// entry decides the rest.
func deltaFilter(all, patterns []string, base string) []Resource {
	state := map[string]bool{}
	var order []string
	for _, p := range patterns {
		target := p
		if isOverride(p) {
			target = p[1:]
		}
		enabled := !strings.HasPrefix(p, "-") && !strings.HasPrefix(p, "!")
		exact := strings.HasPrefix(p, "+") || strings.HasPrefix(p, "-")
		for _, f := range all {
			var hit bool
			if exact {
				hit = matchesExact(f, []string{target}, base)
			} else {
				hit = matchesGlob(f, []string{target}, base)
			}
			if hit {
				if _, seen := state[f]; !seen {
					order = append(order, f)
				}
				state[f] = enabled
			}
		}
	}
	out := make([]Resource, 0, len(order))
	for _, f := range order {
		out = append(out, Resource{Path: f, Enabled: state[f]})
	}
	return out
}
