package vmod

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// exportTypes evaluates a host module in a bare runtime and returns
// name -> typeof for its exports (or for one member object, "module#Member").
func exportTypes(t *testing.T, v *vm, spec string) map[string]string {
	t.Helper()
	module, member, _ := strings.Cut(spec, "#")
	src := "var m = require(" + quoteJS(module) + ");"
	if member != "" {
		src += "m = m[" + quoteJS(member) + "];"
	}
	src += "var o = {}; Object.keys(m).forEach(function(k){ o[k] = typeof m[k]; }); return o;"
	var out map[string]string
	if err := json.Unmarshal([]byte(v.eval(t, src)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExportsMatchReference checks that every value the reference's host
// modules export exists in ours with the same typeof, so any import an
// extension writes resolves to something of the right shape.
func TestExportsMatchReference(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "reference", "exports.json"))
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
	for _, spec := range specs {
		t.Run(spec, func(t *testing.T) {
			t.Parallel()
			got := exportTypes(t, newVM(t, nil), spec)
			var missing []string
			for name, typ := range want[spec] {
				if got[name] != typ {
					missing = append(missing, name+" (want "+typ+", got "+got[name]+")")
				}
			}
			sort.Strings(missing)
			if len(missing) > 0 {
				t.Errorf("%d exports differ:\n%s", len(missing), strings.Join(missing, "\n"))
			}
		})
	}
}

// TestExampleImportsExist checks every value the reference's example
// extensions import, through the module name they use (aliases included).
func TestExampleImportsExist(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "reference", "example-imports.json"))
	if err != nil {
		t.Fatal(err)
	}
	var imports map[string][]string
	if err := json.Unmarshal(raw, &imports); err != nil {
		t.Fatal(err)
	}
	v := newVM(t, nil)
	for module, names := range imports {
		got := exportTypes(t, v, module)
		for _, name := range names {
			if name == "*" || name == "default" {
				continue
			}
			if got[name] == "" || got[name] == "undefined" {
				t.Errorf("%s: %s is not exported", module, name)
			}
		}
	}
}

// TestAliasesResolve checks that every alias names a module in Sources and
// that each module loads in a bare runtime with no __host.
func TestAliasesResolve(t *testing.T) {
	t.Parallel()
	for alias, target := range Aliases {
		if _, ok := Sources[target]; !ok {
			t.Errorf("alias %s -> %s: no such module", alias, target)
		}
	}
	v := newVM(t, nil)
	names := make([]string, 0, len(Sources)+len(Aliases))
	for n := range Sources {
		names = append(names, n)
	}
	for n := range Aliases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v.eval(t, "return typeof require("+quoteJS(n)+");")
	}
	if _, ok := Canonical("node:fs"); ok {
		t.Error("node:fs must not be a host module")
	}
	if c, ok := Canonical("@sinclair/typebox"); !ok || c != "typebox" {
		t.Errorf("Canonical(@sinclair/typebox) = %q, %v", c, ok)
	}
}
