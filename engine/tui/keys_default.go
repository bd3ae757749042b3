package tui

import (
	"os"
	"runtime"
)

// WindowsKeybindings reports whether pi's Windows defaults apply: on
// Windows, and on Linux under WSL (WSL_DISTRO_NAME or WSL_INTEROP set),
// whose terminals send the same keys.
func WindowsKeybindings(goos string, getenv func(string) string) bool {
	if getenv == nil {
		getenv = os.Getenv
	}
	return goos == "windows" || goos == "linux" && (getenv("WSL_DISTRO_NAME") != "" || getenv("WSL_INTEROP") != "")
}

// DefaultKeys is every tui.* action of pi with its default keys on this
// platform (keybindings.md). An empty list is an action without a
// default that keybindings.json may bind.
func DefaultKeys() map[string][]string { return DefaultKeysFor(runtime.GOOS, os.Getenv) }

// DefaultKeysFor is DefaultKeys for a given platform and environment.
func DefaultKeysFor(goos string, getenv func(string) string) map[string][]string {
	win := WindowsKeybindings(goos, getenv)
	m := map[string][]string{
		"tui.editor.cursorUp":           {"up"},
		"tui.editor.cursorDown":         {"down"},
		"tui.editor.historyPrevious":    {},
		"tui.editor.historyNext":        {},
		"tui.editor.cursorLeft":         {"left", "ctrl+b"},
		"tui.editor.cursorRight":        {"right", "ctrl+f"},
		"tui.editor.cursorWordLeft":     {"alt+left", "ctrl+left", "alt+b"},
		"tui.editor.cursorWordRight":    {"alt+right", "ctrl+right", "alt+f"},
		"tui.editor.cursorLineStart":    {"home", "ctrl+a"},
		"tui.editor.cursorLineEnd":      {"end", "ctrl+e"},
		"tui.editor.jumpForward":        {"ctrl+]"},
		"tui.editor.jumpBackward":       {"ctrl+alt+]"},
		"tui.editor.pageUp":             {"pageUp", "ctrl+pageUp"},
		"tui.editor.pageDown":           {"pageDown", "ctrl+pageDown"},
		"tui.editor.deleteCharBackward": {"backspace"},
		"tui.editor.deleteCharForward":  {"delete", "ctrl+d"},
		"tui.editor.deleteWordBackward": {"ctrl+w", "alt+backspace"},
		"tui.editor.deleteWordForward":  {"alt+d", "alt+delete"},
		"tui.editor.deleteToLineStart":  {"ctrl+u"},
		"tui.editor.deleteToLineEnd":    {"ctrl+k"},
		"tui.editor.yank":               {"ctrl+y"},
		"tui.editor.yankPop":            {"alt+y"},
		"tui.editor.undo":               {"ctrl+-"},
		"tui.input.newLine":             {"shift+enter", "ctrl+j"},
		"tui.input.submit":              {"enter"},
		"tui.input.tab":                 {"tab"},
		"tui.input.copy":                {"ctrl+c"},
		"tui.select.up":                 {"up"},
		"tui.select.down":               {"down"},
		"tui.select.pageUp":             {"pageUp"},
		"tui.select.pageDown":           {"pageDown"},
		"tui.select.confirm":            {"enter"},
		"tui.select.cancel":             {"escape", "ctrl+c"},
		"tui.altScreen.pageUp":          {"pageUp"},
		"tui.altScreen.pageDown":        {"pageDown"},
		"tui.altScreen.halfPageUp":      {},
		"tui.altScreen.halfPageDown":    {},
		"tui.altScreen.lineUp":          {},
		"tui.altScreen.lineDown":        {},
		"tui.altScreen.previousPrompt":  {"ctrl+shift+up", "ctrl+up"},
		"tui.altScreen.nextPrompt":      {"ctrl+shift+down", "ctrl+down"},
		"tui.altScreen.search":          {"ctrl+shift+f"},
		"tui.altScreen.searchNext":      {"enter", "ctrl+g"},
		"tui.altScreen.searchPrevious":  {"shift+enter", "ctrl+shift+g"},
		"tui.altScreen.searchClose":     {"escape"},
		"tui.altScreen.top":             {"ctrl+home"},
		"tui.altScreen.bottom":          {"ctrl+end"},
	}
	switch {
	case goos == "windows":
		m["tui.editor.undo"] = []string{"ctrl+z"}
	case win:
		m["tui.editor.undo"] = []string{"alt+z"}
	}
	if win {
		m["tui.altScreen.previousPrompt"] = []string{"ctrl+up"}
		m["tui.altScreen.nextPrompt"] = []string{"ctrl+down"}
		m["tui.altScreen.search"] = []string{"ctrl+f"}
	}
	return m
}
