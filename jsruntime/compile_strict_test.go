package jsruntime

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestStrictSources runs extensions written in each module style and
// checks strictness and the top-level this against what the reference
// printed for the same files: .ts files (ES module or CommonJS style) run
// strict with an undefined this, a CommonJS .js file runs sloppy with this
// === module.exports, and so does a bundle that pulls in a CommonJS .cjs
// dependency (a lexical strict mode cannot leave the dependency sloppy).
// One known difference stays: a CommonJS-style .ts file's top-level this
// is module.exports here (esbuild rewrites this to exports in CommonJS
// files), where the reference has undefined.
func TestStrictSources(t *testing.T) {
	t.Parallel()
	probe := `
function f() { return this === undefined ? "undefined" : typeof this; }
let assign;
try { undeclaredVar = 1; assign = "sloppy"; } catch (e) { assign = e.name; }
`
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"esm ts", map[string]string{"ext.ts": probe + `console.log(this === undefined ? "undefined" : "defined", f(), assign);
export default function () {}`}, "undefined undefined ReferenceError"},
		{"cjs ts", map[string]string{"ext.ts": probe + `console.log(this === undefined ? "undefined" : this === module.exports ? "exports" : "other", f(), assign);
module.exports = function () {};`}, "exports undefined ReferenceError"},
		{"cjs js", map[string]string{"ext.js": probe + `console.log(this === module.exports ? "exports" : "other", f(), assign);
module.exports = function () {};`}, "exports object sloppy"},
		{"esm js", map[string]string{"ext.js": probe + `console.log(f(), assign);
export default function () {}`}, "undefined ReferenceError"},
		{"ts with cjs dep", map[string]string{
			"ext.ts": `import dep from "./dep.cjs";
console.log(dep);
export default function () {}`,
			"dep.cjs": probe + `module.exports = f() + " " + assign;`,
		}, "object sloppy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			entry := "ext.ts"
			if _, ok := c.files["ext.js"]; ok {
				entry = "ext.js"
			}
			h := runTS(t, c.files, func(o *LoadOptions) { o.Paths = []string{filepath.Join(filepath.Dir(o.Paths[0]), entry)} })
			if len(h.loadErrs) > 0 {
				t.Fatal(h.loadErrs)
			}
			h.settle(t)
			if got := strings.TrimSpace(h.stderr.String()); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
