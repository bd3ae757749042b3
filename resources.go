package pi

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/pi-go/pi/jsruntime"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// resourceIndexPath is where the resource cache keeps the contents of
// skill and template files between runs (see prompts.FileCache). The
// reference keeps no such file; it only makes warm starts cheaper.
func resourceIndexPath(agentDir string) string {
	return filepath.Join(agentDir, "cache", "resources.idx")
}

// prefetchResources starts discovery in the background once Wire has
// settled the directory, trust and settings, so it overlaps with loading
// extensions and reading stdin; loadResources waits for it.
func (app *Agent) prefetchResources() {
	done := make(chan struct{})
	app.resources = done
	go func() {
		defer close(done)
		app.discoverResources()
	}()
}

// loadResources makes app.skills and app.templates ready: it waits for
// the discovery prefetchResources started, or discovers now.
func (app *Agent) loadResources() {
	if app.resources != nil {
		<-app.resources
		return
	}
	app.discoverResources()
}

// discoverResources discovers skills and prompt templates (settings,
// project folders when trusted, --skill and --prompt-template, -ns and
// -np). The two discoveries run side by side and share the resource cache.
//
// Their diagnostics (invalid skills, name collisions, missing paths) are
// not printed: the reference reports them only in its interactive UI, and
// print, JSON and RPC modes stay silent about them.
func (app *Agent) discoverResources() {
	cache := prompts.OpenFileCache(resourceIndexPath(app.agentDir))
	gSkills, pSkills := app.settings.Resources("skills")
	gTmpl, pTmpl := app.settings.Resources("prompts")
	var wg sync.WaitGroup
	// Package resources rank after the discovered ones and before the
	// command line's (packages.go); without any, one call does it all.
	pkgSkills, pkgTmpl := app.packageSkills(cache), app.packageTemplates(cache)
	wg.Go(func() {
		sopts := skills.Options{
			AgentDir: app.agentDir, Cwd: app.cwd, ProjectTrusted: app.trusted,
			SettingsGlobal: gSkills, SettingsProject: pSkills,
			CLIPaths: app.opts.Skills, NoSkills: app.opts.NoSkills, Cache: cache,
		}
		if len(pkgSkills) == 0 {
			app.skills, _ = skills.Discover(sopts)
			return
		}
		sopts.CLIPaths = nil
		found, _ := skills.Discover(sopts)
		found = appendSkills(found, pkgSkills)
		if len(app.opts.Skills) > 0 {
			sopts.CLIPaths, sopts.NoSkills = app.opts.Skills, true
			cli, _ := skills.Discover(sopts)
			found = appendSkills(found, cli)
		}
		app.skills = found
	})
	topts := prompts.TemplateOptions{
		AgentDir: app.agentDir, Cwd: app.cwd, ProjectTrusted: app.trusted,
		SettingsGlobal: gTmpl, SettingsProject: pTmpl,
		CLIPaths: app.opts.PromptTemplates, NoTemplates: app.opts.NoPromptTemplates, Cache: cache,
	}
	if len(pkgTmpl) == 0 {
		app.templates, _ = prompts.LoadTemplates(topts)
	} else {
		topts.CLIPaths = nil
		found, _ := prompts.LoadTemplates(topts)
		found = appendTemplates(found, pkgTmpl)
		if len(app.opts.PromptTemplates) > 0 {
			topts.CLIPaths, topts.NoTemplates = app.opts.PromptTemplates, true
			cli, _ := prompts.LoadTemplates(topts)
			found = appendTemplates(found, cli)
		}
		app.templates = found
	}
	wg.Wait()
	// A cache that cannot be written costs the next start a cold read,
	// nothing else.
	_ = cache.Save()
}

// Expand applies /skill:name and then /template expansion to a prompt,
// as the reference does after the input hook and before sending; an
// extension command is left as typed. Every face's prompts and queued
// messages expand here. A skill whose file cannot be read leaves the
// text as typed and is reported as an extension error (event
// skill_expansion): on the RPC stream, or on stderr as print mode
// prints them.
func (app *Agent) Expand(text string) string {
	// Every prompt passes here before its request: MCP servers with
	// direct tools join the active tools first (mcp_builtin.go).
	app.syncMCPTools(context.Background())
	if app.ext.IsCommand(text) {
		// Extension commands run before any expansion.
		return text
	}
	templates, list := app.Resources()
	out, err := skills.ExpandPrompt(text, list, templates)
	if err != nil {
		app.ext.Report(jsruntime.ExtensionError{Path: err.Path, Event: "skill_expansion", Error: err.Error()})
	}
	return out
}
