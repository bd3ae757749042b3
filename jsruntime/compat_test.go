package jsruntime

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
			if t.Failed() {
				// A throw outside the script's own catches (the watchdog
				// on a slow machine, say) explains missing lines.
				t.Logf("extension errors: %v", h.extErrors())
			}
		})
	}
}

// TestExportSurface requires every host package from inside an extension,
// through the real module map and its lazy stand-ins, and checks each
// export the reference's package has (vmod/testdata/reference/exports.json,
// recorded with Node from the installed reference) for the same typeof.
func TestExportSurface(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("vmod/testdata/reference/exports.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]map[string]string
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	specs := make([]string, 0, len(want))
	for s := range want {
		specs = append(specs, s)
	}
	sort.Strings(specs)
	list, _ := json.Marshal(specs)
	script := `const specs = ` + string(list) + `;
const out = {};
for (const s of specs) {
  const [mod, member] = s.split("#");
  try {
    let m = require(mod);
    if (member) m = m[member];
    out[s] = Object.fromEntries(Object.keys(m).map((k) => [k, typeof m[k]]));
  } catch (e) { out[s] = { __error: String(e) }; }
}
console.log(JSON.stringify(out));`
	h := runTS(t, map[string]string{"ext.ts": "export default function () {\n" + script + "\n}\n"})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	var got map[string]map[string]string
	if err := json.Unmarshal([]byte(h.stderr.String()), &got); err != nil {
		t.Fatalf("%v: %s", err, h.stderr.String())
	}
	for _, spec := range specs {
		if e, ok := got[spec]["__error"]; ok {
			t.Errorf("%s: %s", spec, e)
			continue
		}
		var bad []string
		for name, typ := range want[spec] {
			if got[spec][name] != typ {
				bad = append(bad, fmt.Sprintf("%s (want %s, got %q)", name, typ, got[spec][name]))
			}
		}
		sort.Strings(bad)
		if len(bad) > 0 {
			t.Errorf("%s: %d exports differ:\n%s", spec, len(bad), strings.Join(bad, "\n"))
		}
	}
}
