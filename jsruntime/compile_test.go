package jsruntime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCompileCache(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	agent := filepath.Join(dir, "agent")
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ext.ts", `import { v } from "./dep"; export default function (pi) { console.log(v); }`)
	write("dep.ts", `export const v = 1;`)
	entry := filepath.Join(dir, "ext.ts")
	c := NewCompiler(agent)
	ctx := context.Background()
	steps := []struct {
		name       string
		before     func()
		wantCached bool
		wantCode   string
	}{
		{"cold", nil, false, "v = 1"},
		{"warm", nil, true, "v = 1"},
		{"dependency changed", func() { write("dep.ts", `export const v = 2;`) }, false, "v = 2"},
		{"warm again", nil, true, "v = 2"},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		b, err := c.Compile(ctx, entry)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if b.Cached != s.wantCached || !strings.Contains(b.Code, s.wantCode) {
			t.Errorf("%s: cached=%v, code has %q: %v", s.name, b.Cached, s.wantCode, strings.Contains(b.Code, s.wantCode))
		}
		if len(b.Inputs) != 2 {
			t.Errorf("%s: inputs = %v", s.name, b.Inputs)
		}
	}
	list, _ := os.ReadDir(filepath.Join(agent, "cache", "extensions"))
	if len(list) != 1 {
		t.Errorf("cache dir holds %d files, want 1", len(list))
	}
}

func TestCompileAllKeepsOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var entries []string
	for _, n := range []string{"a", "b", "bad", "c"} {
		p := filepath.Join(dir, n+".ts")
		src := "export default function () { return \"" + n + "\"; }"
		if n == "bad" {
			src = "export default function ( {"
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, p)
	}
	res := NewCompiler("").CompileAll(context.Background(), entries)
	for i, r := range res {
		if (r.Err != nil) != (i == 2) {
			t.Errorf("entry %d: err = %v", i, r.Err)
		}
		if r.Err == nil && r.Bundle.Entry != entries[i] {
			t.Errorf("entry %d: bundle for %s", i, r.Bundle.Entry)
		}
	}
}

func TestBundleKeepsAsyncAndLowersForAwait(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "ext.ts")
	src := `export default async function () { for await (const x of [1]) { void x; } const m = await import("node:path"); return m; }`
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := NewCompiler("").Compile(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	code := b.Code[:strings.Index(b.Code, "//# sourceMappingURL")]
	if strings.Contains(code, "for await (") || strings.Contains(code, "await import(") {
		t.Errorf("async iteration or dynamic import left in bundle:\n%s", code)
	}
	if !strings.Contains(code, "async function ext_default") {
		t.Errorf("async functions should be kept:\n%s", code)
	}
}

func TestRuntimeErrorsMapToSource(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": "type T = { a: string };\n\nexport default function (pi: any) {\n  setTimeout(() => {\n    const e = new Error(\"where\");\n    console.log(e.stack);\n  }, 1);\n}\n"},
		func(o *LoadOptions) { o.Watchdog = 5 * time.Second })
	h.settle(t)
	if !strings.Contains(h.stderr.String(), "ext.ts:5:") {
		t.Errorf("stack does not point at ext.ts:5: %q", h.stderr.String())
	}
}

// TestCompileAllTogether checks that entries of one directory built in
// one esbuild run give what single runs give (code, inputs, including a
// types-only module), that an error in one entry stays with it, and that
// the together-built bundles are cached.
func TestCompileAllTogether(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		files   map[string]string
		entries []string
		wantErr map[string]bool
	}{
		{
			name: "same directory",
			files: map[string]string{
				"a.ts":     `import type { T } from "./types"; import { v } from "./dep"; export default function (pi: T) { console.log(v, import.meta.url); }`,
				"b.ts":     `import { Type } from "typebox"; export default function (pi) { pi.x = Type.String(); }`,
				"c.js":     `module.exports = function (pi) { console.log(__dirname); };`,
				"dep.ts":   `export const v = 1;`,
				"types.ts": `export interface T { x: number }`,
			},
			entries: []string{"a.ts", "b.ts", "c.js"},
		},
		{
			name: "directories and an error",
			files: map[string]string{
				"x/index.ts": `export default function () {}`,
				"y/index.ts": `export default function () {}`,
				"y/bad.ts":   `export default function ( {`,
				"y/ok.ts":    `import "./missing-helper"; export default function () {}`,
			},
			entries: []string{"x/index.ts", "y/index.ts", "y/bad.ts", "y/ok.ts", "y/absent.ts"},
			wantErr: map[string]bool{"y/bad.ts": true, "y/ok.ts": true, "y/absent.ts": true},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, src := range tc.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var entries []string
			for _, e := range tc.entries {
				entries = append(entries, filepath.Join(dir, e))
			}
			ctx := context.Background()
			c := NewCompiler(filepath.Join(dir, "agent"))
			got := c.CompileAll(ctx, entries)
			for i, e := range entries {
				single, serr := NewCompiler("").Compile(ctx, e)
				if (got[i].Err != nil) != tc.wantErr[tc.entries[i]] || (serr != nil) != tc.wantErr[tc.entries[i]] {
					t.Fatalf("%s: together err %v, single err %v", tc.entries[i], got[i].Err, serr)
				}
				if serr != nil {
					if got[i].Err.Error() != serr.Error() {
						t.Errorf("%s: error %q, single %q", tc.entries[i], got[i].Err, serr)
					}
					continue
				}
				if got[i].Bundle.Code != single.Code {
					t.Errorf("%s: code differs from a single build", tc.entries[i])
				}
				if strings.Join(got[i].Bundle.Inputs, ",") != strings.Join(single.Inputs, ",") {
					t.Errorf("%s: inputs %v, single %v", tc.entries[i], got[i].Bundle.Inputs, single.Inputs)
				}
				if b, err := c.Compile(ctx, e); err != nil || !b.Cached {
					t.Errorf("%s: not cached after CompileAll (%v)", tc.entries[i], err)
				}
			}
		})
	}
}
