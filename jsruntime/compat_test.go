package jsruntime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNodeCompat runs each testdata/node_compat*.js script inside an
// extension and compares what it prints with its golden, which was
// recorded by running the same script with Node 22, the reference's
// runtime:
//
//	node testdata/node_compat_fs.js > testdata/node_compat_fs.golden
//
// There is no -update flag on purpose: a golden must come from Node, not
// from us. The scripts print results only (no timings, no absolute
// paths), so a golden holds on any machine.
func TestNodeCompat(t *testing.T) {
	t.Parallel()
	scripts, err := filepath.Glob("testdata/node_compat*.js")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no compat scripts: %v", err)
	}
	for _, file := range scripts {
		name := strings.TrimSuffix(filepath.Base(file), ".js")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			script, err := os.ReadFile("testdata/" + name + ".js")
			if err != nil {
				t.Fatal(err)
			}
			golden, err := os.ReadFile("testdata/" + name + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			h := runTS(t, map[string]string{"ext.ts": "export default function () {\n" + string(script) + "\n}\n"})
			if len(h.loadErrs) > 0 {
				t.Fatal(h.loadErrs)
			}
			h.settle(t)
			got := strings.Split(h.stderr.String(), "\n")
			want := strings.Split(string(golden), "\n")
			for i := range max(len(got), len(want)) {
				var g, w string
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					w = want[i]
				}
				if g != w {
					t.Errorf("line %d:\n got: %s\nwant: %s", i+1, g, w)
				}
			}
		})
	}
}
