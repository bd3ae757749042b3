package prompts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/require"
)

// The system-message sections the reference printed for the scenarios in
// testdata/reference/scenarios (captured with the conformance mock and
// normalized; see testdata/reference/README.md). Each case rebuilds the
// same files on disk, runs our loaders and Build, and checks that both
// reduce to the same skeleton: section names, order and every literal part.
func loadReferenceSections(t *testing.T) map[string]engine.Sections {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "reference", "sections.json"))
	require.NoError(t, err)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &raw))
	out := map[string]engine.Sections{}
	for name, r := range raw {
		var s engine.Sections
		require.NoError(t, json.Unmarshal(r, &s), name)
		out[name] = s
	}
	return out
}

func TestReferenceSkeleton(t *testing.T) {
	t.Parallel()
	ref := loadReferenceSections(t)
	const skill = "---\nname: demo-skill\ndescription: Demo skill for <testing> & \"quotes\". Use when asked for demos.\n---\nBody.\n"
	demoSkill := func(project string) []SkillRef {
		return []SkillRef{{
			Name:        "demo-skill",
			Description: `Demo skill for <testing> & "quotes". Use when asked for demos.`,
			Location:    filepath.Join(project, ".pi", "skills", "demo-skill", "SKILL.md"),
		}}
	}
	cases := []struct {
		name         string
		agentFiles   map[string]string
		files        map[string]string
		trusted      bool
		tools        []string
		systemPrompt string   // --system-prompt
		appendArgs   []string // --append-system-prompt values; "@x" is project file x
		skills       bool
	}{
		{
			name:       "default_agents_append",
			agentFiles: map[string]string{"AGENTS.md": "Global rule.\n"},
			files:      map[string]string{"AGENTS.md": "\ufeffProject rule: be nice.\n", "sub/CLAUDE.md": "x", "extra.md": "Appended from file.\n"},
			tools:      defaultTools,
			appendArgs: []string{"Extra text.", "@extra.md"},
		},
		{
			name:         "custom_prompt",
			agentFiles:   map[string]string{"AGENTS.md": "Global rule.\n"},
			files:        map[string]string{"AGENTS.md": "Project rule.\n"},
			tools:        defaultTools,
			systemPrompt: "Custom prompt.",
			appendArgs:   []string{"Extra."},
		},
		{
			name:    "all_tools_skills",
			files:   map[string]string{".pi/skills/demo-skill/SKILL.md": skill, "CLAUDE.md": "claude rule\n", "AGENTS.MD": "upper\n"},
			trusted: true,
			tools:   allTools,
			skills:  true,
		},
		{name: "read_grep_find_ls", tools: []string{"read", "grep", "find", "ls"}},
		{
			name:    "bash_only_skills",
			files:   map[string]string{".pi/skills/demo-skill/SKILL.md": skill},
			trusted: true,
			tools:   []string{"bash"},
			skills:  true,
		},
		{
			name:    "no_tools_skills",
			files:   map[string]string{".pi/skills/demo-skill/SKILL.md": skill},
			trusted: true,
			skills:  true,
		},
		{
			name:       "system_md_files",
			agentFiles: map[string]string{"SYSTEM.md": "Global system.\n", "APPEND_SYSTEM.md": "Global append.\n"},
			files:      map[string]string{".pi/SYSTEM.md": "Project system.\n", ".pi/APPEND_SYSTEM.md": "Project append.\n"},
			trusted:    true,
			tools:      defaultTools,
		},
		{
			name:       "system_md_untrusted",
			agentFiles: map[string]string{"SYSTEM.md": "Global system.\n", "APPEND_SYSTEM.md": "Global append.\n"},
			files:      map[string]string{".pi/SYSTEM.md": "Project system.\n", ".pi/APPEND_SYSTEM.md": "Project append.\n"},
			tools:      defaultTools,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want, ok := ref[tc.name]
			require.True(t, ok, "no capture for %s", tc.name)

			root := t.TempDir()
			home := filepath.Join(root, "home")
			agentDir := filepath.Join(home, ".pi", "agent")
			project := filepath.Join(root, "project")
			require.NoError(t, os.MkdirAll(agentDir, 0o755))
			require.NoError(t, os.MkdirAll(project, 0o755))
			writeFiles(t, agentDir, tc.agentFiles)
			writeFiles(t, project, tc.files)

			ctxFiles, err := LoadContextFiles(agentDir, project, tc.trusted)
			require.NoError(t, err)
			system, appendParts, err := LoadSystemFiles(agentDir, project, tc.trusted)
			require.NoError(t, err)
			if tc.systemPrompt != "" {
				system = ResolveTextOrFile(tc.systemPrompt)
			}
			if len(tc.appendArgs) > 0 {
				appendParts = nil
				for _, a := range tc.appendArgs {
					if rel, ok := strings.CutPrefix(a, "@"); ok {
						a = filepath.Join(project, rel)
					}
					appendParts = append(appendParts, ResolveTextOrFile(a))
				}
			}
			o := Options{
				Cwd: project, AgentDir: agentDir, DocsRoot: "<PI_PKG>",
				Tools: tools(tc.tools...), CustomPrompt: system, Append: appendParts,
				ContextFiles: ctxFiles,
			}
			if tc.skills {
				o.Skills = demoSkill(project)
			}
			got := Build(o)
			// Put the run's paths in the harness's placeholders.
			for i := range got {
				v := strings.ReplaceAll(*got[i].Value, project, "<PROJECT>")
				v = strings.ReplaceAll(v, home, "<HOME>")
				got[i].Value = &v
			}
			if dir := os.Getenv("PROMPTS_DUMP"); dir != "" {
				b, _ := engine.MarshalJSON(got)
				_ = os.WriteFile(filepath.Join(dir, tc.name+".json"), b, 0o644)
			}
			require.Equal(t, sectionsSkeleton(want), sectionsSkeleton(got))
		})
	}
}

// TestSkeletonKeepsFacts guards the skeleton itself: prose differences
// vanish, fact differences do not.
func TestSkeletonKeepsFacts(t *testing.T) {
	t.Parallel()
	base := Build(Options{Cwd: "/p", DocsRoot: "/d", Tools: tools(defaultTools...),
		ContextFiles: []ContextFile{{Path: "/p/AGENTS.md", Content: "x"}}})
	cases := []struct {
		name string
		o    Options
		same bool
	}{
		{"other cwd", Options{Cwd: "/q", DocsRoot: "/d", Tools: tools(defaultTools...), ContextFiles: []ContextFile{{Path: "/p/AGENTS.md", Content: "x"}}}, false},
		{"other tools", Options{Cwd: "/p", DocsRoot: "/d", Tools: tools("read"), ContextFiles: []ContextFile{{Path: "/p/AGENTS.md", Content: "x"}}}, false},
		{"other file content", Options{Cwd: "/p", DocsRoot: "/d", Tools: tools(defaultTools...), ContextFiles: []ContextFile{{Path: "/p/AGENTS.md", Content: "y"}}}, false},
		{"other docs root", Options{Cwd: "/p", DocsRoot: "/e", Tools: tools(defaultTools...), ContextFiles: []ContextFile{{Path: "/p/AGENTS.md", Content: "x"}}}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			eq := assertEqualSkeleton(sectionsSkeleton(base), sectionsSkeleton(Build(tc.o)))
			require.Equal(t, tc.same, eq)
		})
	}
}

func assertEqualSkeleton(a, b []skelSection) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
