package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pi-go/pi/internal/utf16x"
	"github.com/pi-go/pi/prompts"
)

// Limits from the Agent Skills specification.
const (
	maxNameLength        = 64
	maxDescriptionLength = 1024
)

// Skill is one loaded skill.
type Skill struct {
	Name        string
	Description string
	// FilePath is the absolute path of SKILL.md (or the standalone .md).
	FilePath string
	// BaseDir is the directory holding FilePath; relative references in
	// the skill resolve against it.
	BaseDir string
	// Source is "user", "project" or "path" (explicit --skill or settings
	// paths outside the conventional directories).
	Source                 string
	DisableModelInvocation bool
	SourceInfo             prompts.SourceInfo
}

// Diagnostic is a prompts.Diagnostic; skills report the same shape.
type Diagnostic = prompts.Diagnostic

// Options says where to look for skills.
type Options struct {
	// AgentDir is ~/.pi/agent (or $PI_CODING_AGENT_DIR).
	AgentDir string
	Cwd      string
	// Home is where ~/.agents/skills lives and what "~" expands to; empty
	// means $HOME.
	Home string
	// ProjectTrusted gates the project's .pi/skills, .pi/agent/skills,
	// .agents/skills in the cwd and its ancestors, and project settings.
	ProjectTrusted bool
	// SettingsGlobal and SettingsProject are the "skills" entries of the
	// user and project settings (relative to AgentDir and <cwd>/.pi).
	SettingsGlobal, SettingsProject []string
	// CLIPaths are --skill arguments (files or directories), relative to
	// Cwd. They load even with NoSkills, and lose name collisions to
	// discovered skills, as in the reference.
	CLIPaths []string
	// NoSkills is -ns: nothing is discovered, only CLIPaths load.
	NoSkills bool
	// Cache, when set, serves unchanged skill files (their frontmatter) from
	// the resource index; the caller saves it.
	Cache *prompts.FileCache
}

// job is one --skill file to load (discovered files load straight from
// the resolver's list, without a job each).
type job struct {
	path   string
	source string
	// meta is the place the file was found in (shared, read only), nil
	// for --skill paths.
	meta *prompts.SourceInfo
	// data is the file's frontmatter when the directory walk read it.
	data []byte
	// diags are found before loading (a missing path); the file is not
	// loaded then.
	diags []Diagnostic
}

// Discover finds and loads skills in the reference's precedence order:
// project settings entries, the project's .pi/skills (and our alias
// .pi/agent/skills), .agents/skills in the cwd and each ancestor up to the
// git root, user settings entries, ~/.pi/agent/skills, ~/.agents/skills,
// then --skill paths. The first skill with a name wins.
func Discover(opts Options) ([]Skill, []Diagnostic) {
	home := opts.Home
	if home == "" {
		home = prompts.HomeDir()
	}
	cwd, _ := filepath.Abs(opts.Cwd)
	agentDir, _ := filepath.Abs(opts.AgentDir)
	projectBase := filepath.Join(cwd, ".pi")
	// Discovered files come first, then --skill paths.
	var enabled []prompts.ResolvedPath
	var jobs []job
	// seen holds the real paths already loaded, for --skill paths only.
	var seen map[string]bool
	if len(opts.CLIPaths) > 0 {
		seen = make(map[string]bool, len(opts.CLIPaths))
	}
	var r prompts.Resolver
	w := walker{keys: &r.Keys, cache: opts.Cache}
	collectEntries := func(dir string, m mode, _ string) []prompts.ResolvedPath { return w.collect(dir, m) }
	if !opts.NoSkills {
		collect := func(dir string) []prompts.ResolvedPath { return w.collect(dir, modePi) }
		if opts.ProjectTrusted {
			r.AddSettings(opts.SettingsProject, projectBase, home, meta("local", "project", ""), collect)
		}
		r.AddSettings(opts.SettingsGlobal, agentDir, home, meta("local", "user", ""), collect)
		userAgents := filepath.Join(home, ".agents", "skills")
		if opts.ProjectTrusted {
			m := meta("auto", "project", projectBase)
			for _, dir := range []string{filepath.Join(projectBase, "skills"), filepath.Join(projectBase, "agent", "skills")} {
				r.AddAuto(collectEntries(dir, modePi, dir), m, opts.SettingsProject, projectBase)
			}
			for _, dir := range ancestorAgentsDirs(cwd) {
				if dir == userAgents {
					continue
				}
				base := filepath.Dir(dir)
				r.AddAuto(collectEntries(dir, modeAgents, dir), meta("auto", "project", base), opts.SettingsProject, base)
			}
		}
		userSkills := filepath.Join(agentDir, "skills")
		r.AddAuto(collectEntries(userSkills, modePi, userSkills), meta("auto", "user", agentDir), opts.SettingsGlobal, agentDir)
		r.AddAuto(collectEntries(userAgents, modeAgents, userAgents), meta("auto", "user", filepath.Dir(userAgents)), opts.SettingsGlobal, filepath.Dir(userAgents))
		enabled = r.Enabled()
		// Only --skill paths are checked against what was discovered, so
		// without them the thousand-entry set is not built.
		if len(opts.CLIPaths) > 0 {
			seen = make(map[string]bool, len(enabled)+len(opts.CLIPaths))
		}
		for _, e := range enabled {
			if seen != nil {
				seen[e.Key] = true
			}
		}
	}
	for _, raw := range opts.CLIPaths {
		abs := prompts.ResolvePath(raw, cwd, home)
		key := r.Keys.Key(abs)
		if seen[key] {
			continue
		}
		seen[key] = true
		// Explicit paths inside a conventional directory keep its scope.
		source := "path"
		switch {
		case prompts.PathWithin(filepath.Join(agentDir, "skills"), abs):
			source = "user"
		case prompts.PathWithin(filepath.Join(projectBase, "skills"), abs):
			source = "project"
		}
		st, err := os.Stat(abs)
		switch {
		case err != nil:
			jobs = append(jobs, job{path: abs, diags: []Diagnostic{{Type: "warning", Message: "skill path does not exist", Path: abs}}})
		case st.IsDir():
			for _, f := range w.collect(abs, modePi) {
				jobs = append(jobs, job{path: f.Path, source: source, data: f.Data})
			}
		case st.Mode().IsRegular() && strings.HasSuffix(abs, ".md"):
			jobs = append(jobs, job{path: abs, source: source})
		default:
			jobs = append(jobs, job{path: abs, diags: []Diagnostic{{Type: "warning", Message: "skill path is not a markdown file", Path: abs}}})
		}
	}
	// Skills are loaded into one slab, which becomes the result compacted
	// in place: a thousand skills cost one allocation, not two each.
	n := len(enabled) + len(jobs)
	slab := make([]Skill, n)
	ok := make([]bool, n)
	// Problems found while loading are rare; they are kept by position.
	var mu sync.Mutex
	var loadDiags map[int][]Diagnostic
	report := func(i int, d []Diagnostic) {
		if len(d) == 0 {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if loadDiags == nil {
			loadDiags = map[int][]Diagnostic{}
		}
		loadDiags[i] = d
	}
	prompts.ParallelEach(n, func(i int) {
		var j job
		if i < len(enabled) {
			e := &enabled[i]
			j = job{path: e.Path, source: "path", meta: e.Meta, data: e.Data}
		} else if j = jobs[i-len(enabled)]; j.diags != nil {
			return
		}
		if j.meta == nil && !strings.HasSuffix(j.path, ".md") {
			return
		}
		if j.meta != nil && !strings.HasSuffix(j.path, ".md") {
			report(i, []Diagnostic{{Type: "warning", Message: "skill path is not a markdown file", Path: j.path}})
			return
		}
		data := j.data
		if data == nil {
			var err error
			if data, err = opts.Cache.ReadFrontmatter(j.path, false); err != nil {
				report(i, []Diagnostic{{Type: "warning", Message: err.Error(), Path: j.path}})
				return
			}
		}
		s := &slab[i]
		var d []Diagnostic
		ok[i], d = loadFileInto(s, j.path, j.source, data)
		report(i, d)
		if ok[i] && j.meta != nil {
			info := *j.meta
			info.Path = s.FilePath
			s.SourceInfo = info
			s.Source = info.Scope
		}
	})
	skills := slab[:0]
	var diags, collisions []Diagnostic
	byName := prompts.NewNameTable(n)
	nameOf := func(i int) string { return skills[i].Name }
	// Discovered files are one per real path already (Resolver.Enabled);
	// only files under --skill directories can repeat one.
	var loaded map[string]bool
	if len(opts.CLIPaths) > 0 {
		loaded = make(map[string]bool, n)
	}
	for i := range n {
		if i >= len(enabled) {
			diags = append(diags, jobs[i-len(enabled)].diags...)
		}
		diags = append(diags, loadDiags[i]...)
		if !ok[i] {
			continue
		}
		skill := &slab[i]
		key := ""
		if loaded != nil {
			if key = r.Keys.Key(skill.FilePath); loaded[key] {
				continue
			}
		}
		if i := byName.Claim(skill.Name, len(skills), nameOf); i >= 0 {
			collisions = append(collisions, Diagnostic{
				Type: "collision", Message: fmt.Sprintf("name %q collision", skill.Name), Path: skill.FilePath,
				Collision: &prompts.Collision{ResourceType: "skill", Name: skill.Name, WinnerPath: skills[i].FilePath, LoserPath: skill.FilePath},
			})
			continue
		}
		if loaded != nil {
			loaded[key] = true
		}
		skills = append(skills, *skill)
	}
	return skills, append(diags, collisions...)
}

func meta(source, scope, baseDir string) prompts.SourceInfo {
	return prompts.SourceInfo{Source: source, Scope: scope, Origin: "top-level", BaseDir: baseDir}
}

// ancestorAgentsDirs lists <dir>/.agents/skills from start up to the git
// root (the nearest directory holding .git), or to / without one.
func ancestorAgentsDirs(start string) []string {
	root := ""
	for dir := start; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			root = dir
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	var out []string
	for dir := start; ; {
		out = append(out, filepath.Join(dir, ".agents", "skills"))
		parent := filepath.Dir(dir)
		if dir == root || parent == dir {
			return out
		}
		dir = parent
	}
}

type mode int

const (
	// modePi: standalone .md files count at the directory's top level.
	modePi mode = iota
	// modeAgents: standalone .md files count only below the top level.
	modeAgents
)

// collectEntries finds skill files under dir: a directory holding a
// SKILL.md file is a skill and is not searched further; otherwise
// sub-directories are searched (dot names and node_modules skipped) and
// standalone .md files are taken where the mode allows.
func collectEntries(dir string, m mode, root string) []string {
	ents, err := prompts.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if e.Name() == "SKILL.md" {
			full := filepath.Join(dir, "SKILL.md")
			if _, isFile := prompts.EntryKind(full, e); isFile {
				return []string{full}
			}
		}
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		full := filepath.Join(dir, name)
		isDir, isFile := prompts.EntryKind(full, e)
		atRoot := dir == root
		if isFile && strings.HasSuffix(name, ".md") && (m == modePi && atRoot || m == modeAgents && !atRoot) {
			out = append(out, full)
			continue
		}
		if isDir {
			out = append(out, collectEntries(full, m, root)...)
		}
	}
	return out
}

// loadFile loads one skill file. Standalone .md files without a description
// are silently not skills; a SKILL.md without one is reported.
// data is the file's contents when a directory walk already read them.
func loadFile(path, source string, data []byte) (*Skill, []Diagnostic) {
	s := new(Skill)
	ok, diags := loadFileInto(s, path, source, data)
	if !ok {
		return nil, diags
	}
	return s, diags
}

// loadFileInto is loadFile writing the skill into s; ok says whether it
// loaded.
func loadFileInto(s *Skill, path, source string, data []byte) (bool, []Diagnostic) {
	raw := data
	if raw == nil {
		var err error
		if raw, err = prompts.ReadResource(path); err != nil {
			return false, []Diagnostic{{Type: "warning", Message: err.Error(), Path: path}}
		}
	}
	declared := filepath.Base(path) == "SKILL.md"
	// Only three keys matter at load; scanning for them spares a map per
	// skill (the reference keeps no other frontmatter on a skill either).
	var name, desc string
	var isString, disable bool
	_, err := prompts.ScanFrontmatter(prompts.ResourceString(raw), func(key, str string, val any) {
		switch key {
		case "name":
			name = str
		case "description":
			desc, isString = str, val == nil
		case "disable-model-invocation":
			disable = val == true
		}
	})
	if err != nil {
		if declared {
			return false, []Diagnostic{{Type: "warning", Message: err.Error(), Path: path}}
		}
		return false, nil
	}
	hasDesc := isString && prompts.TrimJS(desc) != ""
	if !declared && !hasDesc {
		return false, nil
	}
	var diags []Diagnostic
	warn := func(msg string) { diags = append(diags, Diagnostic{Type: "warning", Message: msg, Path: path}) }
	if !hasDesc {
		warn("description is required")
	} else if n := utf16x.Len(desc); n > maxDescriptionLength {
		warn(fmt.Sprintf("description exceeds %d characters (%d)", maxDescriptionLength, n))
	}
	dir := filepath.Dir(path)
	if name == "" {
		name = filepath.Base(dir)
	}
	for _, msg := range validateName(name) {
		warn(msg)
	}
	if !hasDesc {
		return false, diags
	}
	*s = Skill{
		Name: name, Description: desc, FilePath: path, BaseDir: dir, Source: source,
		DisableModelInvocation: disable,
	}
	s.SourceInfo = prompts.SourceInfo{Path: path, Source: "local", Scope: "temporary", Origin: "top-level", BaseDir: dir}
	if source == "user" || source == "project" {
		s.SourceInfo.Scope = source
	}
	return true, diags
}

// validateName returns the reference's warnings for a skill name.
func validateName(name string) []string {
	var out []string
	if n := utf16x.Len(name); n > maxNameLength {
		out = append(out, fmt.Sprintf("name exceeds %d characters (%d)", maxNameLength, n))
	}
	valid := name != ""
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			valid = false
			break
		}
	}
	if !valid {
		out = append(out, "name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)")
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		out = append(out, "name must not start or end with a hyphen")
	}
	if strings.Contains(name, "--") {
		out = append(out, "name must not contain consecutive hyphens")
	}
	return out
}
