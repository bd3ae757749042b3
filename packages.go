package pi

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/pi-go/pi/jsruntime"
	"github.com/pi-go/pi/packages"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// pkgState is what the configured pi packages (settings "packages",
// user and trusted project) and the -e package sources provide: their
// extensions, skills, prompt templates and themes. It is resolved in
// wire, before discovery starts, and again for each later generation of
// extensions (reload, new session), when a package that failed to
// install is tried again.
type pkgState struct {
	mu       sync.Mutex
	resolved bool
	// used is set once the first generation has taken the start's
	// resolution; later generations resolve again.
	used       bool
	configured packages.Resources
	temporary  packages.Resources
}

// packageManager is the Manager for this agent's directories. Progress
// lines ("Installing npm:x...") go to stderr: stdout may be the RPC or
// JSON stream.
func (app *Agent) packageManager() *packages.Manager {
	return &packages.Manager{
		AgentDir: app.agentDir, Cwd: app.cwd, Trusted: app.trusted,
		NpmCommand: toStringSlice(app.settings.Raw("npmCommand")), Out: app.stderr,
		Env: func(k string) string {
			// --offline holds from the start: no package is installed
			// or refreshed then, cached copies load.
			if k == "PI_OFFLINE" && app.opts.Offline {
				return "1"
			}
			return os.Getenv(k)
		},
	}
}

// isPackageSource reports whether an -e argument names a package to
// install (npm:, git:, a git URL) rather than a path.
func isPackageSource(s string) bool {
	return packages.Parse(s).Kind != packages.KindLocal
}

// isPackageDir reports whether an -e path is a package folder (a pi
// manifest with resource lists, or conventional resource folders): the
// reference loads all of its resources, not only an entry file.
func isPackageDir(p, cwd string) bool {
	if strings.HasPrefix(p, builtinPrefix) || isPackageSource(p) {
		return false
	}
	_, ok := packages.Collect(packages.ResolvePath(p, cwd), nil)
	return ok
}

// tempPackageSources are the -e arguments resolved as packages.
func (app *Agent) tempPackageSources() []string {
	var out []string
	for _, e := range app.opts.Extensions {
		if strings.HasPrefix(e, builtinPrefix) {
			continue
		}
		if isPackageSource(e) || isPackageDir(e, app.cwd) {
			out = append(out, e)
		}
	}
	return out
}

// resolvePackages resolves the configured and -e packages, installing
// missing ones; a package that cannot be installed is reported as a
// warning and skipped, as the reference does.
func (app *Agent) resolvePackages(ctx context.Context) {
	st := &app.pkgs
	tempSources := app.tempPackageSources()
	declared := app.settings.Raw("packages") != nil || app.settings.GlobalRaw("packages") != nil
	var configured, temporary packages.Resources
	var failures []packages.InstallFailure
	if declared || len(tempSources) > 0 {
		m := app.packageManager()
		if declared {
			var f []packages.InstallFailure
			configured, f = m.Resolve(ctx)
			failures = append(failures, f...)
		}
		if len(tempSources) > 0 {
			var f []packages.InstallFailure
			temporary, f = m.ResolveTemporary(ctx, tempSources)
			failures = append(failures, f...)
		}
	}
	for _, f := range failures {
		hint := "Check the source and try again."
		if f.Scope != packages.ScopeTemporary {
			local := ""
			if f.Scope == packages.ScopeProject {
				local = " --local"
			}
			hint = fmt.Sprintf("Run \"pi remove %s%s\" to remove it from settings.json.", f.Source, local)
		}
		fmt.Fprintf(app.stderr, "Warning: Extension package %q: failed to install (%s). %s\n", f.Source, f.Message, hint)
	}
	st.mu.Lock()
	first := !st.resolved
	st.configured, st.temporary, st.resolved = configured, temporary, true
	st.mu.Unlock()
	if first {
		// The reference checks the configured packages only; -e ones
		// load as plain paths there.
		for _, w := range configured.HostDependencyWarnings() {
			fmt.Fprintln(app.stderr, "Warning: "+w)
		}
	}
}

// packageResources returns the resolved packages (resolving now when
// wire did not).
func (app *Agent) packageResources() (configured, temporary packages.Resources) {
	st := &app.pkgs
	st.mu.Lock()
	done := st.resolved
	st.mu.Unlock()
	if !done {
		app.resolvePackages(context.Background())
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.configured, st.temporary
}

// packageExtensionSources are the package extensions, the -e ones first
// (they load before everything but plain -e paths), then the configured
// ones (after the folders' and settings' extensions). A generation after
// the first resolves the packages again.
func (app *Agent) packageExtensionSources() (cli, configured []jsruntime.Source) {
	st := &app.pkgs
	st.mu.Lock()
	again := st.used
	st.used = true
	st.mu.Unlock()
	if again {
		app.resolvePackages(context.Background())
	}
	conf, temp := app.packageResources()
	if app.opts.NoExtensions {
		// -ne: the packages' skills and templates still load, their
		// extensions do not (as in the reference); -e ones do.
		conf = nil
	}
	toSources := func(rs []packages.Resolved) []jsruntime.Source {
		var out []jsruntime.Source
		for _, r := range rs {
			if !r.Enabled {
				continue
			}
			if r.Scope == packages.ScopeTemporary {
				// The reference labels an -e package's extensions as
				// plain -e paths.
				out = append(out, jsruntime.Source{Path: r.Path, Scope: jsruntime.ScopeCLI, Source: jsruntime.SourceCLI})
				continue
			}
			out = append(out, jsruntime.Source{Path: r.Path, Scope: r.Scope, Source: r.Source, Origin: "package", BaseDir: r.BaseDir})
		}
		return out
	}
	return toSources(temp["extensions"]), toSources(conf["extensions"])
}

// withPackageExtensions puts the package extensions around the
// discovered ones, dropping a file found twice.
func withPackageExtensions(discovered, cli, configured []jsruntime.Source) []jsruntime.Source {
	if len(cli) == 0 && len(configured) == 0 {
		return discovered
	}
	var out []jsruntime.Source
	seen := map[string]bool{}
	add := func(list []jsruntime.Source) {
		for _, s := range list {
			if !seen[s.Path] {
				seen[s.Path] = true
				out = append(out, s)
			}
		}
	}
	// Plain -e paths lead, then -e packages, then the rest.
	var plainCLI, rest []jsruntime.Source
	for _, s := range discovered {
		if s.Scope == jsruntime.ScopeCLI {
			plainCLI = append(plainCLI, s)
		} else {
			rest = append(rest, s)
		}
	}
	add(plainCLI)
	add(cli)
	add(rest)
	add(configured)
	return out
}

// withoutPackageSources drops the -e arguments that are packages: they
// are installed and resolved here, not loaded as paths.
func withoutPackageSources(paths []string, cwd string) []string {
	var out []string
	for _, p := range paths {
		if !isPackageSource(p) && !isPackageDir(p, cwd) {
			out = append(out, p)
		}
	}
	return out
}

// tempLocalInfo is the sourceInfo the reference gives the skills and
// templates of an -e package: skills read as plain -e paths, templates
// name their package (a folder by its absolute path).
func tempLocalInfo(r packages.Resolved, path, kind string) (prompts.SourceInfo, bool) {
	if r.Scope != packages.ScopeTemporary {
		return prompts.SourceInfo{}, false
	}
	if kind == "skills" {
		return prompts.SourceInfo{Path: path, Source: "cli", Scope: "temporary", Origin: "top-level"}, true
	}
	src := r.Source
	if packages.Parse(src).Kind == packages.KindLocal {
		src = r.BaseDir
	}
	return prompts.SourceInfo{Path: path, Source: src, Scope: "temporary", Origin: "package", BaseDir: r.BaseDir}, true
}

// packageSkills loads the packages' enabled skill files, labelled with
// their package's sourceInfo.
func (app *Agent) packageSkills(cache *prompts.FileCache) []skills.Skill {
	if app.opts.NoSkills {
		return nil
	}
	conf, temp := app.packageResources()
	var out []skills.Skill
	for _, res := range []packages.Resources{temp, conf} {
		for _, r := range res["skills"] {
			if !r.Enabled {
				continue
			}
			list, _ := skills.Discover(skills.Options{Cwd: app.cwd, CLIPaths: []string{r.Path}, NoSkills: true, Cache: cache})
			for _, s := range list {
				s.SourceInfo = prompts.SourceInfo{Path: s.FilePath, Source: r.Source, Scope: r.Scope, Origin: "package", BaseDir: r.BaseDir}
				if info, ok := tempLocalInfo(r, s.FilePath, "skills"); ok {
					s.SourceInfo = info
				}
				s.Source = r.Scope
				out = append(out, s)
			}
		}
	}
	return out
}

// packageTemplates loads the packages' enabled prompt templates.
func (app *Agent) packageTemplates(cache *prompts.FileCache) []prompts.Template {
	if app.opts.NoPromptTemplates {
		return nil
	}
	conf, temp := app.packageResources()
	var out []prompts.Template
	for _, res := range []packages.Resources{temp, conf} {
		var paths []string
		var meta []packages.Resolved
		for _, r := range res["prompts"] {
			if r.Enabled {
				paths = append(paths, r.Path)
				meta = append(meta, r)
			}
		}
		if len(paths) == 0 {
			continue
		}
		list, _ := prompts.LoadTemplates(prompts.TemplateOptions{Cwd: app.cwd, CLIPaths: paths, NoTemplates: true, Cache: cache})
		byPath := map[string]packages.Resolved{}
		for _, r := range meta {
			byPath[r.Path] = r
		}
		for _, t := range list {
			if r, ok := byPath[t.FilePath]; ok {
				t.SourceInfo = prompts.SourceInfo{Path: t.FilePath, Source: r.Source, Scope: r.Scope, Origin: "package", BaseDir: r.BaseDir}
				if info, ok := tempLocalInfo(r, t.FilePath, "prompts"); ok {
					t.SourceInfo = info
				}
			}
			out = append(out, t)
		}
	}
	return out
}

// PackageThemes lists the theme files the packages provide, for the
// theme list of an interactive face.
func (app *Agent) PackageThemes() []string {
	conf, temp := app.packageResources()
	return append(temp.Paths("themes"), conf.Paths("themes")...)
}

// appendSkills adds skills whose names are not taken yet (the first
// owner of a name keeps it, as in discovery).
func appendSkills(list, more []skills.Skill) []skills.Skill {
	taken := map[string]bool{}
	for _, s := range list {
		taken[s.Name] = true
	}
	for _, s := range more {
		if !taken[s.Name] {
			taken[s.Name] = true
			list = append(list, s)
		}
	}
	return list
}

// appendTemplates adds templates whose names are not taken yet.
func appendTemplates(list, more []prompts.Template) []prompts.Template {
	taken := map[string]bool{}
	for _, t := range list {
		taken[t.Name] = true
	}
	for _, t := range more {
		if !taken[t.Name] {
			taken[t.Name] = true
			list = append(list, t)
		}
	}
	return list
}
