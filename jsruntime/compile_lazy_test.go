package jsruntime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLazyMissingModules checks the reference loader's laziness: an
// extension that statically imports a module that is not installed loads,
// and the import fails with Node's "Cannot find module" only when a
// binding is used; a require() of one throws at the call, inside the
// extension's try/catch, as in Node; a native addon loads as a stand-in
// whose functions fail with a clear error when called.
func TestLazyMissingModules(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"ext.ts": `
import { register } from "@scope/not-installed/registration";
import def, * as ns from "not-installed-either";
import { helper } from "./lib.ts";
import addon from "./node_modules/fake-addon/index.js";
export default function (pi: any) {
  console.log("loaded", typeof helper);
  try { register("x"); } catch (e: any) { console.log("use:", e.code, e.message.split("\n")[0]); console.log("stack:", e.requireStack[0]); }
  try { def(); } catch (e: any) { console.log("default:", e.code); }
  try { ns.thing; } catch (e: any) { console.log("namespace:", e.code); }
  try { require("optional-dep"); } catch (e: any) { console.log("require:", e.message.split("\n")[0]); }
  console.log("addon shape:", typeof addon.Lang, typeof addon.Lang.TypeScript);
  try { addon.parse("x"); } catch (e: any) { console.log("addon:", e.code, e.message.replace(/'[^']*'/, "'<p>'")); }
  import("dynamic-missing").catch((e: any) => console.log("dynamic:", e.message.split("\n")[0]));
}
`,
		"lib.ts": `export function helper() {}`,
		// A napi-rs style loader: requires the addon and copies its
		// exports at load.
		"node_modules/fake-addon/index.js": `
const binding = require("./fake.linux-x64-gnu.node");
module.exports = { parse: binding.parse, Lang: binding.Lang };
`,
		"node_modules/fake-addon/fake.linux-x64-gnu.node": "\x7fELF not really",
	}
	h := runTS(t, files)
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	got := h.stderr.String()
	wantLines(t, got,
		"loaded function",
		"use: MODULE_NOT_FOUND Cannot find module '@scope/not-installed/registration'",
		"default: MODULE_NOT_FOUND",
		"namespace: MODULE_NOT_FOUND",
		"require: Cannot find module 'optional-dep'",
		"addon shape: function function",
		"addon: ERR_DLOPEN_FAILED Cannot load native addon '<p>': native addons (.node files) are not supported in pi-go extensions",
		"dynamic: Cannot find module 'dynamic-missing'",
	)
	// The require stack names the importing file, as Node's does.
	wantLines(t, got, "stack: "+filepath.Join(h.dir, "ext.ts"))
}

// TestLazyMissingNotCached checks that a bundle with stand-ins is rebuilt
// on the next load, so installing the missing module takes effect.
func TestLazyMissingNotCached(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	entry := filepath.Join(dir, "ext.ts")
	writeTestFile(t, entry, `import { v } from "later-pkg"; export default function () { console.log("v=" + v); }`)
	c := &Compiler{CacheDir: filepath.Join(dir, "cache")}
	if _, err := c.Compile(t.Context(), entry); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.lookup(entry); ok {
		t.Fatal("a bundle with a missing module was cached")
	}
	writeTestFile(t, filepath.Join(dir, "node_modules", "later-pkg", "index.js"), `exports.v = 7;`)
	b, err := c.Compile(t.Context(), entry)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Code, "exports2.v = 7") {
		t.Errorf("the installed module was not bundled:\n%s", b.Code)
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestImportMetaResolve runs testdata/import_meta_resolve.mjs as an
// extension and compares its output with Node 22's.
func TestImportMetaResolve(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile("testdata/import_meta_resolve.mjs")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/import_meta_resolve.golden")
	if err != nil {
		t.Fatal(err)
	}
	h := runTS(t, map[string]string{
		// The golden was recorded with the script as t.mjs.
		"ext.ts":                        strings.ReplaceAll(string(script), "process.cwd()", "__dirname") + "\nexport default function () {}\n",
		"node_modules/foo/package.json": `{"name":"foo","exports":{".":{"import":"./lib/m.mjs","require":"./lib/c.cjs"}}}`,
		"node_modules/foo/lib/m.mjs":    "",
	})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	got := strings.ReplaceAll(h.stderr.String(), "ext.ts", "t.mjs")
	if got != string(golden) {
		t.Errorf("got:\n%s\nwant (Node 22):\n%s", got, golden)
	}
}
