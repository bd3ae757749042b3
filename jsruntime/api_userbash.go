package jsruntime

import (
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// userBashSinks routes the raw output of running user_bash operations to
// their RPC command: the JS side numbers each kept operations object, so
// the key is the API and that number.
var userBashSinks sync.Map // userBashKey -> func([]byte)

type userBashKey struct {
	a  *API
	id int
}

// bridgeUserBash installs the G functions the user_bash operations call
// back: userBashData(id, chunk) with a Buffer, Uint8Array or string chunk.
func (a *API) bridgeUserBash(g *goja.Object) {
	a.installLocalBashOps(a.rt)
	_ = g.Set("userBashData", func(id int, v goja.Value) {
		if f, ok := userBashSinks.Load(userBashKey{a, id}); ok {
			if b := jsChunkBytes(v); len(b) > 0 {
				f.(func([]byte))(b)
			}
		}
	})
}

// jsChunkBytes copies what an onData callback received: the reference
// decodes Buffers as UTF-8 and its callers sometimes pass strings.
func jsChunkBytes(v goja.Value) []byte {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	switch x := v.Export().(type) {
	case string:
		return []byte(x)
	case []byte:
		return append([]byte(nil), x...)
	case goja.ArrayBuffer:
		return append([]byte(nil), x.Bytes()...)
	}
	return []byte(v.String())
}

// runUserBashOps runs the operations a user_bash handler returned (kept
// as number id by the dispatcher) for command in cwd. Output chunks go to
// onData as they arrive; cancelling ctx aborts the exec's signal and the
// call still waits for exec to settle, as the reference awaits it.
func (a *API) runUserBashOps(ctx context.Context, id int, command, cwd string, onData func([]byte)) (*int, error) {
	key := userBashKey{a, id}
	userBashSinks.Store(key, onData)
	defer userBashSinks.Delete(key)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			a.rt.loop.RunOnLoop(func(vm *goja.Runtime) {
				if abort, ok := goja.AssertFunction(a.bridgeObj.Get("userBashAbort")); ok {
					_, _ = abort(goja.Undefined(), vm.ToValue(id))
				}
			})
		case <-done:
		}
	}()
	out, err := a.callJS(context.WithoutCancel(ctx), func(vm *goja.Runtime, ok, fail goja.Value) error {
		exec, isFn := goja.AssertFunction(a.bridgeObj.Get("userBashExec"))
		if !isFn {
			return errors.New("user_bash operations are not available")
		}
		_, err := exec(goja.Undefined(), vm.ToValue(id), vm.ToValue(command), vm.ToValue(cwd), ok, fail)
		return err
	})
	if err != nil {
		return nil, err
	}
	if out == "" {
		return nil, nil
	}
	code, err := strconv.Atoi(out)
	if err != nil {
		return nil, nil
	}
	return &code, nil
}

// installLocalBashOps backs createLocalBashOperations() of the
// pi-coding-agent module: an exec(command, cwd, {onData, signal, timeout})
// that runs the local shell and resolves {exitCode}, so a user_bash
// handler can wrap pi's own backend.
func (a *API) installLocalBashOps(r *Runtime) {
	if a.opts.LocalShell == nil || r.host == nil {
		return
	}
	_ = r.host.Set("createLocalBashOperations", func(c goja.FunctionCall) goja.Value {
		vm := r.vm
		ops := vm.NewObject()
		_ = ops.Set("exec", func(c goja.FunctionCall) goja.Value {
			return a.localBashExec(vm, c.Argument(0).String(), c.Argument(1).String(), c.Argument(2))
		})
		return ops
	})
}

func (a *API) localBashExec(vm *goja.Runtime, command, cwd string, optsV goja.Value) goja.Value {
	ctx, cancel := context.WithCancel(context.Background())
	var onData goja.Callable
	var timeout *float64
	if o, ok := optsV.(*goja.Object); ok {
		onData, _ = goja.AssertFunction(o.Get("onData"))
		if t := o.Get("timeout"); t != nil && !goja.IsUndefined(t) && !goja.IsNull(t) {
			f := t.ToFloat()
			timeout = &f
		}
		onAbort(vm, o.Get("signal"), cancel)
	}
	promise, resolve, reject := vm.NewPromise()
	settle := a.rt.loop.Reserve()
	go func() {
		defer cancel()
		code, err := a.opts.LocalShell(ctx, command, cwd, timeout, func(b []byte) {
			if onData == nil {
				return
			}
			chunk := append([]byte(nil), b...)
			a.rt.loop.RunOnLoop(func(vm *goja.Runtime) { _, _ = onData(goja.Undefined(), buffer.WrapBytes(vm, chunk)) })
		})
		settle(func(vm *goja.Runtime) {
			if err != nil {
				_ = reject(vm.NewGoError(err))
				return
			}
			res := vm.NewObject()
			_ = res.Set("exitCode", code)
			_ = resolve(res)
		})
	}()
	return vm.ToValue(promise)
}
