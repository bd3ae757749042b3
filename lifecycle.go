package pi

import (
	"context"
	"slices"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/jsruntime"
)

// This file is the extension runtime's life across session replacement
// and reload. The reference retires its extension runner whenever the
// session is replaced (ctx.newSession, ctx.fork, ctx.switchSession, RPC
// new_session, switch_session, fork, clone) or reloaded (ctx.reload), and
// loads the extensions afresh: every factory runs again, so tools,
// commands, flags, providers and handlers are registered again, and the
// new generation sees session_start (with the replacement's reason) and
// resources_discover. The order, as recorded from pi 1.6.0:
//
//	session_before_switch / session_before_fork   (old generation)
//	session_shutdown {reason, targetSessionFile}  (old generation)
//	old generation stale from here on
//	factories                                     (new generation)
//	session_start {reason, previousSessionFile}   (new generation)
//	resources_discover {reason: "startup"}        (new generation)
//	withSession(ctx)                              (the caller's closure)
//
// and for a reload: session_shutdown {reason: "reload"}, the old
// generation stale, the context files, skills and templates read again,
// the factories, session_start {reason: "reload"}, resources_discover
// {reason: "reload"}.
//
// All generations share one goja VM (jsruntime.Runtime.NextGeneration),
// as the reference's share one Node process: a replacement calls the
// cached factories again, so module state carries over, while a reload
// evaluates the modules afresh; globalThis and the timers of retired
// generations live on. A retired generation is stale: its pi and ctx throw
// the reference's error (jsruntime.StaleMessage), except through the
// withSession callback, which gets the new generation's ctx.

// setExtUI sets ctx.ui's backend for this and every later generation.
func (h *extHost) setExtUI(ui engine.UI) {
	h.mu.Lock()
	h.ui = ui
	api := h.api
	h.mu.Unlock()
	if api != nil {
		api.SetUI(ui)
	}
}

// setExtController sets the session control for this and every later
// generation.
func (app *Agent) setExtController(ctl engine.SessionController) {
	h := app.ext
	h.mu.Lock()
	h.ctl = ctl
	api := h.api
	h.mu.Unlock()
	if api != nil {
		api.SetSessionController(ctl)
	}
}

// setFlag applies a claimed CLI flag value and remembers it for later
// generations.
func (h *extHost) setFlag(f flagSet) {
	h.mu.Lock()
	h.flagSets = append(h.flagSets, f)
	api := h.api
	h.mu.Unlock()
	if api != nil {
		api.SetFlag(f.name, f.value, f.isBool)
	}
}

// nextGeneration retires the current generation (it is stale from now
// on, as the reference's runner is once its session is disposed) and
// loads the next into the same VM: from the module cache for a session
// replacement, from the files again for a reload. The retired generation
// stays bound to the old session until startGeneration moves it along: the
// command that asked for the replacement still runs there (its withSession
// callback, then the rest of its handler). Extensions that fail to load
// are left out silently, as in the reference; a host failure keeps the
// retired generation current.
func (app *Agent) nextGeneration(ctx context.Context, reload bool) {
	h := app.ext
	if h.load == nil {
		return
	}
	old, _ := h.cur()
	old.Invalidate(ctx)
	old.PinSessionManager()
	// An extension that fails to load now is left out without a word, as
	// the reference's reload and replacement do (checked live: no
	// extension_error, nothing on stderr); only a host failure is
	// reported.
	api, rt, _, err := h.load(context.WithoutCancel(ctx), reload)
	if err != nil {
		h.report(jsruntime.ExtensionError{Event: "load", Error: err.Error()})
		return
	}
	h.mu.Lock()
	flags, ui, ctl := h.flagSets, h.ui, h.ctl
	h.mu.Unlock()
	for _, f := range flags {
		api.SetFlag(f.name, f.value, f.isBool)
	}
	if ui != nil {
		api.SetUI(ui)
	}
	if ctl != nil {
		api.SetSessionController(ctl)
	}
	old.SetSuccessor(api)
	h.mu.Lock()
	h.api, h.rt = api, rt
	h.retiring = append(h.retiring, old)
	h.mu.Unlock()
	// Providers the new factories registered apply at once: the session
	// that follows resolves its model through them.
	_ = api.FlushProviders()
}

// startGeneration announces sess to the current generation
// (session_start with reason and the previous file, then
// resources_discover with discoverReason, after the skills and templates
// were read again as the reference's new resource loader reads them), and
// binds the just retired generations to sess too: the command that
// replaced the session sends its withSession messages through them.
func (app *Agent) startGeneration(ctx context.Context, sess *engine.Session, reason, prev, discoverReason string) {
	h := app.ext
	api, _ := h.cur()
	_ = api.Bind(ctx, sess)
	fields := []jsruntime.Field{{Key: "reason", Value: reason}}
	if prev != "" {
		fields = append(fields, jsruntime.Field{Key: "previousSessionFile", Value: prev})
	}
	// The skills and templates are read before session_start, as the
	// reference's resource loader has them by then (pi.getCommands).
	app.rereadResources()
	api.Emit(ctx, "session_start", fields...)
	app.rediscoverResources(discoverReason)
	h.mu.Lock()
	old := h.retiring
	h.retiring = nil
	h.mu.Unlock()
	for _, r := range old {
		if r != nil {
			_ = r.Bind(ctx, sess)
		}
	}
}

// reloadExtensions is ctx.reload: session_shutdown {reason: "reload"} in
// the current generation, a fresh one over the same session with the
// active tools rebuilt from its registrations, then session_start and
// resources_discover, both with reason "reload".
func (app *Agent) reloadExtensions(ctx context.Context) error {
	h := app.ext
	sess := app.session()
	api, _ := h.cur()
	api.Emit(ctx, "session_shutdown", jsruntime.Field{Key: "reason", Value: "reload"})
	app.reloadSettings(sess)
	app.nextGeneration(ctx, true)
	// The reference's reload reads AGENTS.md, SYSTEM.md and
	// APPEND_SYSTEM.md again; the session's prompt builder reads what
	// this records (wire.go).
	if app.opts != nil {
		if _, err := app.systemPrompt(); err != nil {
			h.report(jsruntime.ExtensionError{Event: "reload", Error: err.Error()})
		}
	}
	if sess != nil {
		if tools, err := app.tools(); err == nil {
			sess.SetTools(tools)
		}
	}
	app.startGeneration(ctx, sess, "reload", "", "reload")
	return nil
}

// rereadResources discovers the skills and prompt templates again, as
// the reference's resource loader does for a new session and a reload (a
// skill added meanwhile is listed, one removed is gone); they become the
// base the extensions' resources_discover adds to.
func (app *Agent) rereadResources() {
	h := app.ext
	if app.settings == nil || app.opts == nil {
		return
	}
	app.mu.Lock()
	app.discoverResources()
	sk, tmpl := app.skills, app.templates
	app.mu.Unlock()
	h.mu.Lock()
	h.baseSkills = sk[:len(sk):len(sk)]
	h.baseTemplates = tmpl[:len(tmpl):len(tmpl)]
	h.baseSaved = true
	h.mu.Unlock()
}

// rediscoverResources runs resources_discover in the current generation:
// the skills and templates start again from those found without
// extensions, and the new generation's paths are added to them.
func (app *Agent) rediscoverResources(reason string) {
	h := app.ext
	h.mu.Lock()
	saved := h.baseSaved
	skillsBase, tmplBase := h.baseSkills, h.baseTemplates
	h.mu.Unlock()
	if saved {
		app.mu.Lock()
		app.skills = slices.Clone(skillsBase)
		app.templates = slices.Clone(tmplBase)
		app.mu.Unlock()
	}
	app.discoverExtensionResources(reason)
}
