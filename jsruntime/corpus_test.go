package jsruntime

import (
	"os"
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

// TestCorpusGlobals checks globals third-party code relies on.
func TestCorpusGlobals(t *testing.T) {
	t.Parallel()
	got := logOf(t, `
class MyError extends Error {
  constructor(m: string) { super(m); this.name = "MyError"; Error.captureStackTrace(this, MyError); }
}
export default function () {
  const e = new MyError("boom");
  console.log("capture", typeof Error.captureStackTrace, e.stack.split("\n")[0], typeof Error.stackTraceLimit);
  const o: any = {};
  Error.captureStackTrace(o);
  console.log("plain", typeof o.stack, Object.keys(o).length);
  const log: string[] = [];
  { using r = { [Symbol.dispose]() { log.push("disposed"); } }; log.push("in"); }
  console.log("using", log.join(","), Symbol.dispose === Symbol.for("Symbol.dispose"), typeof Symbol.asyncDispose);
  console.log("tty", process.stdout.isTTY, process.stdout.columns, process.stderr.isTTY, process.stdin.isTTY);
}
`)
	wantLines(t, got,
		"capture function MyError: boom number\n",
		"plain string 0\n",
		"using in,disposed true symbol\n",
	)
	if isTerminal(os.Stdout) || isTerminal(os.Stderr) {
		return // the tty line depends on how the tests run
	}
	if !strings.Contains(got, "tty undefined undefined undefined") {
		t.Errorf("tty line: %s", got)
	}
}

// TestCorpusCreateRequire: createRequire(import.meta.url) loads JSON and
// CommonJS files next to the extension, as extensions reading their own
// package.json do.
func TestCorpusCreateRequire(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{
		"ext.ts": `import { createRequire } from "node:module";
const require2 = createRequire(import.meta.url);
export default function () {
  const pkg = require2("./package.json");
  const helper = require2("./lib/helper.cjs");
  console.log("pkg", pkg.name, pkg.version, helper.kind, helper.twice(21), require2("node:path").sep);
  console.log("resolve", require2.resolve("./lib/helper.cjs").endsWith("/lib/helper.cjs"), require2("./lib/helper.cjs") === helper);
  try { require2("./missing.json"); } catch (e: any) { console.log("missing", e.code, e.message.split("\n")[0]); }
}
`,
		"package.json":   `{"name": "corpus-ext", "version": "1.2.3"}`,
		"lib/helper.cjs": "const path = require(\"path\");\nconst data = require(\"../package.json\");\nmodule.exports = { kind: typeof __dirname + \":\" + path.basename(__filename) + \":\" + data.name, twice: (n) => n * 2 };\n",
	})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	got := h.stderr.String()
	for _, w := range []string{
		"pkg corpus-ext 1.2.3 string:helper.cjs:corpus-ext 42 /\n",
		"resolve true true\n",
		"missing MODULE_NOT_FOUND Cannot find module './missing.json'\n",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
}

// TestCorpusIntl: the Intl uses found in footers and status lines print as
// Node 22 prints them.
func TestCorpusIntl(t *testing.T) {
	t.Parallel()
	wantLines(t, logOf(t, `export default function () {
  console.log("compact", new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }).format(123456), new Intl.NumberFormat("en-US", { notation: "compact" }).format(1234));
  console.log("rtf", new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(-1, "day"), new Intl.RelativeTimeFormat("en").format(-1, "day"), new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(3, "weeks"));
  console.log("collator", ["b", "a", "C"].sort(new Intl.Collator("en").compare).join(""));
  console.log("call", Intl.DateTimeFormat().resolvedOptions().locale, Intl.NumberFormat("en-US").format(1234.5), Intl.DateTimeFormat() instanceof Intl.DateTimeFormat);
  console.log("graphemes", [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment("e\u0301👍🏽x🇫🇷👨‍👩‍👧")].map((s) => s.segment.length).join(","));
}
`),
		"compact 123.5K 1.2K\n",
		"rtf yesterday 1 day ago in 3 weeks\n",
		"collator abC\n",
		"call en-US 1,234.5 true\n",
		"graphemes 2,4,1,4,8\n",
	)
}

// TestCorpusDiffHelpers: generateUnifiedPatch and generateDiffString
// print as the reference's (recorded from it), for extensions that
// summarise edits.
func TestCorpusDiffHelpers(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `import { generateUnifiedPatch, generateDiffString } from "@earendil-works/pi-coding-agent";
export default function () {
  console.log(JSON.stringify([generateUnifiedPatch("a.txt", "one\ntwo\nthree\n", "one\n2\nthree\nfour\n", 1), generateUnifiedPatch("b.txt", "", "new\n", 0), generateUnifiedPatch("c.txt", "x\ny", "x\nz"), generateDiffString("a\nb\nc\n", "a\nB\nc\n"), generateDiffString("same", "same")]));
}
`})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	want := `["--- a.txt\n+++ a.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n","--- b.txt\n+++ b.txt\n@@ -0,0 +1,1 @@\n+new\n","--- c.txt\n+++ c.txt\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file\n",{"diff":" 1 a\n-2 b\n+2 B\n 3 c","firstChangedLine":2},{"diff":""}]`
	if got := h.stderr.String(); !strings.Contains(got, want+"\n") {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestCorpusUnicodePropertyEscapes: \p{…} in u-mode patterns matches as in
// Node (goja alone never matched them).
func TestCorpusUnicodePropertyEscapes(t *testing.T) {
	t.Parallel()
	wantLines(t, logOf(t, `export default function () {
  // esbuild lowers a literal only when \p{…} is outside a class, so the
  // class form is built with the constructor here.
  const slug = "Héllo Wörld! 123".normalize("NFC").replace(new RegExp("[^\\p{L}\\p{N}]+", "gu"), "-").toLowerCase();
  console.log("props", /\p{L}+/u.test("é"), /^\p{Lu}/u.test("Éa"), /\P{L}/u.test("abc"), slug, "a😀b".replace(/\p{Extended_Pictographic}/gu, "*"), /\p{Script=Greek}/u.test("α"), /[\p{Emoji_Presentation}]/u.test("x"));
  const re = new RegExp("\\p{N}+", "gu");
  console.log("ctor", "a12b3".match(re).join(","), re instanceof RegExp, re.constructor === RegExp, /x/ instanceof RegExp, typeof RegExp.prototype.exec);
  class R extends RegExp {}
  console.log("subclass", new R("\\p{L}", "u").test("é"), new R("a") instanceof R);
}
`),
		"props true true false héllo-wörld-123 a*b true false\n",
		"ctor 12,3 true true true function\n",
		"subclass true true\n",
	)
}

// TestCorpusTypeboxErrors: Value.Parse/Assert errors keep Error's name, as
// typebox's classes do not set one.
func TestCorpusTypeboxErrors(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `import { Type } from "typebox";
import { Value, ParseError, AssertError } from "typebox/value";
export default function () {
  try { Value.Parse(Type.Object({ n: Type.Number() }), { n: "x" }); } catch (e: any) { console.log("parse", e.name, e.message, e instanceof ParseError, e instanceof AssertError, e.cause.source, Array.isArray(e.cause.errors)); }
}
`})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	if got := h.stderr.String(); !strings.Contains(got, "parse Error Parse true true Parse true\n") {
		t.Errorf("got %s", got)
	}
}
