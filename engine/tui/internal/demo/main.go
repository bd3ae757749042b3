// Command demo runs the tui Program on the real terminal: a Column body
// of messages, a Loader and an Input in the dock. Enter appends the
// input as a message, Ctrl+O opens an overlay, PageUp/PageDown and the
// wheel scroll (fullscreen), Ctrl+End jumps to the bottom, Ctrl+Z
// suspends, Ctrl+C quits. Flags: -regular for the main-screen renderer.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/pi-go/pi/engine/tui"
)

func main() {
	regular := flag.Bool("regular", false, "use the regular (main screen) renderer")
	n := flag.Int("n", 200, "messages in the body at start")
	flag.Parse()
	if err := run(!*regular, *n); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run(fullscreen bool, n int) error {
	term, err := tui.NewProcessTerminal(os.Stdin, os.Stdout)
	if err != nil {
		return err
	}
	km, _ := tui.NewKeymap(map[string][]string{
		"tui.input.submit": {"enter"}, "tui.editor.cursorLeft": {"left"}, "tui.editor.cursorRight": {"right"},
		"tui.editor.deleteCharBackward": {"backspace"}, "tui.editor.cursorLineStart": {"home", "ctrl+a"},
		"tui.editor.cursorLineEnd": {"end", "ctrl+e"}, "tui.editor.deleteWordBackward": {"ctrl+w"},
		"tui.select.up": {"up"}, "tui.select.down": {"down"}, "tui.select.confirm": {"enter"}, "tui.select.cancel": {"escape"},
	})
	p := tui.NewProgram(term, term.Input(), tui.ProgramOptions{Fullscreen: fullscreen, Keymap: km,
		Scrollbar: true, CopyOnSelect: true, PrintBodyOnExit: true})
	body := tui.NewColumn()
	for i := range n {
		body.Add(tui.NewText(fmt.Sprintf("Message %d: the quick brown fox jumps over the lazy dog. 日本語 🚀", i), 1, 1, nil))
	}
	loader := tui.NewLoader(p, "Working...", nil, nil)
	loader.Start()
	in := tui.NewInput(km)
	in.OnSubmit = func(s string) {
		body.Add(tui.NewText(s, 1, 1, func(s string) string { return "\x1b[48;5;236m" + s + "\x1b[49m" }))
		in.SetValue("")
		body.Changed(body.Len() - 1)
		p.ScrollToBottom()
	}
	dock := &tui.Container{}
	dock.Add(loader, tui.Lines{"────────────────────────"}, in, tui.Lines{"ctrl+c quit · ctrl+o overlay · ctrl+z suspend"})
	p.SetBody(body)
	p.SetDock(dock)
	p.SetFocus(in)
	return p.Run(context.Background(), func(ev tui.Event) {
		k, ok := ev.(tui.Key)
		if !ok {
			return
		}
		switch {
		case k.Is("ctrl+c"):
			p.Quit()
		case k.Is("pageUp"):
			p.PageUp()
		case k.Is("pageDown"):
			p.PageDown()
		case k.Is("ctrl+end"):
			p.ScrollToBottom()
		case k.Is("ctrl+z"):
			_ = p.Suspend()
		case k.Is("ctrl+o"):
			var hide func()
			l := tui.NewSelectList([]tui.SelectItem{{Value: "one", Description: "first"}, {Value: "two", Description: "second"}}, 5, km, tui.SelectListStyle{})
			l.OnSelect = func(it tui.SelectItem) { hide(); body.Add(tui.NewText("picked "+it.Value, 1, 0, nil)) }
			l.OnCancel = func() { hide() }
			hide = p.ShowOverlay(l, tui.OverlayOptions{WidthPercent: 50})
		}
	})
}
