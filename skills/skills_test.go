package skills

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/prompts"
)

func write(t testing.TB, path, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}

func skillMD(t testing.TB, dir, name, desc, extra string) {
	write(t, filepath.Join(dir, "SKILL.md"), "---\nname: "+name+"\ndescription: "+desc+"\n"+extra+"---\n\n# "+name+"\n\nBody of "+name+".\n")
}

// layout rebuilds the tree prompts/testdata/templates/capture.py recorded
// the reference against (skills/testdata/reference.json).
type layout struct{ root, home, agent, cwd, extra string }

func buildLayout(t testing.TB) layout {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	l := layout{root: root, home: filepath.Join(root, "home")}
	l.agent = filepath.Join(l.home, ".pi", "agent")
	sroot := filepath.Join(root, "sk")
	repo := filepath.Join(sroot, "repo")
	l.cwd = filepath.Join(repo, "sub")
	l.extra = filepath.Join(sroot, "extra")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	skillMD(t, filepath.Join(l.agent, "skills", "user-skill"), "user-skill", `User skill. Use for <user> & "things".`, "")
	skillMD(t, filepath.Join(l.agent, "skills", "dup"), "dup", "User dup", "")
	skillMD(t, filepath.Join(l.agent, "skills", "nested", "deep", "deep-skill"), "deep-skill", "Deep one", "")
	write(t, filepath.Join(l.agent, "skills", "root-file.md"), "---\ndescription: Root file skill\n---\nRoot body\n")
	write(t, filepath.Join(l.agent, "skills", "nodesc.md"), "no frontmatter\n")
	skillMD(t, filepath.Join(l.agent, "skills", "Bad_Name"), "Bad_Name", "Invalid name but loads", "")
	write(t, filepath.Join(l.agent, "skills", "nodescdir", "SKILL.md"), "---\nname: nodescdir\n---\nx\n")
	skillMD(t, filepath.Join(l.agent, "skills", "hidden-skill"), "hidden-skill", "Hidden", "disable-model-invocation: true\n")
	skillMD(t, filepath.Join(l.home, ".agents", "skills", "home-agents"), "home-agents", "From ~/.agents", "")
	skillMD(t, filepath.Join(l.cwd, ".pi", "skills", "proj-skill"), "proj-skill", "Project skill", "")
	skillMD(t, filepath.Join(l.cwd, ".pi", "skills", "dup"), "dup", "Project dup", "")
	write(t, filepath.Join(l.cwd, ".pi", "skills", "proj-root.md"), "---\ndescription: Project root md\n---\nPR\n")
	skillMD(t, filepath.Join(l.cwd, ".pi", "agent", "skills", "alias-skill"), "alias-skill", "Under .pi/agent", "")
	skillMD(t, filepath.Join(l.cwd, ".agents", "skills", "cwd-agents"), "cwd-agents", "cwd .agents", "")
	write(t, filepath.Join(l.cwd, ".agents", "skills", "top.md"), "---\ndescription: top-level md in .agents\n---\nT\n")
	write(t, filepath.Join(l.cwd, ".agents", "skills", "grp", "inner.md"), "---\ndescription: nested md in .agents\n---\nI\n")
	skillMD(t, filepath.Join(repo, ".agents", "skills", "repo-agents"), "repo-agents", "repo .agents", "")
	skillMD(t, filepath.Join(sroot, ".agents", "skills", "above-git"), "above-git", "above git root", "")
	skillMD(t, filepath.Join(l.extra, "cli-skill"), "cli-skill", "From --skill", "")
	skillMD(t, filepath.Join(l.extra, "dup"), "dup", "CLI dup", "")
	return l
}

func (l layout) options(trusted, noSkills bool) Options {
	return Options{
		AgentDir: l.agent, Cwd: l.cwd, Home: l.home, ProjectTrusted: trusted, NoSkills: noSkills,
		CLIPaths: []string{filepath.Join(l.extra, "cli-skill"), filepath.Join(l.extra, "dup"), filepath.Join(l.root, "sk", "missing")},
	}
}

type refRun struct {
	Commands []json.RawMessage `json:"commands"`
	Prompts  []struct {
		Input    string `json:"input"`
		Expanded string `json:"expanded"`
	} `json:"prompts"`
	System string `json:"system"`
}

func loadReference(t *testing.T) map[string]refRun {
	raw, err := os.ReadFile("testdata/reference.json")
	require.NoError(t, err)
	var ref map[string]refRun
	require.NoError(t, json.Unmarshal(raw, &ref))
	return ref
}

// skillCommands keeps the reference's skill entries, re-marshalled compactly.
func skillCommands(t *testing.T, cmds []json.RawMessage) []string {
	var out []string
	for _, c := range cmds {
		var m struct{ Source string }
		require.NoError(t, json.Unmarshal(c, &m))
		if m.Source == "skill" {
			var buf bytes.Buffer
			require.NoError(t, json.Compact(&buf, c))
			out = append(out, buf.String())
		}
	}
	return out
}

func TestDiscoverMatchesReference(t *testing.T) {
	t.Parallel()
	ref := loadReference(t)
	cases := []struct {
		name              string
		trusted, noSkills bool
	}{
		{"trusted", true, false},
		{"untrusted", false, false},
		{"no_skills", true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := buildLayout(t)
			got, diags := Discover(l.options(tc.trusted, tc.noSkills))
			var lines []string
			var alias []string
			for _, c := range Commands(got) {
				b, err := engine.MarshalJSON(c)
				require.NoError(t, err)
				s := strings.ReplaceAll(string(b), l.root, "<ROOT>")
				// .pi/agent/skills is our alias; the reference does not look there.
				if strings.Contains(s, "alias-skill") {
					alias = append(alias, s)
					continue
				}
				lines = append(lines, s)
			}
			assert.Equal(t, skillCommands(t, ref[tc.name].Commands), lines)
			if tc.trusted && !tc.noSkills {
				assert.Len(t, alias, 1)
			} else {
				assert.Empty(t, alias)
			}
			assert.Contains(t, diags, Diagnostic{Type: "warning", Message: "skill path does not exist", Path: filepath.Join(l.root, "sk", "missing")})
		})
	}
}

func TestExpandMatchesReference(t *testing.T) {
	t.Parallel()
	ref := loadReference(t)
	l := buildLayout(t)
	got, _ := Discover(l.options(true, false))
	for _, p := range ref["trusted"].Prompts {
		if !strings.HasPrefix(p.Input, "/skill:") {
			continue
		}
		out, ok, err := Expand(p.Input, got)
		require.NoError(t, err)
		assert.Equal(t, p.Expanded, strings.ReplaceAll(out, l.root, "<ROOT>"), p.Input)
		assert.Equal(t, p.Input != out, ok)
	}
}

func TestSystemPromptSkillsMatchReference(t *testing.T) {
	t.Parallel()
	ref := loadReference(t)
	l := buildLayout(t)
	got, _ := Discover(l.options(true, false))
	var refs []prompts.SkillRef
	for _, r := range ToPromptRefs(got) {
		if r.Name != "alias-skill" {
			refs = append(refs, r)
		}
	}
	sys := ref["trusted"].System
	start := strings.Index(sys, "<available_skills>")
	end := strings.Index(sys, "</available_skills>")
	require.True(t, start >= 0 && end > start)
	var b strings.Builder
	b.WriteString("<available_skills>\n")
	for _, r := range refs {
		if r.DisableModelInvocation {
			continue
		}
		b.WriteString("  <skill>\n    <name>" + xmlEsc(r.Name) + "</name>\n    <description>" + xmlEsc(r.Description) +
			"</description>\n    <location>" + strings.ReplaceAll(xmlEsc(r.Location), l.root, "<ROOT>") + "</location>\n  </skill>\n")
	}
	assert.Equal(t, sys[start:end], b.String())
}

func xmlEsc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace(s)
}
