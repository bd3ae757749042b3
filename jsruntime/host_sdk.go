package jsruntime

import (
	"context"
	"errors"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine/config"
)

// installSDKHost gives the SDK classes of the coding-agent package
// (hostjs/pi_internal_sdk.js) the natives they cannot do in JavaScript:
// settingsEdit runs the SettingsManager's read-modify-write of a
// settings.json under the lock and through the atomic writer of
// engine/config, so an extension's setter and our own settings writes
// (and a running reference's) never interleave.
func (r *Runtime) installSDKHost() {
	vm := r.vm
	_ = r.host.Set("settingsEdit", func(c goja.FunctionCall) goja.Value {
		path := c.Argument(0).String()
		fn, ok := goja.AssertFunction(c.Argument(1))
		if !ok {
			panic(vm.NewTypeError("settingsEdit: the edit is not a function"))
		}
		var thrown *goja.Exception
		err := config.EditSettingsFileLocked(context.Background(), path, func(current []byte, exists bool) ([]byte, bool, error) {
			arg := goja.Undefined()
			if exists {
				arg = vm.ToValue(string(current))
			}
			v, err := fn(goja.Undefined(), arg)
			if err != nil {
				if !errors.As(err, &thrown) {
					return nil, false, err
				}
				return nil, false, err
			}
			if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
				return nil, false, nil
			}
			return []byte(v.String()), true, nil
		})
		if thrown != nil {
			panic(thrown)
		}
		if err != nil {
			panic(vm.NewGoError(err))
		}
		return goja.Undefined()
	})
}
