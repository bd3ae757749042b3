package pi

import (
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/jsruntime"
)

// reloadSettings is the settings part of ctx.reload: the reference's
// reload reads settings.json (global and project) again before it
// rebuilds the resources and the extension runtime. The settings object
// is refreshed in place (config.Settings.Reload, under its own lock), so
// everything that reads app.settings later (pi.getSettings, skill and
// template paths, defaultTools for the rebuilt tool list, compaction and
// retry options read at use) sees the new files. The queue modes, retry
// and auto-compaction switches the session copied at start are applied
// to it again, as the reference syncs its queue modes and reads the
// others live; the thinking level and model stay the session's.
func (app *Agent) reloadSettings(sess *engine.Session) {
	s := app.settings
	if s == nil {
		return
	}
	if app.opts != nil && app.opts.Settings != nil {
		// An embedder's in-memory settings have no files to read again.
	} else if err := s.Reload(app.agentDir, app.cwd, app.trusted); err != nil {
		if app.ext != nil {
			app.ext.Report(jsruntime.ExtensionError{Event: "reload", Error: err.Error()})
		}
		return
	}
	if sess == nil {
		return
	}
	sess.SetSteeringMode(s.SteeringMode())
	sess.SetFollowUpMode(s.FollowUpMode())
	sess.SetAutoRetry(s.Retry().Enabled)
	sess.SetAutoCompaction(s.Compaction().Enabled)
}
