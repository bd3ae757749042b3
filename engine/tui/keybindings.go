package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// KeybindingsFile is the name of the user's keybindings file in the agent
// directory.
const KeybindingsFile = "keybindings.json"

// KeybindingsPath is <agentDir>/keybindings.json.
func KeybindingsPath(agentDir string) string { return filepath.Join(agentDir, KeybindingsFile) }

// legacyActionNames are the action names of pi before namespaced ids;
// pi still reads them from keybindings.json. A file naming both spellings
// keeps the new one.
var legacyActionNames = map[string]string{
	"cursorUp": "tui.editor.cursorUp", "cursorDown": "tui.editor.cursorDown",
	"cursorLeft": "tui.editor.cursorLeft", "cursorRight": "tui.editor.cursorRight",
	"cursorWordLeft": "tui.editor.cursorWordLeft", "cursorWordRight": "tui.editor.cursorWordRight",
	"cursorLineStart": "tui.editor.cursorLineStart", "cursorLineEnd": "tui.editor.cursorLineEnd",
	"jumpForward": "tui.editor.jumpForward", "jumpBackward": "tui.editor.jumpBackward",
	"pageUp": "tui.editor.pageUp", "pageDown": "tui.editor.pageDown",
	"deleteCharBackward": "tui.editor.deleteCharBackward", "deleteCharForward": "tui.editor.deleteCharForward",
	"deleteWordBackward": "tui.editor.deleteWordBackward", "deleteWordForward": "tui.editor.deleteWordForward",
	"deleteToLineStart": "tui.editor.deleteToLineStart", "deleteToLineEnd": "tui.editor.deleteToLineEnd",
	"yank": "tui.editor.yank", "yankPop": "tui.editor.yankPop", "undo": "tui.editor.undo",
	"newLine": "tui.input.newLine", "submit": "tui.input.submit", "tab": "tui.input.tab", "copy": "tui.input.copy",
	"selectUp": "tui.select.up", "selectDown": "tui.select.down",
	"selectPageUp": "tui.select.pageUp", "selectPageDown": "tui.select.pageDown",
	"selectConfirm": "tui.select.confirm", "selectCancel": "tui.select.cancel",
	"interrupt": "app.interrupt", "clear": "app.clear", "exit": "app.exit", "suspend": "app.suspend",
	"cycleThinkingLevel": "app.thinking.cycle", "cycleModelForward": "app.model.cycleForward",
	"cycleModelBackward": "app.model.cycleBackward", "selectModel": "app.model.select",
	"expandTools": "app.tools.expand", "toggleThinking": "app.thinking.toggle",
	"toggleSessionNamedFilter": "app.session.toggleNamedFilter", "externalEditor": "app.editor.external",
	"followUp": "app.message.followUp", "dequeue": "app.message.dequeue", "pasteImage": "app.clipboard.pasteImage",
	"newSession": "app.session.new", "tree": "app.session.tree", "fork": "app.session.fork", "resume": "app.session.resume",
	"treeFoldOrUp": "app.tree.foldOrUp", "treeUnfoldOrDown": "app.tree.unfoldOrDown",
	"treeEditLabel": "app.tree.editLabel", "treeToggleLabelTimestamp": "app.tree.toggleLabelTimestamp",
	"toggleSessionPath": "app.session.togglePath", "toggleSessionSort": "app.session.toggleSort",
	"renameSession": "app.session.rename", "deleteSession": "app.session.delete",
	"deleteSessionNoninvasive": "app.session.deleteNoninvasive",
}

// LoadKeybindings applies the keybindings file at path to km: each
// action it names gets the file's keys instead of its defaults (one key
// or a list; an empty list disables the action). A missing file is no
// error. Everything wrong is reported as a warning while the rest
// applies: an unreadable or malformed file, a value that is neither a
// key nor a list of keys, a key pi's syntax does not know, an action id
// km does not have (it is still set, so an action registered later
// finds it), and one key bound to several actions by the file.
//
// Load the tui.* and app.* defaults into km first (NewKeymap with both
// tables merged), so the file can override either.
func LoadKeybindings(path string, km *Keymap) []error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []error{fmt.Errorf("keybindings: %w", err)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil || raw == nil {
		if err == nil {
			err = errors.New("not a JSON object")
		}
		return []error{fmt.Errorf("keybindings %s: %w", path, err)}
	}
	ids := make([]string, 0, len(raw))
	for id := range raw {
		ids = append(ids, id)
	}
	sort.Strings(ids)

	var warns []error
	claims := map[string][]string{}
	for _, id := range ids {
		if id == "$schema" {
			continue
		}
		action := id
		if next, ok := legacyActionNames[id]; ok {
			if _, both := raw[next]; both {
				continue
			}
			action = next
		}
		keys, ok := keyList(raw[id])
		if !ok {
			warns = append(warns, fmt.Errorf("keybindings %s: %q: want a key or a list of keys, got %s", path, id, compact(raw[id])))
			continue
		}
		if !km.Has(action) {
			warns = append(warns, fmt.Errorf("keybindings %s: unknown action %q", path, id))
		}
		for _, e := range km.Set(action, keys) {
			warns = append(warns, fmt.Errorf("keybindings %s: %w", path, e))
		}
		for _, k := range keys {
			if s, err := ParseKey(k); err == nil {
				claims[s.String()] = append(claims[s.String()], action)
			}
		}
	}
	keys := make([]string, 0, len(claims))
	for k, actions := range claims {
		if len(actions) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		warns = append(warns, fmt.Errorf("keybindings %s: %s is bound to several actions: %s", path, k, strings.Join(claims[k], ", ")))
	}
	return warns
}

// keyList reads a keybindings.json value: a string or a list of strings,
// without duplicates.
func keyList(v json.RawMessage) ([]string, bool) {
	if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		return nil, false
	}
	var one string
	if err := json.Unmarshal(v, &one); err == nil {
		return []string{one}, true
	}
	var many []string
	if err := json.Unmarshal(v, &many); err != nil {
		return nil, false
	}
	out := make([]string, 0, len(many))
	seen := map[string]bool{}
	for _, k := range many {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out, true
}

func compact(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	s := b.String()
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
