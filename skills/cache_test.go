package skills

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/prompts"
)

// ageFiles moves every file's mtime an hour back, so the resource cache
// treats them as settled and keeps them.
func ageFiles(t testing.TB, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	}))
}

// TestDiscoverWithCache checks that a cold and a warm run through the
// resource cache find exactly what a run without it finds, and that a
// changed skill is seen on the next run.
func TestDiscoverWithCache(t *testing.T) {
	t.Parallel()
	l := buildLayout(t)
	ageFiles(t, l.root)
	index := filepath.Join(l.root, "cache", "resources.idx")
	for _, trusted := range []bool{true, false} {
		want, wantDiags := Discover(l.options(trusted, false))
		for _, run := range []string{"cold", "warm"} {
			opts := l.options(trusted, false)
			opts.Cache = prompts.OpenFileCache(index)
			got, diags := Discover(opts)
			require.NoError(t, opts.Cache.Save())
			assert.Equal(t, want, got, "%s trusted=%v", run, trusted)
			assert.Equal(t, wantDiags, diags, "%s trusted=%v", run, trusted)
		}
	}
	skillMD(t, filepath.Join(l.agent, "skills", "user-skill"), "user-skill", "Changed description", "")
	opts := l.options(true, false)
	opts.Cache = prompts.OpenFileCache(index)
	got, _ := Discover(opts)
	for _, s := range got {
		if s.Name == "user-skill" {
			assert.Equal(t, "Changed description", s.Description)
		}
	}
}

// BenchmarkDiscover1000Warm is BenchmarkDiscover1000 with the resource
// cache warmed by a previous run, as every start after the first.
func BenchmarkDiscover1000Warm(b *testing.B) {
	root := b.TempDir()
	agent := filepath.Join(root, "agent")
	for i := range 1000 {
		name := fmt.Sprintf("skill-%04d", i)
		skillMD(b, filepath.Join(agent, "skills", name), name, "Does thing number "+name+" when asked", "")
		write(b, filepath.Join(agent, "prompts", fmt.Sprintf("t%04d.md", i)), "---\ndescription: template\nargument-hint: \"<x>\"\n---\nDo $1 with ${@:2}\n")
	}
	ageFiles(b, agent)
	index := filepath.Join(root, "cache", "resources.idx")
	run := func() {
		cache := prompts.OpenFileCache(index)
		s, _ := Discover(Options{AgentDir: agent, Cwd: root, Home: root, Cache: cache})
		tm, _ := prompts.LoadTemplates(prompts.TemplateOptions{AgentDir: agent, Cwd: root, Home: root, Cache: cache})
		if len(s) != 1000 || len(tm) != 1000 {
			b.Fatalf("loaded %d skills, %d templates", len(s), len(tm))
		}
		if err := cache.Save(); err != nil {
			b.Fatal(err)
		}
	}
	run()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		run()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
}

// TestDiscoverSymlinks checks that links to skills already loaded are
// skipped silently (same real path), through a linked SKILL.md or a linked
// skill folder, with and without the cache.
func TestDiscoverSymlinks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	agent := filepath.Join(root, "agent")
	skillMD(t, filepath.Join(agent, "skills", "a-real"), "real", "The real one", "")
	require.NoError(t, os.MkdirAll(filepath.Join(agent, "skills", "b-linkfile"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(agent, "skills", "a-real", "SKILL.md"), filepath.Join(agent, "skills", "b-linkfile", "SKILL.md")))
	require.NoError(t, os.Symlink(filepath.Join(agent, "skills", "a-real"), filepath.Join(agent, "skills", "c-linkdir")))
	skillMD(t, filepath.Join(root, "elsewhere", "other"), "other", "Reached through a linked folder", "")
	require.NoError(t, os.Symlink(filepath.Join(root, "elsewhere", "other"), filepath.Join(agent, "skills", "d-other")))
	ageFiles(t, root)
	for _, cached := range []bool{false, true, true} {
		opts := Options{AgentDir: agent, Cwd: root, Home: root}
		if cached {
			opts.Cache = prompts.OpenFileCache(filepath.Join(root, "idx"))
		}
		got, diags := Discover(opts)
		require.NoError(t, opts.Cache.Save())
		var names []string
		for _, s := range got {
			names = append(names, s.Name+"@"+s.FilePath)
		}
		assert.Equal(t, []string{
			"real@" + filepath.Join(agent, "skills", "a-real", "SKILL.md"),
			"other@" + filepath.Join(agent, "skills", "d-other", "SKILL.md"),
		}, names, "cached=%v", cached)
		assert.Empty(t, diags)
	}
}

// TestDiscoverCacheInvalidation checks that a warm start through the
// resource index sees every kind of change a start without it would: a
// same-size rewrite whose mtime was put back (only the ctime moves), an
// added skill, a removed one, a renamed skill folder, and a skill folder
// replaced by a link.
func TestDiscoverCacheInvalidation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(t *testing.T, skillsDir string)
	}{
		{"same-size rewrite, mtime restored", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "a", "SKILL.md")
			st, err := os.Stat(p)
			require.NoError(t, err)
			skillMD(t, filepath.Join(dir, "a"), "a", "Two", "")
			st2, err := os.Stat(p)
			require.NoError(t, err)
			require.Equal(t, st.Size(), st2.Size())
			require.NoError(t, os.Chtimes(p, st.ModTime(), st.ModTime()))
		}},
		{"added", func(t *testing.T, dir string) { skillMD(t, filepath.Join(dir, "c"), "c", "Cee", "") }},
		{"removed", func(t *testing.T, dir string) { require.NoError(t, os.RemoveAll(filepath.Join(dir, "b"))) }},
		{"renamed folder", func(t *testing.T, dir string) {
			require.NoError(t, os.Rename(filepath.Join(dir, "b"), filepath.Join(dir, "z")))
		}},
		{"folder replaced by a link", func(t *testing.T, dir string) {
			other := filepath.Join(filepath.Dir(dir), "elsewhere", "b")
			skillMD(t, other, "b", "Linked", "")
			require.NoError(t, os.RemoveAll(filepath.Join(dir, "b")))
			require.NoError(t, os.Symlink(other, filepath.Join(dir, "b")))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			root, _ = filepath.EvalSymlinks(root)
			agent := filepath.Join(root, "agent")
			dir := filepath.Join(agent, "skills")
			skillMD(t, filepath.Join(dir, "a"), "a", "One", "")
			skillMD(t, filepath.Join(dir, "b"), "b", "Bee", "")
			ageFiles(t, root)
			index := filepath.Join(root, "idx")
			opts := Options{AgentDir: agent, Cwd: root, Home: root}
			opts.Cache = prompts.OpenFileCache(index)
			_, _ = Discover(opts)
			require.NoError(t, opts.Cache.Save())

			tc.change(t, dir)
			want, wantDiags := Discover(Options{AgentDir: agent, Cwd: root, Home: root})
			opts.Cache = prompts.OpenFileCache(index)
			got, diags := Discover(opts)
			require.NoError(t, opts.Cache.Save())
			assert.Equal(t, want, got)
			assert.Equal(t, wantDiags, diags)
		})
	}
}
