package tui

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestDefaultKeys pins every tui.* action of keybindings.md and its
// defaults, per platform.
func TestDefaultKeys(t *testing.T) {
	t.Parallel()
	linux := DefaultKeysFor("linux", func(string) string { return "" })
	if len(linux) != 47 {
		t.Errorf("%d tui actions, want 47", len(linux))
	}
	for id, keys := range linux {
		if !strings.HasPrefix(id, "tui.") {
			t.Errorf("%s is not a tui action", id)
		}
		for _, k := range keys {
			if _, err := ParseKey(k); err != nil {
				t.Errorf("%s: %v", id, err)
			}
		}
	}
	wsl := DefaultKeysFor("linux", func(k string) string {
		if k == "WSL_DISTRO_NAME" {
			return "Ubuntu"
		}
		return ""
	})
	win := DefaultKeysFor("windows", func(string) string { return "" })
	mac := DefaultKeysFor("darwin", func(string) string { return "" })
	cases := []struct {
		m    map[string][]string
		id   string
		want []string
	}{
		{linux, "tui.editor.undo", []string{"ctrl+-"}},
		{mac, "tui.editor.undo", []string{"ctrl+-"}},
		{wsl, "tui.editor.undo", []string{"alt+z"}},
		{win, "tui.editor.undo", []string{"ctrl+z"}},
		{linux, "tui.altScreen.search", []string{"ctrl+shift+f"}},
		{wsl, "tui.altScreen.search", []string{"ctrl+f"}},
		{linux, "tui.altScreen.previousPrompt", []string{"ctrl+shift+up", "ctrl+up"}},
		{win, "tui.altScreen.nextPrompt", []string{"ctrl+down"}},
		{linux, "tui.editor.cursorWordLeft", []string{"alt+left", "ctrl+left", "alt+b"}},
		{linux, "tui.editor.jumpBackward", []string{"ctrl+alt+]"}},
		{linux, "tui.input.newLine", []string{"shift+enter", "ctrl+j"}},
		{linux, "tui.select.cancel", []string{"escape", "ctrl+c"}},
		{linux, "tui.editor.historyPrevious", []string{}},
		{linux, "tui.altScreen.lineDown", []string{}},
	}
	for _, c := range cases {
		if got := c.m[c.id]; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s = %q, want %q", c.id, got, c.want)
		}
	}
}

func TestLoadKeybindings(t *testing.T) {
	t.Parallel()
	defaults := DefaultKeysFor("linux", func(string) string { return "" })
	defaults["app.session.new"] = nil
	defaults["app.interrupt"] = []string{"escape"}
	cases := []struct {
		name  string
		file  string // "" means no file
		check map[string][]string
		warns []string // substrings, in order
	}{
		{name: "missing file", check: map[string][]string{"tui.editor.undo": {"ctrl+-"}}},
		{
			name:  "string, list, disable, $schema",
			file:  "\ufeff" + `{"$schema":"https://pi.dev/schemas/keybindings.schema.json","tui.editor.undo":"ctrl+z","app.session.new":["ctrl+shift+n","alt+n","alt+n"],"tui.altScreen.pageUp":[]}`,
			check: map[string][]string{"tui.editor.undo": {"ctrl+z"}, "app.session.new": {"ctrl+shift+n", "alt+n"}, "tui.altScreen.pageUp": {}, "tui.select.up": {"up"}},
		},
		{
			name:  "legacy names, new spelling wins",
			file:  `{"cursorUp":"ctrl+p","interrupt":"ctrl+g","app.interrupt":"ctrl+q"}`,
			check: map[string][]string{"tui.editor.cursorUp": {"ctrl+p"}, "app.interrupt": {"ctrl+q"}},
		},
		{
			name:  "bad values and keys are warnings, the rest applies",
			file:  `{"tui.editor.yank":"hyper+y","tui.editor.undo":42,"app.bogus":"ctrl+b","tui.editor.yankPop":["alt+y","f13"],"tui.input.tab":null}`,
			check: map[string][]string{"tui.editor.yank": {}, "tui.editor.undo": {"ctrl+-"}, "app.bogus": {"ctrl+b"}, "tui.editor.yankPop": {"alt+y"}, "tui.input.tab": {"tab"}},
			warns: []string{`unknown action "app.bogus"`, `"tui.editor.undo": want a key or a list of keys, got 42`, `tui.editor.yank: key "hyper+y": unknown modifier`, `tui.editor.yankPop: key "f13"`, `"tui.input.tab": want a key`},
		},
		{
			name:  "one key for several actions",
			file:  `{"app.session.new":"ctrl+n","tui.editor.yank":"ctrl+n"}`,
			check: map[string][]string{"app.session.new": {"ctrl+n"}},
			warns: []string{"ctrl+n is bound to several actions: app.session.new, tui.editor.yank"},
		},
		{name: "not JSON", file: `{"a":`, warns: []string{"unexpected end of JSON input"}},
		{name: "not an object", file: `["ctrl+a"]`, warns: []string{"cannot unmarshal array"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), KeybindingsFile)
			if c.file != "" {
				if err := os.WriteFile(path, []byte(c.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			km, errs := NewKeymap(defaults)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			warns := LoadKeybindings(path, km)
			var got []string
			for _, w := range warns {
				got = append(got, w.Error())
			}
			if len(got) != len(c.warns) {
				t.Fatalf("warnings %q, want %d like %q", got, len(c.warns), c.warns)
			}
			sort.Strings(got)
			for _, w := range c.warns {
				found := false
				for _, g := range got {
					if strings.Contains(g, w) {
						found = true
					}
				}
				if !found {
					t.Errorf("no warning like %q in %q", w, got)
				}
			}
			for id, want := range c.check {
				var keys []string
				for _, k := range km.Keys(id) {
					keys = append(keys, k.String())
				}
				if keys == nil {
					keys = []string{}
				}
				if !reflect.DeepEqual(keys, want) {
					t.Errorf("%s = %q, want %q", id, keys, want)
				}
			}
		})
	}
}
