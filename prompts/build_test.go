package prompts

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// renderSections prints sections one after another under a "## name"
// header, which reads better in review than JSON.
func renderSections(s engine.Sections) string {
	var b strings.Builder
	for _, sec := range s {
		b.WriteString("## " + sec.Name + "\n")
		if sec.Value == nil {
			b.WriteString("<null>\n")
		} else {
			b.WriteString(*sec.Value + "\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func sectionNames(s engine.Sections) []string {
	out := make([]string, 0, len(s))
	for _, sec := range s {
		out = append(out, sec.Name)
	}
	return out
}

func TestBuildGolden(t *testing.T) {
	t.Parallel()
	ctx := []ContextFile{
		{Path: "/home/u/.pi/agent/AGENTS.md", Content: "Global rule.\n"},
		{Path: "/work/AGENTS.md", Content: "Repository rule."},
		{Path: "/work/proj/CLAUDE.md", Content: "Project rule.\n"},
	}
	skills := []SkillRef{
		{Name: "demo", Description: `Use for <demos> & "tests"`, Location: "/work/proj/.pi/skills/demo/SKILL.md"},
		{Name: "hidden", Description: "Never listed", Location: "/x/SKILL.md", DisableModelInvocation: true},
	}
	cases := []struct {
		name  string
		o     Options
		names []string
	}{
		{
			name:  "default_tools",
			o:     Options{Cwd: "/work/proj", DocsRoot: "/opt/pi", Tools: tools(defaultTools...)},
			names: []string{"preamble", "tools", "rules", "docs", "cwd"},
		},
		{
			name:  "all_tools",
			o:     Options{Cwd: "/work/proj", DocsRoot: "/opt/pi", Tools: tools(allTools...)},
			names: []string{"preamble", "tools", "rules", "docs", "cwd"},
		},
		{
			name:  "custom_prompt",
			o:     Options{Cwd: "/work/proj", DocsRoot: "/opt/pi", Tools: tools(defaultTools...), CustomPrompt: "You are a reviewer.\n", Append: []string{"Extra."}, ContextFiles: ctx[:1], Skills: skills},
			names: []string{"preamble", "addendum", "project_context", "skills", "cwd"},
		},
		{
			name:  "append_prompt",
			o:     Options{Cwd: "/work/proj", DocsRoot: "/opt/pi", Tools: tools(defaultTools...), Append: []string{"First addition.", "Second addition.\n"}},
			names: []string{"preamble", "tools", "rules", "docs", "addendum", "cwd"},
		},
		{
			name:  "context_files",
			o:     Options{Cwd: "/work/proj", DocsRoot: "/opt/pi", Tools: tools(defaultTools...), ContextFiles: ctx},
			names: []string{"preamble", "tools", "rules", "docs", "project_context", "cwd"},
		},
		{
			name:  "skills",
			o:     Options{Cwd: "/work/proj", DocsRoot: "/opt/pi", Tools: tools(defaultTools...), Skills: skills},
			names: []string{"preamble", "tools", "rules", "docs", "skills", "cwd"},
		},
		{
			name:  "skills_bash_only",
			o:     Options{Cwd: "/work/proj", DocsRoot: "/opt/pi", Tools: tools("bash"), Skills: skills},
			names: []string{"preamble", "tools", "rules", "docs", "skills", "cwd"},
		},
		{
			name:  "no_tools",
			o:     Options{Cwd: `C:\work\proj`, DocsRoot: "/opt/pi", Skills: skills},
			names: []string{"preamble", "tools", "rules", "docs", "cwd"},
		},
		{
			name: "extensions",
			o: Options{Cwd: "/work/proj", Tools: append(tools("read", "bash"), engine.ToolInfo{Name: "todo", PromptSnippet: "Keep a\n  todo   list", PromptGuidelines: []string{"  Use todo for plans  ", "Look at files with read rather than cat or sed."}}),
				Guidelines: []string{"Answer in English"},
				Extra: []engine.Section{
					{Name: "memory", Value: str("Remember the user's name.")},
					{Name: "cwd", Value: str("/elsewhere")},
					{Name: "empty", Value: str("")},
					{Name: "Bad Name", Value: str("skipped")},
					{Name: "preamble", Value: str("skipped")},
				}},
			names: []string{"preamble", "tools", "rules", "cwd", "memory"},
		},
		{
			name:  "no_context_files_flag",
			o:     Options{Cwd: "/work/proj", DocsRoot: "/opt/pi", Tools: tools(defaultTools...), ContextFiles: ctx, NoContextFiles: true},
			names: []string{"preamble", "tools", "rules", "docs", "cwd"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Build(tc.o)
			require.Equal(t, tc.names, sectionNames(got))

			// Join is what the provider receives: the values, blank-line separated.
			parts := make([]string, 0, len(got))
			for _, sec := range got {
				parts = append(parts, *sec.Value)
			}
			require.Equal(t, strings.Join(parts, "\n\n"), Join(got))

			path := filepath.Join("testdata", "golden", tc.name+".txt")
			text := renderSections(got)
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run with -update to create the golden file")
			require.Equal(t, string(want), text)
		})
	}
}

func TestBuildFacts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		o       Options
		section string
		want    string
	}{
		{"cwd backslashes", Options{Cwd: `C:\a\b`}, "cwd", "<cwd>\nC:/a/b\n</cwd>"},
		{"addendum joined", Options{Append: []string{"a", "", "b"}}, "addendum", "<addendum>\na\n\n\n\nb\n</addendum>"},
		{"custom prompt verbatim", Options{CustomPrompt: "Mine.\n"}, "preamble", "Mine.\n"},
		{"tool without snippet unlisted", Options{Tools: []engine.ToolInfo{{Name: "quiet"}}}, "tools", "<tools>\n" + noToolsText + "\n\n" + moreToolsText + "\n</tools>"},
		{"shell rule only without search tools", Options{Tools: tools("bash", "grep")}, "rules", "<rules>\n- PI_* environment variables describe the current model and session.\n- " + conciseRule + "\n- " + pathsRule + "\n</rules>"},
		{"powershell rule", Options{Tools: []engine.ToolInfo{{Name: "powershell"}}}, "rules", "<rules>\n- " + shellRulePS + "\n- " + conciseRule + "\n- " + pathsRule + "\n</rules>"},
		{"bash and powershell rule", Options{Tools: []engine.ToolInfo{{Name: "bash"}, {Name: "powershell"}}}, "rules", "<rules>\n- " + shellRuleBoth + "\n- " + conciseRule + "\n- " + pathsRule + "\n</rules>"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, ok := Build(tc.o).Get(tc.section)
			require.True(t, ok)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestBuildOmits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		o       Options
		missing string
	}{
		{"empty append", Options{Append: []string{""}}, "addendum"},
		{"no docs root", Options{Tools: tools("read")}, "docs"},
		{"skills without reader", Options{Tools: tools("edit", "write"), Skills: []SkillRef{{Name: "s", Description: "d", Location: "/s"}}}, "skills"},
		{"only hidden skills", Options{Tools: tools("read"), Skills: []SkillRef{{Name: "s", Description: "d", Location: "/s", DisableModelInvocation: true}}}, "skills"},
		{"custom prompt drops tools", Options{CustomPrompt: "x", Tools: tools("read")}, "tools"},
		{"custom prompt drops rules", Options{CustomPrompt: "x", Tools: tools("read")}, "rules"},
		{"custom prompt drops docs", Options{CustomPrompt: "x", DocsRoot: "/d"}, "docs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, ok := Build(tc.o).Get(tc.missing)
			require.False(t, ok)
		})
	}
}

func TestValidateSectionName(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		ok   bool
	}{
		{"memory", true}, {"a1_b-c", true}, {"preamble", false}, {"1abc", false}, {"Abc", false}, {"", false}, {"a b", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := ValidateSectionName(tc.name)
			if tc.ok {
				require.NoError(t, err)
			} else {
				require.EqualError(t, err, "Invalid system prompt section name: "+tc.name)
			}
		})
	}
}

func TestJoinAndDiff(t *testing.T) {
	t.Parallel()
	prev := engine.Sections{{Name: "preamble", Value: str("P")}, {Name: "tools", Value: str("T")}, {Name: "cwd", Value: str("C")}}
	cur := engine.Sections{{Name: "preamble", Value: str("P")}, {Name: "cwd", Value: str("C2")}, {Name: "skills", Value: str("S")}}
	cases := []struct {
		name      string
		prev, cur engine.Sections
		want      string // JSON of the patch, "null" for none
	}{
		{"unchanged", prev, prev, "null"},
		{"changed", prev, cur, `{"cwd":"C2","skills":"S","tools":null}`},
		{"from nothing", nil, prev, `{"preamble":"P","tools":"T","cwd":"C"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			patch := Diff(tc.prev, tc.cur)
			if tc.want == "null" {
				require.Nil(t, patch)
				return
			}
			b, err := engine.MarshalJSON(patch)
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(b))
			require.Equal(t, tc.want, string(b), "key order")
		})
	}
	withNil := engine.Sections{{Name: "a", Value: str("x")}, {Name: "b"}, {Name: "c", Value: str("")}, {Name: "d", Value: str("y")}}
	require.Equal(t, "x\n\ny", Join(withNil))
}
