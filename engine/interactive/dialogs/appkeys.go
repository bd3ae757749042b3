package dialogs

import (
	"os"
	"runtime"

	"github.com/pi-go/pi/engine/tui"
)

// AppKeys are the default keys of pi's app.* actions (keybindings.md) on
// this platform; with tui.DefaultKeys they make the keymap the
// interactive mode starts from, before keybindings.json.
func AppKeys() map[string][]string { return AppKeysFor(runtime.GOOS, os.Getenv) }

// AppKeysFor is AppKeys for a platform and environment: native Windows has
// no suspend, and Windows terminals (and WSL) get the alternatives for the
// chords they cannot send.
func AppKeysFor(goos string, getenv func(string) string) map[string][]string {
	m := map[string][]string{
		"app.interrupt":                 {"escape"},
		"app.clear":                     {"ctrl+c"},
		"app.exit":                      {"ctrl+d"},
		"app.suspend":                   {"ctrl+z"},
		"app.editor.external":           {"ctrl+g"},
		"app.clipboard.pasteImage":      {"ctrl+v"},
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
	if goos == "windows" {
		m["app.suspend"] = []string{}
	}
	if tui.WindowsKeybindings(goos, getenv) {
		m["app.clipboard.pasteImage"] = []string{"alt+v", "ctrl+v"}
		m["app.model.cycleBackward"] = []string{"alt+p"}
		m["app.message.followUp"] = []string{"ctrl+q"}
		m["app.message.dequeue"] = []string{"alt+q"}
	}
	return m
}
