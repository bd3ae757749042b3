package skills

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/prompts"
)

func TestLoadFileDiagnostics(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 1025)
	cases := []struct {
		name, dir, file, content string
		loaded                   bool
		msgs                     []string
	}{
		{"valid", "ok-skill", "SKILL.md", "---\nname: ok-skill\ndescription: d\n---\nb", true, nil},
		{"name from dir", "from-dir", "SKILL.md", "---\ndescription: d\n---\nb", true, nil},
		{"upper case", "x", "SKILL.md", "---\nname: Bad\ndescription: d\n---\n", true,
			[]string{"name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)"}},
		{"hyphens", "x", "SKILL.md", "---\nname: -a--b-\ndescription: d\n---\n", true,
			[]string{"name must not start or end with a hyphen", "name must not contain consecutive hyphens"}},
		{"too long", "x", "SKILL.md", "---\nname: " + strings.Repeat("a", 65) + "\ndescription: d\n---\n", true,
			[]string{"name exceeds 64 characters (65)"}},
		{"long description", "x", "SKILL.md", "---\nname: x\ndescription: " + long + "\n---\n", true,
			[]string{"description exceeds 1024 characters (1025)"}},
		{"no description", "x", "SKILL.md", "---\nname: x\n---\n", false, []string{"description is required"}},
		{"blank description", "x", "SKILL.md", "---\nname: x\ndescription: \"  \"\n---\n", false, []string{"description is required"}},
		{"number description", "x", "SKILL.md", "---\nname: x\ndescription: 12\n---\n", false, []string{"description is required"}},
		{"plain md without description is silent", "x", "notes.md", "# notes", false, nil},
		{"plain md yaml error is silent", "x", "notes.md", "---\na: [\n---\n", false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), tc.dir, tc.file)
			write(t, path, tc.content)
			s, diags := loadFile(path, "path", nil)
			assert.Equal(t, tc.loaded, s != nil)
			var msgs []string
			for _, d := range diags {
				assert.Equal(t, "warning", d.Type)
				assert.Equal(t, path, d.Path)
				msgs = append(msgs, d.Message)
			}
			assert.Equal(t, tc.msgs, msgs)
		})
	}
}

func TestDiscoverCollisionsAndPaths(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	agent := filepath.Join(root, "agent")
	skillMD(t, filepath.Join(agent, "skills", "a"), "same", "first", "")
	skillMD(t, filepath.Join(agent, "skills", "b"), "same", "second", "")
	write(t, filepath.Join(root, "x.txt"), "text")
	got, diags := Discover(Options{AgentDir: agent, Cwd: root, Home: root, CLIPaths: []string{"x.txt", "nope"}})
	assert.Len(t, got, 1)
	assert.Equal(t, "first", got[0].Description)
	first, second := filepath.Join(agent, "skills", "a", "SKILL.md"), filepath.Join(agent, "skills", "b", "SKILL.md")
	assert.Equal(t, []Diagnostic{
		{Type: "warning", Message: "skill path is not a markdown file", Path: filepath.Join(root, "x.txt")},
		{Type: "warning", Message: "skill path does not exist", Path: filepath.Join(root, "nope")},
		{Type: "collision", Message: `name "same" collision`, Path: second,
			Collision: &prompts.Collision{ResourceType: "skill", Name: "same", WinnerPath: first, LoserPath: second}},
	}, diags)
}

func TestDiscoverSettingsEntries(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	agent := filepath.Join(root, "agent")
	cwd := filepath.Join(root, "proj")
	skillMD(t, filepath.Join(agent, "mine", "s1"), "s1", "one", "")
	skillMD(t, filepath.Join(agent, "mine", "s2"), "s2", "two", "")
	skillMD(t, filepath.Join(agent, "skills", "auto"), "auto", "auto", "")
	skillMD(t, filepath.Join(cwd, ".pi", "team", "t1"), "t1", "team", "")
	cases := []struct {
		name    string
		trusted bool
		global  []string
		want    []string
	}{
		{"dirs", true, []string{"mine"}, []string{"t1", "s1", "s2", "auto"}},
		{"exclude", true, []string{"mine", "!s2"}, []string{"t1", "s1", "auto"}},
		{"exclude auto", true, []string{"!auto"}, []string{"t1"}},
		{"untrusted ignores project settings", false, []string{"mine"}, []string{"s1", "s2", "auto"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, _ := Discover(Options{AgentDir: agent, Cwd: cwd, Home: root, ProjectTrusted: tc.trusted,
				SettingsGlobal: tc.global, SettingsProject: []string{"team"}})
			var names []string
			for _, s := range got {
				names = append(names, s.Name)
			}
			assert.Equal(t, tc.want, names)
		})
	}
}

func TestExpandErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	skills := []Skill{{Name: "gone", FilePath: filepath.Join(dir, "missing", "SKILL.md"), BaseDir: dir}}
	out, ok, err := Expand("/skill:gone x", skills)
	assert.Error(t, err)
	assert.False(t, ok)
	assert.Equal(t, "/skill:gone x", out)
	out, ok, err = Expand("/skill:other", skills)
	assert.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, "/skill:other", out)
}

// BenchmarkDiscover1000 loads 1,000 skills and 1,000 prompt templates one
// after the other without the resource index. BenchmarkStartResources runs
// them the way cmd/pi does (side by side, through the index).
func BenchmarkDiscover1000(b *testing.B) {
	root := b.TempDir()
	agent := filepath.Join(root, "agent")
	for i := range 1000 {
		name := fmt.Sprintf("skill-%04d", i)
		skillMD(b, filepath.Join(agent, "skills", name), name, "Does thing number "+name+" when asked", "")
		write(b, filepath.Join(agent, "prompts", fmt.Sprintf("t%04d.md", i)), "---\ndescription: template\nargument-hint: \"<x>\"\n---\nDo $1 with ${@:2}\n")
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		s, _ := Discover(Options{AgentDir: agent, Cwd: root, Home: root})
		tm, _ := prompts.LoadTemplates(prompts.TemplateOptions{AgentDir: agent, Cwd: root, Home: root})
		if len(s) != 1000 || len(tm) != 1000 {
			b.Fatalf("loaded %d skills, %d templates", len(s), len(tm))
		}
	}
	// CPU time (user+system) says what the work costs when the machine is
	// shared and wall time is noisy.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
}

// TestExpandErrorText checks that read errors carry Node's wording, which
// clients see in extension_error events and on stderr.
func TestExpandErrorText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct{ name, path, want string }{
		{"missing", filepath.Join(dir, "gone", "SKILL.md"), "ENOENT: no such file or directory, open '" + filepath.Join(dir, "gone", "SKILL.md") + "'"},
		{"directory", dir, "EISDIR: illegal operation on a directory, read"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, ok, err := Expand("/skill:x a", []Skill{{Name: "x", FilePath: tc.path, BaseDir: dir}})
			assert.False(t, ok)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}
