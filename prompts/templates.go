package prompts

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/utf16x"
)

// Template is a prompt template: a Markdown file whose name (without .md)
// becomes the /name command.
type Template struct {
	Name         string
	Description  string
	ArgumentHint string
	// Content is the body after the frontmatter (trimmed when there is
	// frontmatter, as typed otherwise).
	Content    string
	FilePath   string
	SourceInfo SourceInfo
}

// TemplateOptions says where to look for prompt templates.
type TemplateOptions struct {
	// AgentDir is ~/.pi/agent (or $PI_CODING_AGENT_DIR).
	AgentDir string
	Cwd      string
	// Home expands "~" in paths; empty means $HOME.
	Home string
	// ProjectTrusted gates the project's .pi/prompts, .pi/agent/prompts and
	// project settings entries.
	ProjectTrusted bool
	// SettingsGlobal and SettingsProject are the "prompts" entries of the
	// user and project settings, relative to AgentDir and <cwd>/.pi.
	SettingsGlobal, SettingsProject []string
	// CLIPaths are the --prompt-template arguments, relative to Cwd.
	CLIPaths []string
	// NoTemplates is -np: only CLIPaths load.
	NoTemplates bool
	// Cache, when set, serves unchanged files from the resource index
	// instead of reading them; the caller saves it.
	Cache *FileCache
}

// LoadTemplates finds and loads prompt templates in the reference's order:
// project settings entries, the project's .pi/prompts (and our alias
// .pi/agent/prompts), user settings entries, ~/.pi/agent/prompts, then
// --prompt-template paths. Conventional directories load their direct .md
// children; settings directories load nested .md files. The first template
// with a name wins; later ones are reported as collisions.
func LoadTemplates(opts TemplateOptions) ([]Template, []Diagnostic) {
	home := opts.Home
	if home == "" {
		home = HomeDir()
	}
	cwd, _ := filepath.Abs(opts.Cwd)
	agentDir, _ := filepath.Abs(opts.AgentDir)
	projectBase := filepath.Join(cwd, ".pi")
	var paths []ResolvedPath
	var r Resolver
	if !opts.NoTemplates {
		collect := func(dir string) []ResolvedPath {
			files := CollectFiles(dir, ".md")
			out := make([]ResolvedPath, len(files))
			for i, f := range files {
				out[i].Path = f
			}
			return out
		}
		if opts.ProjectTrusted {
			r.AddSettings(opts.SettingsProject, projectBase, home, metaProjectSettings, collect)
		}
		r.AddSettings(opts.SettingsGlobal, agentDir, home, metaUserSettings, collect)
		if opts.ProjectTrusted {
			meta := metaProjectAuto
			meta.BaseDir = projectBase
			r.AddAuto(promptDirEntries(&r.Keys, opts.Cache, filepath.Join(projectBase, "prompts")), meta, opts.SettingsProject, projectBase)
			r.AddAuto(promptDirEntries(&r.Keys, opts.Cache, filepath.Join(projectBase, "agent", "prompts")), meta, opts.SettingsProject, projectBase)
		}
		meta := metaUserAuto
		meta.BaseDir = agentDir
		r.AddAuto(promptDirEntries(&r.Keys, opts.Cache, filepath.Join(agentDir, "prompts")), meta, opts.SettingsGlobal, agentDir)
		paths = r.Enabled()
	}
	// Only --prompt-template paths are checked against what was
	// discovered, so without them the set is not built.
	var seen map[string]bool
	if len(opts.CLIPaths) > 0 {
		seen = make(map[string]bool, len(paths)+len(opts.CLIPaths))
		for _, p := range paths {
			seen[p.Key] = true
		}
	}
	var diags []Diagnostic
	// Discovered files load straight from paths; jobs are the
	// --prompt-template files after them.
	var jobs []templateJob
	globalDir := filepath.Join(agentDir, "prompts")
	projectDir := filepath.Join(projectBase, "prompts")
	cliInfo := func(path string, isDir bool) SourceInfo {
		switch {
		case PathWithin(globalDir, path):
			return SourceInfo{Path: path, Source: "local", Scope: "user", Origin: "top-level", BaseDir: globalDir}
		case PathWithin(projectDir, path):
			return SourceInfo{Path: path, Source: "local", Scope: "project", Origin: "top-level", BaseDir: projectDir}
		}
		base := filepath.Dir(path)
		if isDir {
			base = path
		}
		return SourceInfo{Path: path, Source: "local", Scope: "temporary", Origin: "top-level", BaseDir: base}
	}
	for _, raw := range opts.CLIPaths {
		abs := ResolvePath(raw, cwd, home)
		if k := r.Keys.Key(abs); seen[k] {
			continue
		} else {
			seen[k] = true
		}
		st, err := os.Stat(abs)
		switch {
		case err != nil:
			diags = append(diags, Diagnostic{Type: "error", Message: "Prompt template path does not exist", Path: abs})
		case st.IsDir():
			ents, _ := ReadDir(abs)
			for _, e := range ents {
				full := filepath.Join(abs, e.Name())
				if _, isFile := EntryKind(full, e); isFile && strings.HasSuffix(e.Name(), ".md") {
					jobs = append(jobs, templateJob{path: full, info: new(cliInfo(full, false))})
				}
			}
		case st.Mode().IsRegular() && strings.HasSuffix(abs, ".md"):
			jobs = append(jobs, templateJob{path: abs, info: new(cliInfo(abs, false))})
		}
	}
	loaded, failed := loadTemplateJobs(opts.Cache, paths, jobs)
	// The result is loaded compacted in place: entry k is written only
	// after entries 0..k have been read.
	templates := loaded[:0]
	byName := NewNameTable(len(loaded))
	nameOf := func(i int) string { return templates[i].Name }
	var collisions []Diagnostic
	for i := range loaded {
		if d, ok := failed[i]; ok {
			diags = append(diags, d)
			continue
		}
		t := &loaded[i]
		if w := byName.Claim(t.Name, len(templates), nameOf); w >= 0 {
			collisions = append(collisions, Diagnostic{
				Type: "collision", Message: `name "/` + t.Name + `" collision`, Path: t.FilePath,
				Collision: &Collision{ResourceType: "prompt", Name: t.Name, WinnerPath: templates[w].FilePath, LoserPath: t.FilePath},
			})
			continue
		}
		templates = append(templates, *t)
	}
	return templates, append(diags, collisions...)
}

// promptDirEntries lists the direct .md children of a conventional prompts
// directory, skipping dot names and node_modules. Plain files (not links)
// get their real path (Key) from the directory's, which saves an Lstat per
// template later.
func promptDirEntries(keys *PathKeys, cache *FileCache, dir string) []ResolvedPath {
	ents, err := ReadDirEntries(dir)
	if err != nil {
		return nil
	}
	real := ""
	clean := filepath.Clean(dir) == dir
	out := make([]ResolvedPath, 0, len(ents))
	for _, e := range ents {
		name := e.Name
		if strings.HasPrefix(name, ".") || name == "node_modules" || !strings.HasSuffix(name, ".md") {
			continue
		}
		var full string
		if clean && dir != "" && !strings.HasSuffix(dir, string(filepath.Separator)) {
			// The index's string for the path, when it has one.
			full = cache.JoinPath(dir, name, "")
		} else {
			full = joinName(dir, name, clean)
		}
		if _, isFile := e.Kind(full); isFile {
			key := ""
			if e.Type.IsRegular() {
				if real == "" {
					real = keys.Dir(dir)
				}
				// A directory that is its own real path gives each file
				// its path as its key, without another string.
				key = full
				if real != dir {
					key = filepath.Join(real, name)
				}
			}
			out = append(out, ResolvedPath{Path: full, Key: key})
		}
	}
	return out
}

// joinName is filepath.Join for a directory and a name read from it,
// without Join's Clean pass when dir is already clean.
func joinName(dir, name string, clean bool) string {
	if !clean || dir == "" || strings.HasSuffix(dir, string(filepath.Separator)) || name == "." || name == ".." {
		return filepath.Join(dir, name)
	}
	return dir + string(filepath.Separator) + name
}

// templateJob is one file to load and where it was found (info may be
// shared with other files; its Path is set on the loaded template).
type templateJob struct {
	path string
	info *SourceInfo
}

// loadTemplateJobs reads and parses the discovered files and then the
// jobs concurrently (start-up with many templates is dominated by file
// reads): template i is paths[i]'s, then jobs[i-len(paths)]'s. failed
// holds the diagnostics of the files that did not load, by position.
func loadTemplateJobs(cache *FileCache, paths []ResolvedPath, jobs []templateJob) (out []Template, failed map[int]Diagnostic) {
	out = make([]Template, len(paths)+len(jobs))
	cache.Reserve(len(out))
	var mu sync.Mutex
	ParallelEach(len(out), func(i int) {
		var j templateJob
		if i < len(paths) {
			j = templateJob{path: paths[i].Path, info: paths[i].Meta}
		} else {
			j = jobs[i-len(paths)]
		}
		t, err := loadTemplateFile(cache, j.path)
		if err != nil {
			mu.Lock()
			defer mu.Unlock()
			if failed == nil {
				failed = map[int]Diagnostic{}
			}
			failed[i] = Diagnostic{Type: "warning", Message: err.Error(), Path: j.path}
			return
		}
		t.SourceInfo = *j.info
		t.SourceInfo.Path = j.path
		out[i] = t
	})
	return out, failed
}

// ParallelEach calls fn(0..n-1) on a bounded number of goroutines.
func ParallelEach(n int, fn func(i int)) {
	if n < 16 {
		for i := range n {
			fn(i)
		}
		return
	}
	// Files in the page cache make the work CPU-bound (stat, read,
	// parse), so workers beyond two per processor only add goroutine
	// stacks, each fresh memory at start.
	workers := min(16, n/8+1, 2*runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var next atomic.Int64
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}

func loadTemplateFile(cache *FileCache, path string) (Template, error) {
	raw, err := cache.ReadResource(path)
	if err != nil {
		return Template{}, err
	}
	t := Template{Name: strings.TrimSuffix(filepath.Base(path), ".md"), FilePath: path}
	body, err := frontmatterStrings(ResourceString(raw), func(key, value string) {
		switch key {
		case "description":
			t.Description = value
		case "argument-hint":
			t.ArgumentHint = value
		}
	})
	if err != nil {
		return Template{}, err
	}
	t.Content = body
	if t.Description == "" {
		for line := range strings.SplitSeq(body, "\n") {
			if TrimJS(line) == "" {
				continue
			}
			var cut bool
			t.Description, cut = utf16x.Cut(line, 60)
			if cut {
				t.Description += "..."
			}
			break
		}
	}
	return t, nil
}

// commandPattern is the reference's test for "/name args".
var commandPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/(\S+)(?:\s+([\s\S]*))?$`) })

// ExpandTemplate expands "/name args" when name is a template, and reports
// whether it did. Any other text comes back unchanged.
func ExpandTemplate(text string, templates []Template) (string, bool) {
	if !strings.HasPrefix(text, "/") {
		return text, false
	}
	name, args, ok := splitCommand(text)
	if !ok {
		return text, false
	}
	for i := range templates {
		if templates[i].Name == name {
			return SubstituteArgs(templates[i].Content, ParseCommandArgs(args)), true
		}
	}
	return text, false
}

// splitCommand splits "/name rest" where name is the run of non-space
// characters after the slash and rest follows the white space after it.
// JavaScript's \s is wider than RE2's, so this is done by hand.
func splitCommand(text string) (name, args string, ok bool) {
	rest := text[1:]
	end := strings.IndexFunc(rest, isJSSpace)
	if end == 0 || rest == "" {
		return "", "", false
	}
	if end < 0 {
		return rest, "", true
	}
	return rest[:end], strings.TrimLeftFunc(rest[end:], isJSSpace), true
}

// ParseCommandArgs splits template arguments like a shell, as the
// reference does: white space separates arguments; a quote (" or ') opens
// only at the start of an argument and closes at the same quote; inside it
// a backslash before that quote keeps the quote; other backslashes stay; an
// unclosed quote is kept as a literal character and the rest is split
// normally; quoted empty strings are arguments.
func ParseCommandArgs(s string) []string {
	var args []string
	var cur strings.Builder
	hasToken := false
	var quote byte
	quoteStart := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			switch {
			case c == '\\' && i+1 < len(s) && s[i+1] == quote:
				cur.WriteByte(quote)
				i++
			case c == quote:
				quote = 0
			default:
				cur.WriteByte(c)
			}
		case (c == '"' || c == '\'') && !hasToken:
			quote = c
			quoteStart = i
			hasToken = true
		default:
			r, size := rune(c), 1
			if c >= 0x80 {
				r, size = decodeRune(s[i:])
			}
			if isJSSpace(r) {
				if hasToken {
					args = append(args, cur.String())
					cur.Reset()
					hasToken = false
				}
			} else {
				cur.WriteString(s[i : i+size])
				hasToken = true
			}
			i += size - 1
		}
		if quote != 0 && i >= len(s)-1 {
			// Unclosed: the quote is literal text and parsing resumes
			// right after it.
			quote = 0
			cur.Reset()
			cur.WriteByte(s[quoteStart])
			i = quoteStart
		}
	}
	if hasToken {
		args = append(args, cur.String())
	}
	return args
}

// SubstituteArgs fills a template body in one left-to-right pass (values
// are never substituted again): ${N:-default}, ${@:-default} and
// ${ARGUMENTS:-default} (the default when the value is missing or empty);
// ${@:N} and ${@:N:L} (slices, 1-based, 0 read as 1); $ARGUMENTS, $@ (all
// arguments joined by one space) and $N (empty when missing). A "$" that
// starts none of these stays as it is.
func SubstituteArgs(content string, args []string) string {
	if !strings.Contains(content, "$") {
		return content
	}
	all := strings.Join(args, " ")
	arg := func(n int) string {
		if n >= 1 && n <= len(args) {
			return args[n-1]
		}
		return ""
	}
	var b strings.Builder
	b.Grow(len(content) + len(all))
	i := 0
	for {
		j := strings.IndexByte(content[i:], '$')
		if j < 0 {
			b.WriteString(content[i:])
			return b.String()
		}
		b.WriteString(content[i : i+j])
		i += j
		out, n := substituteAt(content[i:], all, arg, args)
		if n == 0 {
			b.WriteByte('$')
			i++
			continue
		}
		b.WriteString(out)
		i += n
	}
}

// substituteAt matches one placeholder at the start of s (which begins
// with "$") and returns its value and length, or length 0.
func substituteAt(s, all string, arg func(int) string, args []string) (string, int) {
	if strings.HasPrefix(s, "${") {
		// ${N:-default}, ${@:-default}, ${ARGUMENTS:-default}
		t := s[2:]
		target, k := "", 0
		switch {
		case strings.HasPrefix(t, "ARGUMENTS"):
			target, k = "ARGUMENTS", 9
		case strings.HasPrefix(t, "@"):
			target, k = "@", 1
		default:
			k = digits(t)
			target = t[:k]
		}
		if k > 0 && strings.HasPrefix(t[k:], ":-") {
			if end := strings.IndexByte(t[k+2:], '}'); end >= 0 {
				def := t[k+2 : k+2+end]
				val := all
				if target != "@" && target != "ARGUMENTS" {
					val = arg(atoiSat(target))
				}
				if val == "" {
					val = def
				}
				return val, 2 + k + 2 + end + 1
			}
		}
		// ${@:N} and ${@:N:L}
		if strings.HasPrefix(t, "@:") {
			u := t[2:]
			if n := digits(u); n > 0 {
				start := max(atoiSat(u[:n])-1, 0)
				rest := u[n:]
				length, hasLen := 0, false
				if strings.HasPrefix(rest, ":") {
					if m := digits(rest[1:]); m > 0 && strings.HasPrefix(rest[1+m:], "}") {
						length, hasLen = atoiSat(rest[1:1+m]), true
						rest = rest[1+m:]
					}
				}
				if strings.HasPrefix(rest, "}") {
					consumed := 2 + 2 + (len(u) - len(rest)) + 1
					if start >= len(args) {
						return "", consumed
					}
					end := len(args)
					if hasLen && length < end-start {
						end = start + length
					}
					return strings.Join(args[start:end], " "), consumed
				}
			}
		}
		return "", 0
	}
	t := s[1:]
	switch {
	case strings.HasPrefix(t, "ARGUMENTS"):
		return all, 10
	case strings.HasPrefix(t, "@"):
		return all, 2
	}
	if k := digits(t); k > 0 {
		return arg(atoiSat(t[:k])), 1 + k
	}
	return "", 0
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// atoiSat parses decimal digits, saturating instead of overflowing (the
// reference's parseInt gives a huge number that indexes nothing).
func atoiSat(s string) int {
	const limit = 1 << 40
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n > limit {
			return limit
		}
	}
	return n
}

// CommandInfo is one entry of get_commands. It marshals with the
// reference's 1.6.0 keys in order (name, description when known, source,
// sourceInfo). Location ("user", "project" or "path") and Path are the
// fields customer seed 000 documents; they are filled but not marshalled,
// so the RPC layer may add them if it chooses to.
type CommandInfo struct {
	Name string
	// Description is nil for an extension command registered without one;
	// templates and skills always have one (possibly empty).
	Description *string
	// Source is "extension", "prompt" or "skill".
	Source     string
	SourceInfo *SourceInfo
	Location   string
	Path       string
}

// MarshalJSON writes the reference's key order.
func (c CommandInfo) MarshalJSON() ([]byte, error) {
	type wire struct {
		Name        string      `json:"name"`
		Description *string     `json:"description,omitempty"`
		Source      string      `json:"source"`
		SourceInfo  *SourceInfo `json:"sourceInfo,omitempty"`
	}
	return engine.MarshalJSON(wire{c.Name, c.Description, c.Source, c.SourceInfo})
}

// SeedLocation maps a scope to seed 000's location: user, project or path.
func SeedLocation(scope string) string {
	switch scope {
	case "user", "project":
		return scope
	}
	return "path"
}

// TemplateCommands lists templates as get_commands entries, in load order.
func TemplateCommands(templates []Template) []CommandInfo {
	out := make([]CommandInfo, 0, len(templates))
	for _, t := range templates {
		desc := t.Description
		info := t.SourceInfo
		out = append(out, CommandInfo{
			Name: t.Name, Description: &desc, Source: "prompt", SourceInfo: &info,
			Location: SeedLocation(info.Scope), Path: t.FilePath,
		})
	}
	return out
}
