package interactive

import (
	"context"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/interactive/slash"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/editor"
	"github.com/pi-go/pi/engine/tui/theme"
)

// host is the app as the built-in slash commands see it (slash.Host).
type host struct{ a *app }

var _ slash.Host = host{}

func (h host) Agent() slash.Agent     { return h.a.c }
func (h host) Style() dialogs.Style   { return dialogs.Style{Theme: h.a.v.th, Keymap: h.a.km} }
func (h host) EditorText() string     { return h.a.editor.Text() }
func (h host) SetEditorText(s string) { h.a.editor.SetText(s); h.a.p.RequestRender() }
func (h host) Quit()                  { h.a.exit() }

// Post runs fn on the UI goroutine and draws what it changed.
func (h host) Post(fn func()) {
	h.a.p.Post(func() {
		fn()
		h.a.p.RequestRender()
	})
}
func (h host) Go(fn func()) { go fn() }

// ShowDialog replaces what the editor slot shows with c.
func (h host) ShowDialog(c tui.Component) {
	a := h.a
	if a.dialog != nil && a.dialog != c {
		a.dialog = nil
	}
	a.openDialog(c)
}

// CloseDialog gives the editor (or the dialog below) back.
func (h host) CloseDialog() { h.a.closeDialog(h.a.dialog) }

func (h host) Notify(level slash.Level, text string) {
	switch level {
	case slash.Error:
		h.a.showError(text)
	case slash.Warning:
		h.a.showWarning(text)
	default:
		h.a.showStatus(text)
	}
}

func (h host) AppendMarkdown(md string) {
	h.a.tr.add(newMarkdownItem(h.a.v, md))
	h.a.p.RequestRender()
}

// Copy writes text to the clipboard with OSC 52.
func (h host) Copy(text string) error {
	if h.a.term == nil {
		return nil
	}
	_, err := io.WriteString(h.a.term, "\x1b]52;c;"+base64.StdEncoding.EncodeToString([]byte(text))+"\x07")
	return err
}

func (h host) Reprint() {
	h.a.sess = h.a.c.Session()
	h.a.replay()
	h.a.refreshFooter()
}

// Reloaded applies what /reload reloaded: keybindings, commands and
// resources.
func (h host) Reloaded() {
	a := h.a
	if errs := tui.LoadKeybindings(filepath.Join(a.c.AgentDir(), "keybindings.json"), a.km); len(errs) > 0 {
		for _, e := range errs {
			a.showWarning("Warning: keybindings: " + e.Error())
		}
	}
	a.commands.SetCommands(a.commandList())
	a.head.resources = a.resourceGroups()
	a.head.c.valid = false
	a.refreshFooter()
	a.p.Reprint()
}

// CredentialsChanged recounts the providers with credentials after a
// login or logout (the footer names the provider when there are several).
func (h host) CredentialsChanged() { h.a.refreshFooter() }

// SettingChanged applies a setting /settings wrote.
func (h host) SettingChanged(key string, value any) {
	a := h.a
	switch key {
	case "theme":
		name, _ := value.(string)
		if th, err := a.loadTheme(name); err == nil {
			a.themeFromSetting = true
			a.setTheme(th)
			a.syncColorScheme()
		} else {
			a.showError("Error: theme: " + err.Error())
		}
	case "terminal.showImages", "terminal.imageWidthCells":
		a.loadImageSettings()
		a.v.changed()
		a.tr.invalidateAll()
		a.p.Reprint()
	case "hideThinkingBlock":
		b, _ := value.(bool)
		a.v.hideThinking = b
		a.v.changed()
		a.tr.invalidateAll()
		a.p.Reprint()
	case "quietStartup":
		a.replay()
	}
}

func (h host) Themes() []string { return theme.Names(h.a.themeDirs()) }

// PreviewTheme shows a theme while /settings' theme list moves over it,
// without saving it; the list's Escape previews the saved one again.
func (h host) PreviewTheme(name string) {
	if th, err := h.a.loadTheme(name); err == nil {
		h.a.setTheme(th)
	}
}

// TerminalRows is the terminal's height (24 when unknown).
func (h host) TerminalRows() int {
	if h.a.term != nil {
		if _, rows, err := h.a.term.Size(); err == nil && rows > 0 {
			return rows
		}
	}
	return 24
}

// TerminalAppearance is the terminal's light or dark appearance, from
// what it reported.
func (h host) TerminalAppearance() string {
	return theme.TerminalAppearance(h.a.termColors, h.a.scheme, os.Getenv)
}

// DrawsImages reports whether the terminal draws inline images.
func (h host) DrawsImages() bool { return h.a.v.images != tui.ImagesNone }

func (a *app) themeDirs() []string {
	return []string{filepath.Join(a.c.AgentDir(), "themes"), filepath.Join(a.c.Cwd(), ".pi", "themes")}
}

// setTheme switches every component to th.
func (a *app) setTheme(th *theme.Theme) {
	a.v.th = th
	a.o.Theme = th
	a.v.changed()
	a.tr.invalidateAll()
	a.editor.Invalidate()
	a.editorChanged()
	a.p.Reprint()
}

// runSlash runs a built-in slash command; it reports false for text that
// is not one (extension commands, templates and skills go out as a
// prompt, which expands them).
func (a *app) runSlash(name, args, text string) bool {
	handled, _ := slash.Run(context.WithoutCancel(a.ctx), host{a}, name, args)
	return handled
}

// openModelSelector is Ctrl+L.
func (a *app) openModelSelector() { a.runSlash("model", "", "/model") }

// builtinCommands are the built-in slash commands "/" completes, with
// their argument completions.
func (a *app) builtinCommands() []editor.Command {
	var out []editor.Command
	for _, c := range slash.Builtins() {
		name := c.Name
		out = append(out, editor.Command{Name: c.Name, Description: c.Description, ArgumentHint: c.ArgumentHint,
			Complete: func(arg string) []editor.Item {
				var items []editor.Item
				for _, comp := range slash.ArgumentCompletions(a.c, name, arg) {
					items = append(items, editor.Item{Value: comp.Value, Label: comp.Value, Description: comp.Description})
				}
				return items
			}})
	}
	return out
}

// The ctx.ui dialogs, from engine/interactive/dialogs.

func msDur(timeoutMs int64) time.Duration { return time.Duration(timeoutMs) * time.Millisecond }

func newSelectDialog(a *app, title string, options []string, timeoutMs int64, done func(string, bool)) tui.Component {
	return dialogs.NewSelect(host{a}.Style(), dialogs.SelectOptions{Title: title, Options: options, Timeout: msDur(timeoutMs),
		OnSelect: func(_ int, option string) { done(option, true) }, OnCancel: func() { done("", false) }})
}

func newConfirmDialog(a *app, title, message string, timeoutMs int64, done func(string, bool)) tui.Component {
	return dialogs.NewConfirm(host{a}.Style(), dialogs.ConfirmOptions{Title: title, Message: message, Timeout: msDur(timeoutMs),
		OnDone: func(yes bool) { done("", yes) }})
}

func newInputDialog(a *app, title, placeholder string, timeoutMs int64, done func(string, bool)) tui.Component {
	return dialogs.NewInput(host{a}.Style(), dialogs.InputOptions{Title: title, Placeholder: placeholder, Timeout: msDur(timeoutMs),
		OnSubmit: func(text string) { done(text, true) }, OnCancel: func() { done("", false) }})
}

func newEditorDialog(a *app, title, prefill string, done func(string, bool)) tui.Component {
	return dialogs.NewEditorDialog(host{a}.Style(), dialogs.EditorOptions{Title: title, Value: prefill,
		OnSubmit: func(text string) { done(text, true) }, OnCancel: func() { done("", false) }})
}
