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
	"testing"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/jsruntime/vmod"
)

var update = flag.Bool("update", false, "rewrite generated files (vmod/js/exports.json)")

// realExportNames evaluates every vmod module eagerly and returns the own
// property names of the modules that may load lazily (a plain exports
// object whose only non-enumerable property is __esModule === true).
func realExportNames(t *testing.T) map[string][]string {
	t.Helper()
	r, err := New(LoadOptions{VirtualSources: defaultVirtualSources()})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := map[string][]string{}
	err = r.loop.do(context.Background(), func(vm *goja.Runtime) error {
		check, err := vm.RunString(`(function (o) {
			if (o === null || typeof o !== "object" || Object.getPrototypeOf(o) !== Object.prototype) return null;
			const names = Object.getOwnPropertyNames(o);
			for (const n of names) {
				const d = Object.getOwnPropertyDescriptor(o, n);
				if (n === "__esModule" ? (d.value !== true || d.enumerable) : !d.enumerable) return null;
			}
			if (Object.getOwnPropertySymbols(o).length) return null;
			return names;
		})`)
		if err != nil {
			return err
		}
		fn, _ := goja.AssertFunction(check)
		for name := range defaultVirtualSources() {
			v, err := fn(goja.Undefined(), r.require(name))
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			var names []string
			if err := vm.ExportTo(v, &names); err == nil && names != nil {
				out[name] = names
			}
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
			nb, _ := json.Marshal(got[k])
			fmt.Fprintf(&buf, "  %s: %s", kb, nb)
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
		want, ok := vmod.ExportNames(k)
		if !ok || !slices.Equal(want, got[k]) {
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
		{"pi-coding-agent helpers leave pi-tui alone", `typeof require("@earendil-works/pi-coding-agent").getAgentDir`, "function", []string{"@earendil-works/pi-coding-agent"}},
		{"read evaluates", `typeof require("@earendil-works/pi-tui").Text`, "function", []string{"@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"}},
		{"identity", `const m = require("@earendil-works/pi-tui"); String(m.Text === m.Text && new m.Text("x") instanceof m.Text)`, "true", []string{"@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"}},
		{"legacy name shares the stand-in", `String(require("@mariozechner/pi-tui") === require("@earendil-works/pi-tui"))`, "true", []string{"@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"}},
		{"components load pi-tui", `const m = require("@earendil-works/pi-coding-agent"); String(new m.DynamicBorder() instanceof require("@earendil-works/pi-tui").Container && m.DynamicBorder === m.DynamicBorder)`, "true", []string{"@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"}},
	}
	names, _ := vmod.ExportNames("@earendil-works/pi-tui")
	namesJSON, _ := json.Marshal(names)
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
