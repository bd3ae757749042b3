package pi

import (
	"context"
	"fmt"

	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/jsruntime"
)

// extensionTrust asks the user and CLI extensions about an undecided
// project, as the reference does before its own trust decision: those
// extensions load into a bootstrap runtime of their own (project
// extensions cannot vouch for their project), run project_trust, and the
// runtime is discarded; the real extension set loads once trust is known.
// ok is false when no handler answered "yes" or "no". A remembered answer
// is stored in the trust file.
func (app *Agent) extensionTrust(ctx context.Context) (trusted, ok bool) {
	a := app.opts
	sources := jsruntime.Discover(jsruntime.DiscoverOptions{
		AgentDir: app.agentDir, Cwd: app.cwd, Trusted: false,
		GlobalSettings: toStringSlice(app.settings.GlobalRaw("extensions")),
		CLI:            withoutBuiltins(a.Extensions), NoDiscovery: a.NoExtensions,
	})
	if len(sources) == 0 {
		return false, false
	}
	api := jsruntime.NewAPI(jsruntime.APIOptions{Mode: string(app.mode), Cwd: app.cwd})
	rt, _, err := jsruntime.Load(ctx, jsruntime.LoadOptions{
		AgentDir: app.agentDir, Cwd: app.cwd, Sources: sources, Stderr: app.stderr,
		OnError: func(e jsruntime.ExtensionError) {
			fmt.Fprintf(app.stderr, "Extension %q project_trust error: %s\n", e.Path, e.Error)
		},
		Host: api.Host(),
	})
	if err != nil || rt == nil {
		// Load failures are reported by the real load that follows.
		return false, false
	}
	defer rt.Close()
	decided, trusted, remember := api.ProjectTrust(ctx, app.cwd)
	if !decided {
		return false, false
	}
	if remember {
		v := trusted
		if err := config.NewTrust(app.agentDir).Set(app.cwd, &v); err != nil {
			fmt.Fprintln(app.stderr, "Warning: could not save project trust:", err)
		}
	}
	return trusted, true
}
