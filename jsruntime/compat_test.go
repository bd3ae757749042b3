package jsruntime

import (
	"os"
	"strings"
	"testing"
)

// TestNodeCompat runs testdata/node_compat.js, whose expected output
// (testdata/node_compat.golden) was recorded by running the same script
// with Node 22, the reference's runtime. There is no -update flag on
// purpose: the golden must come from Node, not from us.
func TestNodeCompat(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile("testdata/node_compat.js")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/node_compat.golden")
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
}
