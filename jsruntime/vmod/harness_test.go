package vmod

import (
	"fmt"
	"testing"

	"github.com/dop251/goja"
)

// vm is a bare goja runtime with a require that resolves only host modules
// from Sources, the way the real runtime evaluates them.
type vm struct {
	rt    *goja.Runtime
	cache map[string]goja.Value
	host  goja.Value
}

func newVM(t *testing.T, host map[string]any) *vm {
	t.Helper()
	v := &vm{rt: goja.New(), cache: map[string]goja.Value{}}
	v.rt.SetFieldNameMapper(goja.UncapFieldNameMapper())
	if host != nil {
		v.host = v.rt.ToValue(host)
	} else {
		v.host = goja.Undefined()
	}
	if err := v.rt.Set("require", v.require); err != nil {
		t.Fatal(err)
	}
	return v
}

func (v *vm) require(name string) goja.Value {
	canonical, ok := Canonical(name)
	if !ok {
		panic(v.rt.NewGoError(fmt.Errorf("Cannot find module '%s'", name)))
	}
	if cached, ok := v.cache[canonical]; ok {
		return cached
	}
	wrapped := "(function(exports, require, module, __host){" + Sources[canonical] + "\n})"
	prog, err := goja.Compile(canonical, wrapped, true)
	if err != nil {
		panic(v.rt.NewGoError(fmt.Errorf("compile %s: %w", canonical, err)))
	}
	fnVal, err := v.rt.RunProgram(prog)
	if err != nil {
		panic(v.rt.NewGoError(fmt.Errorf("run %s: %w", canonical, err)))
	}
	fn, _ := goja.AssertFunction(fnVal)
	module := v.rt.NewObject()
	exports := v.rt.NewObject()
	_ = module.Set("exports", exports)
	v.cache[canonical] = exports
	if _, err := fn(goja.Undefined(), exports, v.rt.Get("require"), module, v.host); err != nil {
		panic(err)
	}
	out := module.Get("exports")
	v.cache[canonical] = out
	return out
}

// eval runs JavaScript and returns its result as JSON text.
func (v *vm) eval(t *testing.T, src string) string {
	t.Helper()
	val, err := v.rt.RunString("JSON.stringify((function(){ " + src + " })())")
	if err != nil {
		t.Fatalf("eval %q: %v", src, err)
	}
	return val.String()
}
