package jsruntime

import (
	"strings"
	"testing"
)

// TestCorpusPatterns runs small extensions of our own that reproduce
// patterns found in third-party extensions which loaded or behaved
// differently in the reference; each prints what the reference printed.
func TestCorpusPatterns(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		files map[string]string
		want  []string // lines that must appear on stderr, in order
	}{
		{
			name: "top-level await",
			files: map[string]string{
				"ext.ts": `import * as os from "node:os";
import { Type } from "typebox";
import { helper } from "./helper.ts";
const platform = await Promise.resolve(os.platform());
const mod = await import("./helper.ts");
export const named = 1;
export default function (pi) {
  console.log("tla", platform, helper(), mod.helper === helper, typeof Type.Object, typeof pi.on);
}
`,
				"helper.ts": `export function helper() { return "helped"; }`,
			},
			want: []string{"tla linux helped true function function"},
		},
		{
			name: "top-level await with export default expression",
			files: map[string]string{
				"ext.ts": `const n = await Promise.resolve(2);
export default async (pi) => { await null; console.log("default expr", n * 21); };
`,
			},
			want: []string{"default expr 42"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := runTS(t, tc.files)
			if len(h.loadErrs) > 0 {
				t.Fatal(h.loadErrs)
			}
			h.settle(t)
			got := h.stderr.String()
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w+"\n")
				if i < 0 {
					t.Fatalf("missing %q in stderr:\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}
