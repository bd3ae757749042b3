package editor

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func mkTree(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if strings.HasSuffix(f, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := ""
		switch f {
		case ".gitignore":
			body = "build/\n*.log\n!keep.log\n/rootonly.txt\n"
		case "src/.gitignore":
			body = "*.tmp\n"
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var testTree = []string{
	".gitignore", "greeting.txt", "green.md", "my file.txt", "rootonly.txt",
	"src/main.go", "src/util/strings.go", "src/rootonly.txt", "src/.gitignore", "src/scratch.tmp",
	"build/out.bin", "debug.log", "keep.log", "node_modules/x/index.js", ".git/config",
	"docs/guide/intro.md", "empty/",
}

func labels(e *Editor) []string {
	if e.ac == nil {
		return nil
	}
	var out []string
	for _, it := range e.ac.items {
		out = append(out, it.label())
	}
	return out
}

func TestAutocomplete(t *testing.T) {
	t.Parallel()
	dir := mkTree(t, testTree...)
	cases := []struct {
		name, before string
		keys         []string
		after        string
		list         []string // labels of the open list, nil when closed
	}{
		{name: "slash opens the list", before: "|", keys: []string{"'/'"}, after: "/|",
			list: []string{"settings", "model", "tree", "thinking", "scoped-models", "export", "import", "skill:commit"}},
		{name: "fuzzy command filter", before: "|", keys: []string{"'/mo'"}, after: "/mo|",
			list: []string{"model", "scoped-models", "import"}},
		{name: "skill by bare name", before: "|", keys: []string{"'/comm'"}, after: "/comm|", list: []string{"skill:commit"}},
		{name: "tab accepts a command", before: "|", keys: []string{"'/mo'", "tab"}, after: "/model |"},
		{name: "argument completions", before: "|", keys: []string{"'/model mo'"}, after: "/model mo|",
			list: []string{"mock/model-a", "mock/model-b"}},
		{name: "argument accepted", before: "|", keys: []string{"'/model mo'", "down", "tab"}, after: "/model mock/model-b|"},
		{name: "escape closes", before: "|", keys: []string{"'/mo'", "escape"}, after: "/mo|"},
		{name: "no match closes", before: "|", keys: []string{"'/zzz'"}, after: "/zzz|"},
		{name: "up wraps around", before: "|", keys: []string{"'/'", "up", "tab"}, after: "/skill:commit |"},
		{name: "slash only on the first line", before: "x\n|", keys: []string{"'/'"}, after: "x\n/|"},
		{name: "at file search", before: "|", keys: []string{"'see @gree'"}, after: "see @gree|",
			list: []string{"green.md", "greeting.txt"}},
		{name: "at file accepted with a space", before: "|", keys: []string{"'@greet'", "tab"}, after: "@greeting.txt |"},
		{name: "at dir accepted without a space", before: "|", keys: []string{"'@gui'", "tab"}, after: "@docs/guide/|"},
		{name: "at scoped to a directory", before: "|", keys: []string{"'@src/str'"}, after: "@src/str|", list: []string{"strings.go"}},
		{name: "at skips ignored, .git and node_modules", before: "|", keys: []string{"'@o'"}, after: "@o|",
			list: []string{"docs/", "keep.log", ".gitignore", "main.go", ".gitignore", "rootonly.txt", "intro.md", "strings.go", "guide/"}},
		{name: "at quotes paths with spaces", before: "|", keys: []string{"'@my'", "tab"}, after: `@"my file.txt" |`},
		{name: "at fuzzy fallback", before: "|", keys: []string{"'@grtxt'"}, after: "@grtxt|", list: []string{"greeting.txt"}},
		{name: "tab completes a path", before: "|", keys: []string{"'cat ./gr'", "tab"}, after: "cat ./gr|",
			list: []string{"green.md", "greeting.txt"}},
		{name: "tab single path applies", before: "|", keys: []string{"'cat ./greet'", "tab"}, after: "cat ./greeting.txt|"},
		{name: "tab dir gets a slash", before: "|", keys: []string{"'ls sr'", "tab"}, after: "ls src/|"},
		{name: "tab inside a dir", before: "|", keys: []string{"'ls src/'", "tab"}, after: "ls src/|",
			list: []string{"util/", ".gitignore", "main.go", "rootonly.txt", "scratch.tmp"}},
		{name: "tab in a command name lists commands", before: "|", keys: []string{"'/sett'", "escape", "tab"}, after: "/sett|", list: []string{"settings"}},
		{name: "enter on a command submits", before: "|", keys: []string{"'/tre'", "enter"}, after: "|"},
		{name: "enter on a file accepts only", before: "|", keys: []string{"'@greet'", "enter"}, after: "@greeting.txt |"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newTestEditor(t)
			fp := NewFileProvider(dir)
			e.SetProviders(NewCommandProvider(testCommands()), fp)
			var submitted []string
			e.OnSubmit = func(s string) { submitted = append(submitted, s) }
			setState(e, c.before)
			press(t, e, c.keys...)
			if got := state(e); got != c.after {
				t.Errorf("text %q, want %q", got, c.after)
			}
			if got := labels(e); !reflect.DeepEqual(got, c.list) {
				t.Errorf("list %q, want %q", got, c.list)
			}
			if c.name == "enter on a command submits" && (len(submitted) != 1 || submitted[0] != "/tree") {
				t.Errorf("submitted %q, want /tree", submitted)
			}
		})
	}
}

func TestGitignore(t *testing.T) {
	t.Parallel()
	dir := mkTree(t, testTree...)
	var got []string
	for _, e := range walk(dir, 1000) {
		got = append(got, e.path)
	}
	for _, want := range []string{"greeting.txt", "keep.log", "src/rootonly.txt", "src/util/strings.go", "empty", ".gitignore"} {
		if !contains(got, want) {
			t.Errorf("walk lacks %s: %q", want, got)
		}
	}
	for _, bad := range []string{"src/scratch.tmp", "build", "build/out.bin", "debug.log", "rootonly.txt", "node_modules", ".git", ".git/config"} {
		if contains(got, bad) {
			t.Errorf("walk has ignored %s", bad)
		}
	}
	if n := len(walk(dir, 3)); n != 3 {
		t.Errorf("walk limit 3 gave %d", n)
	}
}

func TestFuzzyMatch(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q, text string
		ok      bool
	}{
		{"mo", "model", true},
		{"mo", "scoped-models", true},
		{"mdl", "model", true},
		{"xyz", "model", false},
		{"gpt4", "4gpt", true},
		{"", "anything", true},
	}
	for _, c := range cases {
		if ok, _ := fuzzyMatch(c.q, c.text); ok != c.ok {
			t.Errorf("fuzzyMatch(%q, %q) = %v", c.q, c.text, ok)
		}
	}
	got := fuzzyFilter([]string{"scoped-models", "import", "model", "settings"}, "mo", func(s string) string { return s })
	if !reflect.DeepEqual(got, []string{"model", "scoped-models", "import"}) {
		t.Errorf("filter = %q", got)
	}
}
