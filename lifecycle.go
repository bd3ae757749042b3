package pi

import (
	"context"
	"slices"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/jsruntime"
)

// This file is the agent's side of the extensions' life across session
// replacement and reload (jsruntime.Runner documents the order the
// reference follows): what the agent reads again for a new generation —
// settings, context files, skills and templates — and when.

// startGeneration announces a replacement session to the current
// generation: the skills and templates are read again before its
// session_start (the reference's resource loader has them by then), and
// resources_discover follows with discoverReason.
func (app *Agent) startGeneration(ctx context.Context, sess *engine.Session, reason, prev, discoverReason string) {
	app.ext.StartGeneration(ctx, sess, reason, prev, app.rereadResources, func() { app.rediscoverResources(discoverReason) })
}

// reloadExtensions is ctx.reload: session_shutdown {reason: "reload"} in
// the current generation, a fresh one over the same session with the
// active tools rebuilt from its registrations, then session_start and
// resources_discover, both with reason "reload".
func (app *Agent) reloadExtensions(ctx context.Context) error {
	sess := app.session()
	if api, _ := app.ext.Current(); api != nil {
		api.Emit(ctx, "session_shutdown", jsruntime.Field{Key: "reason", Value: "reload"})
	}
	app.reloadSettings(sess)
	app.ext.NextGeneration(ctx, true)
	// The reference's reload reads AGENTS.md, SYSTEM.md and
	// APPEND_SYSTEM.md again; the session's prompt builder reads what
	// this records (wire.go).
	if _, err := app.systemPrompt(); err != nil {
		app.ext.Report(jsruntime.ExtensionError{Event: "reload", Error: err.Error()})
	}
	if sess != nil {
		if tools, err := app.tools(); err == nil {
			sess.SetTools(tools)
		}
	}
	app.reloadMCP(ctx)
	app.startGeneration(ctx, sess, "reload", "", "reload")
	return nil
}

// rereadResources discovers the skills and prompt templates again, as
// the reference's resource loader does for a new session and a reload (a
// skill added meanwhile is listed, one removed is gone); they become the
// base the extensions' resources_discover adds to.
func (app *Agent) rereadResources() {
	app.mu.Lock()
	app.discoverResources()
	sk, tmpl := app.skills, app.templates
	app.mu.Unlock()
	app.resMu.Lock()
	app.baseSkills = sk[:len(sk):len(sk)]
	app.baseTemplates = tmpl[:len(tmpl):len(tmpl)]
	app.baseSaved = true
	app.resMu.Unlock()
}

// rediscoverResources runs resources_discover in the current generation:
// the skills and templates start again from those found without
// extensions, and the new generation's paths are added to them.
func (app *Agent) rediscoverResources(reason string) {
	app.resMu.Lock()
	saved := app.baseSaved
	skillsBase, tmplBase := app.baseSkills, app.baseTemplates
	app.resMu.Unlock()
	if saved {
		app.mu.Lock()
		app.skills = slices.Clone(skillsBase)
		app.templates = slices.Clone(tmplBase)
		app.mu.Unlock()
	}
	app.discoverExtensionResources(reason)
}
