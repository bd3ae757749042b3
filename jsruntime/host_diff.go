package jsruntime

import (
	"github.com/dop251/goja"

	"github.com/pi-go/pi/builtins"
)

// installDiffHost gives the coding-agent package the SDK's diff helpers,
// computed by the same Go code as the edit tool's details: extensions
// summarising edits (edit-summary counts the +/- lines of
// generateUnifiedPatch) see the reference's text.
func (r *Runtime) installDiffHost() {
	vm := r.vm
	contextOf := func(v goja.Value) int {
		if v == nil || goja.IsUndefined(v) {
			return 4
		}
		return int(v.ToInteger())
	}
	_ = r.host.Set("generateUnifiedPatch", func(c goja.FunctionCall) goja.Value {
		return vm.ToValue(builtins.UnifiedPatch(c.Argument(0).String(), c.Argument(1).String(), c.Argument(2).String(), contextOf(c.Argument(3))))
	})
	_ = r.host.Set("generateDiffString", func(c goja.FunctionCall) goja.Value {
		diff, first := builtins.DisplayDiff(c.Argument(0).String(), c.Argument(1).String(), contextOf(c.Argument(2)))
		o := vm.NewObject()
		_ = o.Set("diff", diff)
		if first > 0 {
			_ = o.Set("firstChangedLine", first)
		} else {
			_ = o.Set("firstChangedLine", goja.Undefined())
		}
		return o
	})
}
