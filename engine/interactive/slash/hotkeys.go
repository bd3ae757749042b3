package slash

import (
	"context"
	"strings"

	"github.com/pi-go/pi/engine/interactive/dialogs"
)

type hotkey struct{ action, what string }

// hotkeyGroups are the /hotkeys tables: the actions and what they do, in
// the reference's three groups. Keys come from the active keymap.
var hotkeyGroups = []struct {
	title string
	keys  []hotkey
}{
	{"Navigation", []hotkey{
		{"tui.editor.cursorUp", "Move up (previous prompt at the top)"},
		{"tui.editor.cursorDown", "Move down (next prompt at the bottom)"},
		{"tui.editor.cursorLeft", "Move left"},
		{"tui.editor.cursorRight", "Move right"},
		{"tui.editor.cursorWordLeft", "Move one word left"},
		{"tui.editor.cursorWordRight", "Move one word right"},
		{"tui.editor.cursorLineStart", "Start of line"},
		{"tui.editor.cursorLineEnd", "End of line"},
		{"tui.editor.jumpForward", "Jump forward to a character"},
		{"tui.editor.jumpBackward", "Jump back to a character"},
		{"tui.editor.pageUp", "Scroll the editor up"},
		{"tui.editor.pageDown", "Scroll the editor down"},
	}},
	{"Editing", []hotkey{
		{"tui.input.submit", "Send the message"},
		{"tui.input.newLine", "New line"},
		{"tui.editor.deleteWordBackward", "Delete the word before the cursor"},
		{"tui.editor.deleteWordForward", "Delete the word after the cursor"},
		{"tui.editor.deleteToLineStart", "Delete to the start of the line"},
		{"tui.editor.deleteToLineEnd", "Delete to the end of the line"},
		{"tui.editor.yank", "Paste the last deleted text"},
		{"tui.editor.yankPop", "Cycle through deleted text after a paste"},
		{"tui.editor.undo", "Undo"},
		{"tui.input.tab", "Complete a path or command"},
	}},
	{"Other", []hotkey{
		{"app.interrupt", "Stop the agent"},
		{"app.clear", "Clear the editor (twice quickly: quit)"},
		{"app.exit", "Quit (on an empty editor)"},
		{"app.suspend", "Suspend pi"},
		{"app.thinking.cycle", "Next thinking level"},
		{"app.model.cycleForward", "Next model"},
		{"app.model.cycleBackward", "Previous model"},
		{"app.model.select", "Pick a model"},
		{"app.tools.expand", "Expand or collapse tool output"},
		{"app.thinking.toggle", "Show or hide thinking"},
		{"app.editor.external", "Edit in the external editor"},
		{"app.message.followUp", "Queue a follow-up message"},
		{"app.message.dequeue", "Edit the queued messages"},
		{"app.message.copy", "Copy the last agent reply"},
		{"app.clipboard.pasteImage", "Paste an image from the clipboard"},
	}},
}

// HotkeysMarkdown renders the active keymap as Markdown tables.
func HotkeysMarkdown(st dialogs.Style) string {
	var b strings.Builder
	for i, g := range hotkeyGroups {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("**" + g.title + "**\n\n| Key | Action |\n|---|---|\n")
		for _, k := range g.keys {
			keys := st.KeyDisplay(k.action)
			if keys == "" {
				continue
			}
			b.WriteString("| `" + keys + "` | " + k.what + " |\n")
		}
		if g.title == "Other" {
			b.WriteString("| `/` | Commands |\n| `!` | Run a shell command (output goes to the model) |\n" +
				"| `!!` | Run a shell command (output stays out of the context) |\n| `@` | Reference a file |\n")
		}
	}
	return b.String()
}

func runHotkeys(_ context.Context, h Host, _ string) error {
	h.AppendMarkdown(HotkeysMarkdown(h.Style()))
	return nil
}
