package prompts

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// SourceInfo says where a command, template or skill came from, with the
// reference's keys in its order: path, source ("auto" for auto-discovered
// directories, "local" for settings entries and explicit paths, "cli",
// "builtin"), scope ("user", "project", "temporary"), origin ("top-level" or
// "package") and baseDir when known.
type SourceInfo struct {
	Path    string `json:"path"`
	Source  string `json:"source"`
	Scope   string `json:"scope"`
	Origin  string `json:"origin"`
	BaseDir string `json:"baseDir,omitempty"`
}

// Diagnostic is a problem found while loading templates or skills. None is
// fatal. Type is "warning", "error" or "collision"; a collision names both
// files.
type Diagnostic struct {
	Type      string     `json:"type"`
	Message   string     `json:"message"`
	Path      string     `json:"path,omitempty"`
	Collision *Collision `json:"collision,omitempty"`
}

// Collision is the detail of a name collision: the first resource found
// keeps the name.
type Collision struct {
	ResourceType string `json:"resourceType"`
	Name         string `json:"name"`
	WinnerPath   string `json:"winnerPath"`
	LoserPath    string `json:"loserPath"`
}

// Resource metadata as the reference's resolver assigns it; precedence is
// project settings, project directories, user settings, user directories.
var (
	metaProjectSettings = SourceInfo{Source: "local", Scope: "project", Origin: "top-level"}
	metaProjectAuto     = SourceInfo{Source: "auto", Scope: "project", Origin: "top-level"}
	metaUserSettings    = SourceInfo{Source: "local", Scope: "user", Origin: "top-level"}
	metaUserAuto        = SourceInfo{Source: "auto", Scope: "user", Origin: "top-level"}
)

// ResolvePath resolves a user-supplied path the way the reference does:
// surrounding white space trimmed, "~" and "~/" expanded to home, relative
// paths taken from base, the result cleaned.
func ResolvePath(p, base, home string) string {
	p = TrimJS(p)
	switch {
	case p == "~":
		p = home
	case strings.HasPrefix(p, "~/"):
		p = filepath.Join(home, p[2:])
	case strings.HasPrefix(p, "file://"):
		p = strings.TrimPrefix(p, "file://")
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// HomeDir is $HOME, else the user's home directory, as the reference finds
// ~/.agents/skills.
func HomeDir() string {
	if h := os.Getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// PathKey is the key that makes two paths the same resource: the real path
// when it can be resolved, else the path itself.
func PathKey(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// PathKeys computes PathKey for many files cheaply: directories are
// resolved once and cached, so a file costs one Lstat unless it is a link.
// (Files a directory walk has vouched for carry their key in
// ResolvedPath.Key and cost nothing.) It is not safe for concurrent use.
type PathKeys struct {
	dirs map[string]string
}

// Key returns PathKey(p).
func (k *PathKeys) Key(p string) string {
	st, err := os.Lstat(p)
	if err != nil || st.Mode()&os.ModeSymlink != 0 {
		return PathKey(p)
	}
	return filepath.Join(k.Dir(filepath.Dir(p)), filepath.Base(p))
}

// Dir returns the real path of a directory, cached.
func (k *PathKeys) Dir(dir string) string {
	if k.dirs == nil {
		k.dirs = map[string]string{}
	}
	real, ok := k.dirs[dir]
	if !ok {
		real = PathKey(dir)
		k.dirs[dir] = real
	}
	return real
}

// PathWithin reports whether child is parent or inside it.
func PathWithin(parent, child string) bool {
	if child == parent {
		return true
	}
	if !strings.HasSuffix(parent, string(filepath.Separator)) {
		parent += string(filepath.Separator)
	}
	return strings.HasPrefix(child, parent)
}

// ResolvedPath is one file the resolver found, with the metadata of the
// place it was found in and whether settings filters leave it enabled.
// Meta is shared by every file found in the same place (a thousand copies
// of it would be most of a large folder's entries): read it, never modify
// it; its Path is not the file's.
type ResolvedPath struct {
	Path string
	// Key is the file's real path (PathKey) when known: a directory walk
	// that saw no symbolic link on the way sets it (often to Path itself,
	// sharing the string), and Enabled fills in the rest.
	Key string
	// Data is the file's contents (a frontmatter prefix for skills) when
	// the walk that found it already read them, else nil.
	Data     []byte
	Meta     *SourceInfo
	Enabled  bool
	Settings bool
}

// Resolver collects resource files in precedence order, keeping the first
// metadata for a path, as the reference's package resolver does.
type Resolver struct {
	entries []ResolvedPath
	// index maps the paths of entries[:indexed] to their positions. It is
	// built only when a second batch of files arrives: one folder of a
	// thousand files, the common case, needs no map.
	index   map[string]int
	indexed int
	// Keys resolves real paths for de-duplication; callers may reuse it.
	Keys PathKeys
}

// Add records a path unless it is already known.
func (r *Resolver) Add(path string, meta SourceInfo, enabled bool) {
	r.add(ResolvedPath{Path: path, Meta: &meta, Enabled: enabled})
}

func (r *Resolver) add(e ResolvedPath) {
	if r.index == nil {
		r.index = make(map[string]int, len(r.entries)+8)
	}
	for ; r.indexed < len(r.entries); r.indexed++ {
		r.index[r.entries[r.indexed].Path] = r.indexed
	}
	if _, ok := r.index[e.Path]; ok {
		return
	}
	r.index[e.Path] = len(r.entries)
	r.entries = append(r.entries, e)
	r.indexed = len(r.entries)
}

// AddSettings resolves settings entries (plain paths, globs and !/+/-
// filters) against base, expands directories with collect and records every
// file with its enabled state.
func (r *Resolver) AddSettings(entries []string, base, home string, meta SourceInfo, collect func(dir string) []ResolvedPath) {
	var plain, patterns []string
	for _, e := range entries {
		if isPattern(e) {
			patterns = append(patterns, e)
		} else {
			plain = append(plain, e)
		}
	}
	var files []ResolvedPath
	var paths []string
	for _, p := range plain {
		abs := ResolvePath(p, base, home)
		st, err := os.Stat(abs)
		switch {
		case err != nil:
		case st.Mode().IsRegular():
			files = append(files, ResolvedPath{Path: abs})
			paths = append(paths, abs)
		case st.IsDir():
			for _, f := range collect(abs) {
				files = append(files, f)
				paths = append(paths, f.Path)
			}
		}
	}
	enabled := applyPatterns(paths, patterns, base)
	m := &meta
	for _, f := range files {
		f.Meta, f.Enabled = m, enabled[f.Path]
		r.add(f)
	}
}

// AddAuto records auto-discovered files (one directory walk's, so no path
// repeats), each enabled unless the scope's settings filters exclude it.
// files becomes the resolver's own; the caller must not use it afterwards.
func (r *Resolver) AddAuto(files []ResolvedPath, meta SourceInfo, overrides []string, base string) {
	if len(files) == 0 {
		return
	}
	m := &meta
	for i := range files {
		files[i].Meta, files[i].Enabled = m, enabledByOverrides(files[i].Path, overrides, base)
	}
	if len(r.entries) == 0 {
		// The first batch is taken as it is: its paths are unique and
		// there is nothing to compare them with yet.
		r.entries = files
		return
	}
	for _, f := range files {
		r.add(f)
	}
}

// Enabled returns the enabled paths in precedence order, one per real path:
// project settings entries, project auto-discovered, user settings, user
// auto-discovered; entries keep insertion order within a rank.
func (r *Resolver) Enabled() []ResolvedPath {
	rank := func(m SourceInfo) int {
		n := 2
		if m.Scope == "project" {
			n = 0
		}
		if m.Source != "local" {
			n++
		}
		return n
	}
	// Order indices, not entries: the common case (one folder of a
	// thousand files, all enabled) then returns the entries as they are.
	order := make([]int32, 0, len(r.entries))
	for want := 0; want < 4; want++ {
		for i := range r.entries {
			if rank(*r.entries[i].Meta) == want {
				order = append(order, int32(i))
			}
		}
	}
	// Paths are unique (Add), so when every key is its path, as for files
	// a directory walk vouched for, no two entries share a real path and
	// the set of keys is not needed.
	var seen map[string]bool
	for _, i := range order {
		e := &r.entries[i]
		if e.Key == "" {
			e.Key = r.Keys.Key(e.Path)
		}
		if e.Key != e.Path && seen == nil {
			seen = make(map[string]bool, len(order))
		}
	}
	keep := order[:0]
	same := true
	for n, i := range order {
		e := &r.entries[i]
		if seen != nil {
			k := e.Key
			if seen[k] {
				same = false
				continue
			}
			seen[k] = true
		}
		if e.Enabled {
			same = same && int(i) == n
			keep = append(keep, i)
		} else {
			same = false
		}
	}
	if same && len(keep) == len(r.entries) {
		return r.entries[:len(r.entries):len(r.entries)]
	}
	out := make([]ResolvedPath, len(keep))
	for n, i := range keep {
		out[n] = r.entries[i]
	}
	return out
}

func isPattern(s string) bool {
	return strings.HasPrefix(s, "!") || strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") ||
		strings.ContainsAny(s, "*?")
}

func overridePatterns(entries []string) (excludes, forceIn, forceOut []string) {
	for _, p := range entries {
		switch {
		case strings.HasPrefix(p, "!"):
			excludes = append(excludes, p[1:])
		case strings.HasPrefix(p, "+"):
			forceIn = append(forceIn, p[1:])
		case strings.HasPrefix(p, "-"):
			forceOut = append(forceOut, p[1:])
		}
	}
	return excludes, forceIn, forceOut
}

func enabledByOverrides(path string, entries []string, base string) bool {
	excludes, forceIn, forceOut := overridePatterns(entries)
	enabled := true
	if len(excludes) > 0 && matchesAnyPattern(path, excludes, base) {
		enabled = false
	}
	if len(forceIn) > 0 && matchesAnyExact(path, forceIn, base) {
		enabled = true
	}
	if len(forceOut) > 0 && matchesAnyExact(path, forceOut, base) {
		enabled = false
	}
	return enabled
}

// applyPatterns applies include globs (all files when there are none), then
// !excludes, then +force-includes, then -force-excludes.
func applyPatterns(files, patterns []string, base string) map[string]bool {
	var includes []string
	excludes, forceIn, forceOut := overridePatterns(patterns)
	for _, p := range patterns {
		if !strings.HasPrefix(p, "!") && !strings.HasPrefix(p, "+") && !strings.HasPrefix(p, "-") {
			includes = append(includes, p)
		}
	}
	out := make(map[string]bool, len(files))
	for _, f := range files {
		on := len(includes) == 0 || matchesAnyPattern(f, includes, base)
		if on && len(excludes) > 0 && matchesAnyPattern(f, excludes, base) {
			on = false
		}
		if !on && len(forceIn) > 0 && matchesAnyExact(f, forceIn, base) {
			on = true
		}
		if on && len(forceOut) > 0 && matchesAnyExact(f, forceOut, base) {
			on = false
		}
		out[f] = on
	}
	return out
}

// candidates are the strings a filter may name a file by: its path relative
// to the settings base, its name, its absolute path, and for a SKILL.md the
// same three for its directory.
func candidates(path, base string) []string {
	rel, _ := filepath.Rel(base, path)
	c := []string{filepath.ToSlash(rel), filepath.Base(path), filepath.ToSlash(path)}
	if filepath.Base(path) == "SKILL.md" {
		dir := filepath.Dir(path)
		drel, _ := filepath.Rel(base, dir)
		c = append(c, filepath.ToSlash(drel), filepath.Base(dir), filepath.ToSlash(dir))
	}
	return c
}

func matchesAnyPattern(path string, patterns []string, base string) bool {
	cands := candidates(path, base)
	for _, p := range patterns {
		p = filepath.ToSlash(p)
		for _, c := range cands {
			if ok, _ := doublestar.Match(p, c); ok {
				return true
			}
		}
	}
	return false
}

func matchesAnyExact(path string, patterns []string, base string) bool {
	cands := candidates(path, base)
	for _, p := range patterns {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), `.\`)
		p = filepath.ToSlash(filepath.Clean(p))
		for i, c := range cands {
			// Exact filters match paths, never bare names.
			if i == 1 || i == 4 {
				continue
			}
			if p == c {
				return true
			}
		}
	}
	return false
}

// CollectFiles lists files under dir whose names end in ext, recursively,
// skipping dot names and node_modules, in name order (settings entries that
// name a prompts directory load nested files).
func CollectFiles(dir, ext string) []string {
	var out []string
	ents, err := ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		full := filepath.Join(dir, name)
		isDir, isFile := EntryKind(full, e)
		if isDir {
			out = append(out, CollectFiles(full, ext)...)
		} else if isFile && strings.HasSuffix(name, ext) {
			out = append(out, full)
		}
	}
	return out
}

// EntryKind says whether a directory entry is a directory or a regular
// file, following symbolic links (a broken link is neither).
func EntryKind(full string, e os.DirEntry) (isDir, isFile bool) {
	return DirEntry{Type: e.Type()}.Kind(full)
}

// DirEntry is one entry of a directory listing (ReadDirEntries): its name
// and its type bits as os.DirEntry.Type gives them (a link is a link).
type DirEntry struct {
	Name string
	Type os.FileMode
}

// Kind is EntryKind for an entry whose full path is full.
func (e DirEntry) Kind(full string) (isDir, isFile bool) {
	if e.Type&os.ModeSymlink != 0 {
		st, err := os.Stat(full)
		if err != nil {
			return false, false
		}
		return st.IsDir(), st.Mode().IsRegular()
	}
	return e.Type.IsDir(), e.Type.IsRegular()
}
