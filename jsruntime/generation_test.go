package jsruntime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// generationSrc names the command it registers after a prefix, the
// module's own factory count and a count kept on globalThis.
const generationSrc = `let runs = 0;
export default function (pi) {
	runs++;
	globalThis.__gens = (globalThis.__gens || 0) + 1;
	pi.registerCommand("%s" + runs + "g" + globalThis.__gens, { handler() {} });
}
`

// TestNextGeneration checks the reference's module semantics across
// generations: a replacement calls the cached factory again (module
// state kept), a reload evaluates the changed file again (module state
// reset), and globalThis survives both.
func TestNextGeneration(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "ext.js")
	write := func(prefix string) {
		t.Helper()
		src := []byte(fmt.Sprintf(generationSrc, prefix))
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("m")
	ctx := context.Background()
	rt, errs, err := Load(ctx, LoadOptions{AgentDir: filepath.Join(dir, "agent"), Cwd: dir,
		Sources: []Source{{Path: path, Scope: ScopeCLI, Source: SourceCLI}}})
	if err != nil || len(errs) > 0 {
		t.Fatalf("load: %v %v", err, errs)
	}
	defer rt.Close()
	command := func(r *Runtime) string {
		exts := r.Extensions()
		if len(exts) != 1 || len(exts[0].Commands) != 1 {
			t.Fatalf("extensions = %+v", exts)
		}
		return exts[0].Commands[0].Name
	}
	steps := []struct {
		name   string
		reload bool
		prefix string
		want   string
	}{
		{"replacement", false, "", "m2g2"},
		{"reload", true, "x", "x1g3"},
		{"replacement after reload", false, "", "x2g4"},
	}
	if got := command(rt); got != "m1g1" {
		t.Fatalf("first generation registered %q, want m1g1", got)
	}
	cur := rt
	for _, st := range steps {
		if st.prefix != "" {
			write(st.prefix)
		}
		next, errs, err := cur.NextGeneration(ctx, Host{}, st.reload)
		if err != nil || len(errs) > 0 {
			t.Fatalf("%s: %v %v", st.name, err, errs)
		}
		if next.VM() != rt.VM() {
			t.Fatalf("%s: a new VM", st.name)
		}
		if got := command(next); got != st.want {
			t.Errorf("%s: registered %q, want %q", st.name, got, st.want)
		}
		cur = next
	}
}
