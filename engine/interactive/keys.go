package interactive

import (
	"path/filepath"

	"github.com/pi-go/pi/engine/tui"
)

// appKeys are the defaults of the interactive mode's own actions (the
// reference's keybindings.md, Linux and macOS). The tui.* defaults come
// from engine/tui; keybindings.json overrides both.
//
// A function rather than a package variable, so the table is built when
// the interactive mode starts, not in every mode's package init.
func appKeys() map[string][]string {
	return map[string][]string{
		"app.interrupt":                 {"escape"},
		"app.clear":                     {"ctrl+c"},
		"app.exit":                      {"ctrl+d"},
		"app.suspend":                   {"ctrl+z"},
		"app.editor.external":           {"ctrl+g"},
		"app.clipboard.pasteImage":      {"ctrl+v"},
		"app.model.select":              {"ctrl+l"},
		"app.model.cycleForward":        {"ctrl+p"},
		"app.model.cycleBackward":       {"shift+ctrl+p"},
		"app.models.save":               {"ctrl+s"},
		"app.models.enableAll":          {"ctrl+a"},
		"app.models.clearAll":           {"ctrl+x"},
		"app.models.toggleProvider":     {"ctrl+p"},
		"app.models.reorderUp":          {"alt+up"},
		"app.models.reorderDown":        {"alt+down"},
		"app.thinking.cycle":            {"shift+tab"},
		"app.thinking.save":             {"ctrl+s"},
		"app.thinking.toggle":           {"ctrl+t"},
		"app.tools.expand":              {"ctrl+o"},
		"app.message.copy":              {"ctrl+x"},
		"app.message.followUp":          {"alt+enter"},
		"app.message.dequeue":           {"alt+up"},
		"app.session.new":               {},
		"app.session.tree":              {},
		"app.session.fork":              {},
		"app.session.resume":            {},
		"app.session.togglePath":        {"ctrl+p"},
		"app.session.toggleSort":        {"ctrl+s"},
		"app.session.toggleNamedFilter": {"ctrl+n"},
		"app.session.rename":            {"ctrl+r"},
		"app.session.delete":            {"ctrl+d"},
		"app.session.deleteNoninvasive": {"ctrl+backspace"},
		"app.tree.foldOrUp":             {"ctrl+left", "alt+left"},
		"app.tree.unfoldOrDown":         {"ctrl+right", "alt+right"},
		"app.tree.editLabel":            {"shift+l"},
		"app.tree.toggleLabelTimestamp": {"shift+t"},
		"app.tree.filter.default":       {"ctrl+d"},
		"app.tree.filter.noTools":       {"ctrl+t"},
		"app.tree.filter.userOnly":      {"ctrl+u"},
		"app.tree.filter.labeledOnly":   {"ctrl+l"},
		"app.tree.filter.all":           {"ctrl+a"},
		"app.tree.filter.cycleForward":  {"ctrl+o"},
		"app.tree.filter.cycleBackward": {"shift+ctrl+o"},
	}
}

// buildKeymap merges the tui.* and app.* defaults and applies the user's
// keybindings.json from the agent directory. Problems are returned as
// warnings for the header; the valid rest is kept.
func buildKeymap(agentDir string) (*tui.Keymap, []string) {
	defaults := map[string][]string{}
	for k, v := range tui.DefaultKeys() {
		defaults[k] = v
	}
	for k, v := range appKeys() {
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
