package jsruntime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestNextGenerationOf checks that a generation loads the sources it is
// given, as the reference's reload and replacement discover the
// extensions again: an added file is bundled and evaluated (also in a
// replacement, where the others come from the module cache), a removed
// one is left out, and a nil list keeps the last one.
func TestNextGenerationOf(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := func(name string) Source {
		t.Helper()
		path := filepath.Join(dir, name+".js")
		code := fmt.Sprintf(generationSrc, name)
		if err := os.WriteFile(path, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		return Source{Path: path, Scope: ScopeCLI, Source: SourceCLI}
	}
	a, b := src("a"), src("b")
	ctx := context.Background()
	rt, errs, err := Load(ctx, LoadOptions{AgentDir: filepath.Join(dir, "agent"), Cwd: dir, Sources: []Source{a}})
	if err != nil || len(errs) > 0 {
		t.Fatalf("load: %v %v", err, errs)
	}
	defer rt.Close()
	names := func(r *Runtime) []string {
		var out []string
		for _, e := range r.Extensions() {
			out = append(out, filepath.Base(e.Path))
		}
		return out
	}
	steps := []struct {
		name    string
		reload  bool
		sources []Source
		want    []string
	}{
		{"replacement adds b", false, []Source{a, b}, []string{"a.js", "b.js"}},
		{"nil keeps the list", false, nil, []string{"a.js", "b.js"}},
		{"reload drops a", true, []Source{b, b}, []string{"b.js"}},
		{"reload brings a back", true, []Source{b, a}, []string{"b.js", "a.js"}},
	}
	cur := rt
	for _, st := range steps {
		next, errs, err := cur.NextGenerationOf(ctx, Host{}, st.reload, st.sources)
		if err != nil || len(errs) > 0 {
			t.Fatalf("%s: %v %v", st.name, err, errs)
		}
		if got := names(next); !slices.Equal(got, st.want) {
			t.Errorf("%s: loaded %v, want %v", st.name, got, st.want)
		}
		cur = next
	}
}
