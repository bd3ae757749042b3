package interactive

import (
	"path/filepath"

	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/tui"
)

// buildKeymap merges the tui.* and app.* defaults and applies the user's
// keybindings.json from the agent directory. Problems are returned as
// warnings for the header; the valid rest is kept.
func buildKeymap(agentDir string) (*tui.Keymap, []string) {
	defaults := map[string][]string{}
	for k, v := range tui.DefaultKeys() {
		defaults[k] = v
	}
	for k, v := range dialogs.AppKeys() {
		defaults[k] = v
	}
	km, errs := tui.NewKeymap(defaults)
	if agentDir != "" {
		errs = append(errs, tui.LoadKeybindings(filepath.Join(agentDir, "keybindings.json"), km)...)
	}
	var warnings []string
	for _, e := range errs {
		warnings = append(warnings, "Warning: keybindings: "+e.Error())
	}
	return km, warnings
}

// firstKey is the first key bound to action, for hints ("" when unbound).
func firstKey(km *tui.Keymap, action string) string {
	if ks := km.Keys(action); len(ks) > 0 {
		return ks[0].String()
	}
	return ""
}
