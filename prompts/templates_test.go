package prompts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/pi-go/pi/engine"
)

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}

// TestExpandTemplateMatchesReference replays every input that
// testdata/templates/capture.py sent to the reference and compares the user
// text the reference produced.
func TestExpandTemplateMatchesReference(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/templates/reference.json")
	require.NoError(t, err)
	var ref struct {
		Cases []struct {
			Template, Content, Input, Expanded string
		}
		Commands []struct {
			Name        string
			Description string
		}
	}
	require.NoError(t, json.Unmarshal(raw, &ref))
	// The templates the reference had loaded, from the same files.
	dir := t.TempDir()
	for _, c := range ref.Cases {
		if c.Template != "" {
			writeFile(t, filepath.Join(dir, "prompts", c.Template+".md"), c.Content)
		}
	}
	writeFile(t, filepath.Join(dir, "prompts", "short.md"), "Short first line\n")
	templates, diags := LoadTemplates(TemplateOptions{AgentDir: dir, Cwd: dir, Home: dir})
	require.Empty(t, diags)
	for i, c := range ref.Cases {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			got, ok := ExpandTemplate(c.Input, templates)
			assert.Equal(t, c.Expanded, got, "input %q", c.Input)
			assert.Equal(t, c.Template != "", ok)
		})
	}
	// Descriptions (frontmatter, or the first non-empty line cut at 60).
	want := map[string]string{}
	for _, c := range ref.Commands {
		want[c.Name] = c.Description
	}
	for _, tm := range templates {
		assert.Equal(t, want[tm.Name], tm.Description, tm.Name)
	}
}

func TestSubstituteArgs(t *testing.T) {
	t.Parallel()
	args := []string{"a", "b c", "d"}
	cases := []struct {
		name, content, want string
		args                []string
	}{
		{"positional", "$1|$2|$3", "a|b c|d", args},
		{"missing positional is empty", "[$4][$9]", "[][]", args},
		{"multi-digit index", "$10", "j", []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}},
		{"$0 is empty", "[$0]", "[]", args},
		{"all with $@", "$@", "a b c d", args},
		{"all with $ARGUMENTS", "$ARGUMENTS", "a b c d", args},
		{"$ARGUMENTS prefix wins", "$ARGUMENTSX", "a b c dX", args},
		{"lower-case not a placeholder", "$arguments", "$arguments", args},
		{"slice from", "${@:2}", "b c d", args},
		{"slice from 0 is from 1", "${@:0}", "a b c d", args},
		{"slice with length", "${@:1:2}", "a b c", args},
		{"slice zero length", "${@:1:0}", "", args},
		{"slice past end", "${@:9}", "", args},
		{"slice length past end", "${@:2:9}", "b c d", args},
		{"slice bad length is literal", "${@:2:x}", "${@:2:x}", args},
		{"default used when missing", "${5:-none}", "none", args},
		{"default not used when present", "${1:-none}", "a", args},
		{"default when empty", "${1:-e}", "e", []string{""}},
		{"empty default", "[${4:-}]", "[]", args},
		{"all default", "${@:-x}|${ARGUMENTS:-y}", "x|y", nil},
		{"default ends at first brace", "${9:-a}b}", "ab}", args},
		{"lone dollar", "$ $x ${x} ${@} ${1}", "$ $x ${x} ${@} ${1}", args},
		{"double dollar", "$$1", "$a", args},
		{"backslash does not escape", `\$1`, `\a`, args},
		{"no recursion", "$1 $2", "$2 ${1:-z}", []string{"$2", "${1:-z}"}},
		{"huge index", "[$99999999999999999999]", "[]", args},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, SubstituteArgs(tc.content, tc.args))
		})
	}
}

func TestParseCommandArgs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a b", []string{"a", "b"}},
		{"  a \t b\n", []string{"a", "b"}},
		{`"a b" 'c d'`, []string{"a b", "c d"}},
		{`don't stop`, []string{"don't", "stop"}},
		{`"unclosed a b`, []string{`"unclosed`, "a", "b"}},
		{`a "`, []string{"a", `"`}},
		{`"" '' x`, []string{"", "", "x"}},
		{`"say \"hi\""`, []string{`say "hi"`}},
		{`'it\'s'`, []string{"it's"}},
		{`"a\b" c\d`, []string{`a\b`, `c\d`}},
		{`a"b c"d`, []string{`a"b`, `c"d`}},
		{`"x"y z`, []string{"xy", "z"}},
		{"a\u00a0b", []string{"a", "b"}},
		{"\"multi\nline\"", []string{"multi\nline"}},
		{"ünï \"cödé x\"", []string{"ünï", "cödé x"}},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, ParseCommandArgs(tc.in))
		})
	}
}

func TestLoadTemplatesLocations(t *testing.T) {
	t.Parallel()
	type want struct {
		names []string
		diags []Diagnostic
	}
	setup := func(t *testing.T) (agent, cwd, home string) {
		root := t.TempDir()
		root, _ = filepath.EvalSymlinks(root)
		home = filepath.Join(root, "home")
		agent = filepath.Join(home, ".pi", "agent")
		cwd = filepath.Join(root, "proj")
		writeFile(t, filepath.Join(agent, "prompts", "user.md"), "User $1")
		writeFile(t, filepath.Join(agent, "prompts", "same.md"), "user same")
		writeFile(t, filepath.Join(agent, "prompts", "nested", "deep.md"), "not loaded from a conventional dir")
		writeFile(t, filepath.Join(agent, "prompts", ".hidden.md"), "hidden")
		writeFile(t, filepath.Join(agent, "prompts", "notes.txt"), "not md")
		writeFile(t, filepath.Join(cwd, ".pi", "prompts", "proj.md"), "Project")
		writeFile(t, filepath.Join(cwd, ".pi", "prompts", "same.md"), "project same")
		writeFile(t, filepath.Join(cwd, ".pi", "agent", "prompts", "alias.md"), "Alias")
		writeFile(t, filepath.Join(root, "extra", "cli.md"), "CLI")
		writeFile(t, filepath.Join(root, "extra", "same.md"), "cli same")
		writeFile(t, filepath.Join(agent, "more", "a", "nested.md"), "from settings, nested")
		return agent, cwd, home
	}
	cases := []struct {
		name    string
		trusted bool
		noTmpl  bool
		want    func(agent, cwd string) want
	}{
		{"trusted", true, false, func(agent, cwd string) want {
			return want{names: []string{"proj", "same", "alias", "nested", "user", "cli"}, diags: []Diagnostic{
				{Type: "error", Message: "Prompt template path does not exist", Path: filepath.Join(cwd, "missing.md")},
				{Type: "collision", Message: `name "/same" collision`, Path: filepath.Join(agent, "prompts", "same.md"),
					Collision: &Collision{ResourceType: "prompt", Name: "same", WinnerPath: filepath.Join(cwd, ".pi", "prompts", "same.md"), LoserPath: filepath.Join(agent, "prompts", "same.md")}},
				{Type: "collision", Message: `name "/same" collision`, Path: filepath.Join(filepath.Dir(cwd), "extra", "same.md"),
					Collision: &Collision{ResourceType: "prompt", Name: "same", WinnerPath: filepath.Join(cwd, ".pi", "prompts", "same.md"), LoserPath: filepath.Join(filepath.Dir(cwd), "extra", "same.md")}},
			}}
		}},
		{"untrusted", false, false, func(agent, cwd string) want {
			return want{names: []string{"nested", "same", "user", "cli"}}
		}},
		{"no templates", true, true, func(agent, cwd string) want {
			return want{names: []string{"cli", "same"}}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agent, cwd, home := setup(t)
			got, diags := LoadTemplates(TemplateOptions{
				AgentDir: agent, Cwd: cwd, Home: home, ProjectTrusted: tc.trusted, NoTemplates: tc.noTmpl,
				SettingsGlobal: []string{"more"},
				CLIPaths:       []string{"../extra/cli.md", "../extra/same.md", "missing.md"},
			})
			var names []string
			for _, g := range got {
				names = append(names, g.Name)
			}
			w := tc.want(agent, cwd)
			assert.Equal(t, w.names, names)
			if w.diags != nil {
				assert.Equal(t, w.diags, diags)
			}
		})
	}
}

func TestTemplateCommandsShape(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	agent := filepath.Join(root, "agent")
	writeFile(t, filepath.Join(agent, "prompts", "empty.md"), "")
	writeFile(t, filepath.Join(root, "x", "cli.md"), "---\ndescription: d\nargument-hint: \"<a>\"\n---\nbody")
	writeFile(t, filepath.Join(agent, "set", "s.md"), "S")
	got, _ := LoadTemplates(TemplateOptions{AgentDir: agent, Cwd: root, Home: root, SettingsGlobal: []string{"set"}, CLIPaths: []string{"x/cli.md"}})
	var lines []string
	for _, c := range TemplateCommands(got) {
		b, err := engine.MarshalJSON(c)
		require.NoError(t, err)
		lines = append(lines, string(b))
	}
	r := root
	assert.Equal(t, []string{
		`{"name":"s","description":"S","source":"prompt","sourceInfo":{"path":"` + r + `/agent/set/s.md","source":"local","scope":"user","origin":"top-level"}}`,
		`{"name":"empty","description":"","source":"prompt","sourceInfo":{"path":"` + r + `/agent/prompts/empty.md","source":"auto","scope":"user","origin":"top-level","baseDir":"` + r + `/agent"}}`,
		`{"name":"cli","description":"d","source":"prompt","sourceInfo":{"path":"` + r + `/x/cli.md","source":"local","scope":"temporary","origin":"top-level","baseDir":"` + r + `/x"}}`,
	}, lines)
	assert.Equal(t, "<a>", got[2].ArgumentHint)
}

func TestParseFrontmatter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, body string
		fm             map[string]any
		err            bool
	}{
		{"none", "\n body \n", "\n body \n", map[string]any{}, false},
		{"simple", "---\ndescription: hi there\n---\n\n body \n", "body", map[string]any{"description": "hi there"}, false},
		{"crlf and bom", "\uFEFF---\r\nname: x\r\n---\r\nb\r\n", "b", map[string]any{"name": "x"}, false},
		{"quoted", "---\ndescription: \"x: y\"\n---\nb", "b", map[string]any{"description": "x: y"}, false},
		{"bool", "---\ndisable-model-invocation: true\n---\nb", "b", map[string]any{"disable-model-invocation": true}, false},
		{"unterminated", "---\nname: x\nbody", "---\nname: x\nbody", map[string]any{}, false},
		{"empty block", "---\n---\nb", "b", map[string]any{}, false},
		{"scalar yaml", "---\njust text\n---\nb", "b", map[string]any{}, false},
		{"bad yaml", "---\na: [\n---\nb", "b", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fm, body, err := ParseFrontmatter(tc.in)
			if tc.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.fm, fm)
			assert.Equal(t, tc.body, body)
		})
	}
}

// TestSimpleYAMLAgreesWithParser checks the fast path against the YAML
// parser on every input the fast path accepts.
func TestSimpleYAMLAgreesWithParser(t *testing.T) {
	t.Parallel()
	inputs := []string{
		"description: plain text here", `argument-hint: "<x>"`, `argument-hint: '<x> [y]'`,
		`description: "a 'b' c"`, `description: 'say "hi"'`, `description: ""`, `description: ''`,
		`description: "tab	inside"`, `description: "a\nb"`, `description: 'it''s'`, `description: "x" # c`,
		"name: a\ndescription: \"b: c\"", `description: "ünï ✓"`,
	}
	for _, in := range inputs {
		fast, ok := parseSimpleYAML(in)
		if !ok {
			continue
		}
		var slow map[string]any
		require.NoError(t, yaml.Unmarshal([]byte(in), &slow), in)
		assert.Equal(t, slow, fast, in)
	}
}
