package jsruntime

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/jsruntime/vmod"
)

var update = flag.Bool("update", false, "rewrite generated files (vmod/js/exports.json)")

// realExportNames evaluates every vmod package eagerly and returns how
// the packages that may load lazily (a plain exports object whose only
// non-enumerable property is __esModule === true) export: their own
// property names, and those their core module exports with the same value.
func realExportNames(t *testing.T) map[string]vmod.LazyExports {
	t.Helper()
	r, err := New(LoadOptions{VirtualSources: defaultVirtualSources()})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := map[string]vmod.LazyExports{}
	err = r.loop.do(context.Background(), func(vm *goja.Runtime) error {
		check, err := vm.RunString(`(function (o, core) {
			if (o === null || typeof o !== "object" || Object.getPrototypeOf(o) !== Object.prototype) return null;
			const names = Object.getOwnPropertyNames(o);
			for (const n of names) {
				const d = Object.getOwnPropertyDescriptor(o, n);
				if (n === "__esModule" ? (d.value !== true || d.enumerable) : !d.enumerable) return null;
			}
			if (Object.getOwnPropertySymbols(o).length) return null;
			const coreNames = core ? names.filter((n) => n !== "__esModule" &&
				Object.prototype.hasOwnProperty.call(core, n) && core[n] !== undefined && core[n] === o[n]) : [];
			return { names, coreNames };
		})`)
		if err != nil {
			return err
		}
		fn, _ := goja.AssertFunction(check)
		for name := range defaultVirtualSources() {
			if strings.HasPrefix(name, "pi:internal/") || vmod.Eager[name] {
				continue // internal parts are required eagerly by their package
			}
			core := goja.Undefined()
			if c, ok := vmod.Cores[name]; ok {
				core = r.require(c)
			}
			v, err := fn(goja.Undefined(), r.require(name), core)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if goja.IsNull(v) {
				continue
			}
			var ex vmod.LazyExports
			if err := vm.ExportTo(v, &ex); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if len(ex.CoreNames) == 0 {
				ex.CoreNames = nil
			}
			out[name] = ex
		}
		return nil
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLazyExportNames keeps vmod/js/exports.json, the export names the
// lazy stand-ins are built from, equal to what the modules really export.
func TestLazyExportNames(t *testing.T) {
	t.Parallel()
	got := realExportNames(t)
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	path := filepath.Join("vmod", "js", "exports.json")
	if *update {
		var buf bytes.Buffer
		buf.WriteString("{\n")
		for i, k := range keys {
			kb, _ := json.Marshal(k)
			eb, _ := json.Marshal(got[k])
			fmt.Fprintf(&buf, "  %s: %s", kb, eb)
			if i < len(keys)-1 {
				buf.WriteString(",")
			}
			buf.WriteString("\n")
		}
		buf.WriteString("}\n")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, k := range keys {
		want, ok := vmod.Lazy(k)
		if !ok || !slices.Equal(want.Names, got[k].Names) || !slices.Equal(want.CoreNames, got[k].CoreNames) {
			t.Errorf("%s: exports.json is stale (go test ./jsruntime -run TestLazyExportNames -update)", k)
		}
	}
}

// TestLazyModules checks the stand-ins: importing a package evaluates
// nothing, the stand-in has the real names in order, reading an export
// evaluates the package once and forwards to its real values.
func TestLazyModules(t *testing.T) {
	t.Parallel()
	r, err := New(LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tests := []struct {
		name, script string
		want         string
		evaluated    []string
	}{
		{"import only", `const t = require("@earendil-works/pi-tui"); String(t.__esModule)`, "true", nil},
		{"names in order", `JSON.stringify(Object.getOwnPropertyNames(require("@earendil-works/pi-tui")))`, "", nil},
		{"in and own keys answer without evaluating", `const m = require("@earendil-works/pi-tui"); String("Text" in m && !("nope" in m) && Object.getOwnPropertyNames(m).length > 50 && Reflect.ownKeys(m)[0] === "__esModule")`, "true", nil},
		{"core names come from the core", `const m = require("@earendil-works/pi-coding-agent"); typeof m.getAgentDir + typeof m.withFileMutationQueue + typeof require("@earendil-works/pi-ai").StringEnum`, "functionfunctionfunction", nil},
		{"other names evaluate the package", `typeof require("@earendil-works/pi-coding-agent").parseFrontmatter`, "function", []string{"@earendil-works/pi-coding-agent"}},
		{"core and package values are one", `const m = require("@earendil-works/pi-coding-agent"); String(m.getAgentDir === require("pi:internal/coding-agent-core").getAgentDir)`, "true", []string{"@earendil-works/pi-coding-agent"}},
		{"pi-coding-agent leaves pi-tui alone", `typeof require("@earendil-works/pi-coding-agent").convertToLlm`, "function", []string{"@earendil-works/pi-coding-agent"}},
		{"read evaluates", `typeof require("@earendil-works/pi-tui").Text`, "function", []string{"@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"}},
		{"identity", `const m = require("@earendil-works/pi-tui"); String(m.Text === m.Text && new m.Text("x") instanceof m.Text)`, "true", []string{"@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"}},
		{"legacy name shares the stand-in", `String(require("@mariozechner/pi-tui") === require("@earendil-works/pi-tui"))`, "true", []string{"@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"}},
		{"reads after evaluation are plain", `const d = Object.getOwnPropertyDescriptor(require("@earendil-works/pi-tui"), "Text"); String(typeof d.value === "function" && d.get === undefined)`, "true", []string{"@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"}},
		{"components load pi-tui", `const m = require("@earendil-works/pi-coding-agent"); String(new m.DynamicBorder() instanceof require("@earendil-works/pi-tui").Container && m.DynamicBorder === m.DynamicBorder)`, "true", []string{"@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"}},
		{"a write evaluates the package and sticks", `const m = require("@earendil-works/pi-ai"); m.StringEnum = 1; String(m.StringEnum) + typeof m.getModel`, "1function", []string{"@earendil-works/pi-coding-agent", "@earendil-works/pi-tui", "@earendil-works/pi-ai"}},
	}
	tuiExports, _ := vmod.Lazy("@earendil-works/pi-tui")
	namesJSON, _ := json.Marshal(tuiExports.Names)
	tests[1].want = string(namesJSON)
	// The cases run in order on one runtime: each sees what earlier ones
	// evaluated.
	for _, tc := range tests {
		var got string
		var evaluated []string
		err := r.loop.do(context.Background(), func(vm *goja.Runtime) error {
			_ = vm.Set("require", r.requireFn)
			// Each script in its own function scope, so their consts do
			// not collide.
			v, err := vm.RunString("(() => eval(" + strconv.Quote(tc.script) + "))()")
			if err != nil {
				return err
			}
			got = v.String()
			evaluated = append([]string(nil), r.evaluated...)
			return nil
		}, true)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
		if !slices.Equal(evaluated, tc.evaluated) {
			t.Errorf("%s: evaluated %v, want %v", tc.name, evaluated, tc.evaluated)
		}
	}
}
