package jsruntime

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// installHostBuiltins replaces the inert __host defaults with Go-backed
// versions: built-in tool factories over the real tools and random bytes
// from crypto/rand.
func (a *API) installHostBuiltins(r *Runtime) {
	vm := r.vm
	host := r.host
	_ = host.Set("randomBytes", func(n int) goja.Value {
		if n < 0 || n > 1<<16 {
			n = 0
		}
		b := make([]byte, n)
		_, _ = rand.Read(b)
		out := make([]any, n)
		for i, x := range b {
			out[i] = int(x)
		}
		return vm.ToValue(out)
	})
	if a.opts.MutationQueue != nil {
		_ = host.Set("withFileMutationQueue", a.withFileMutationQueue)
	}
	if a.opts.Builtin == nil {
		return
	}
	_ = host.Set("createTool", func(name, cwd string, _ goja.Value, definition bool) (goja.Value, error) {
		if cwd == "" {
			cwd = a.opts.Cwd
		}
		t, ok := a.opts.Builtin(name, cwd)
		if !ok {
			return nil, fmt.Errorf("unknown built-in tool %q", name)
		}
		// The reference's create*Tool factories return the wrapped tool,
		// which drops promptSnippet and promptGuidelines; only the shell
		// tools copy them back. An extension re-registering such a tool
		// therefore leaves it out of the prompt's tool list and rules.
		keepPrompt := definition || name == "bash" || name == "powershell"
		return a.toolObject(vm, t, keepPrompt)
	})
}

// toolObject wraps an engine.Tool as a JS tool definition whose execute
// runs the Go tool on its own goroutine.
func (a *API) toolObject(vm *goja.Runtime, t engine.Tool, keepPrompt bool) (goja.Value, error) {
	info := t.Info()
	def := vm.NewObject()
	_ = def.Set("name", info.Name)
	_ = def.Set("label", info.Label)
	_ = def.Set("description", info.Description)
	params := goja.Value(vm.NewObject())
	if len(info.Parameters) > 0 {
		var p any
		if err := json.Unmarshal(info.Parameters, &p); err == nil {
			parsed, err := vm.RunString("(" + string(info.Parameters) + ")")
			if err == nil {
				params = parsed
			}
		}
	}
	_ = def.Set("parameters", params)
	// Built-in definitions carry the default constrained-sampling mode,
	// which a spread re-registration keeps.
	if cs, err := vm.RunString(`({ type: "json_schema", strict: "prefer" })`); err == nil {
		_ = def.Set("constrainedSampling", cs)
	}
	if info.PromptSnippet != "" && keepPrompt {
		_ = def.Set("promptSnippet", info.PromptSnippet)
	}
	if len(info.PromptGuidelines) > 0 && keepPrompt {
		_ = def.Set("promptGuidelines", info.PromptGuidelines)
	}
	jsonParse, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	toJS := func(r engine.ToolResult) goja.Value {
		b, err := engine.MarshalJSON(r)
		if err != nil {
			return goja.Undefined()
		}
		v, err := jsonParse(goja.Undefined(), vm.ToValue(string(b)))
		if err != nil {
			return goja.Undefined()
		}
		return v
	}
	_ = def.Set("execute", func(c goja.FunctionCall) goja.Value {
		id := c.Argument(0).String()
		argsJSON := "{}"
		if p := c.Argument(1); !goja.IsUndefined(p) && !goja.IsNull(p) {
			if b, err := json.Marshal(p.Export()); err == nil {
				argsJSON = string(b)
			}
		}
		onUpdate, _ := goja.AssertFunction(c.Argument(3))
		ctx, cancel := context.WithCancel(context.Background())
		onAbort(vm, c.Argument(2), cancel)
		promise, resolve, reject := vm.NewPromise()
		settle := a.rt.loop.Reserve()
		go func() {
			defer cancel()
			res, err := t.Execute(ctx, engine.ToolCall{ID: id, Name: info.Name, Args: json.RawMessage(argsJSON)}, func(p engine.ToolResult) {
				if onUpdate == nil {
					return
				}
				a.rt.loop.RunOnLoop(func(vm *goja.Runtime) { _, _ = onUpdate(goja.Undefined(), toJS(p)) })
			})
			settle(func(vm *goja.Runtime) {
				switch {
				case err != nil:
					_ = reject(vm.NewGoError(err))
				case res.IsError:
					// Built-in tools throw on failure in the reference;
					// the thrown message is the result's text.
					msg := ""
					for _, b := range res.Content {
						if b.Type == "text" {
							msg += b.Text
						}
					}
					_ = reject(vm.NewGoError(fmt.Errorf("%s", msg)))
				default:
					_ = resolve(toJS(res))
				}
			})
		}()
		return vm.ToValue(promise)
	})
	return def, nil
}

// withFileMutationQueue runs fn (which may return a promise) inside the
// host's per-file mutation queue, so an extension's edit of a file waits
// for the built-in tools' edits of it and the other way round. A goroutine
// holds the queue slot while fn runs on the loop; the returned promise
// settles with fn's outcome.
func (a *API) withFileMutationQueue(path string, fn goja.Callable) goja.Value {
	vm := a.rt.vm
	if !filepath.IsAbs(path) {
		path = filepath.Join(a.opts.Cwd, path)
	}
	promise, resolve, reject := vm.NewPromise()
	wait, release, qerr := a.opts.MutationQueue(path)
	if qerr != nil {
		_ = reject(vm.NewGoError(qerr))
		return vm.ToValue(promise)
	}
	settle := a.rt.loop.Reserve()
	go func() {
		var value, failure goja.Value
		failed := false
		_ = func() error {
			defer release()
			wait()
			done := make(chan struct{})
			ok := a.rt.loop.RunOnLoop(func(vm *goja.Runtime) {
				finish := func(v goja.Value, bad bool) {
					value, failed = v, bad
					if bad {
						failure = v
					}
					close(done)
				}
				v, err := fn(goja.Undefined())
				if err != nil {
					if ex, ok := err.(*goja.Exception); ok {
						finish(ex.Value(), true)
					} else {
						finish(vm.NewGoError(err), true)
					}
					return
				}
				// Await whatever fn returned, promise or not.
				res, _ := goja.AssertFunction(vm.Get("Promise").ToObject(vm).Get("resolve"))
				p, err := res(vm.Get("Promise"), v)
				if err != nil {
					finish(vm.NewGoError(err), true)
					return
				}
				then, _ := goja.AssertFunction(p.ToObject(vm).Get("then"))
				_, _ = then(p, vm.ToValue(func(x goja.Value) { finish(x, false) }), vm.ToValue(func(x goja.Value) { finish(x, true) }))
			})
			if !ok {
				return nil
			}
			<-done
			return nil
		}()
		settle(func(*goja.Runtime) {
			if failed {
				_ = reject(failure)
				return
			}
			_ = resolve(value)
		})
	}()
	return vm.ToValue(promise)
}

// onAbort calls cancel when signal, an AbortSignal (or anything with
// addEventListener and aborted), aborts, or at once if it already has;
// anything else is ignored.
func onAbort(vm *goja.Runtime, signal goja.Value, cancel func()) {
	sig, ok := signal.(*goja.Object)
	if !ok {
		return
	}
	if add, ok := goja.AssertFunction(sig.Get("addEventListener")); ok {
		_, _ = add(sig, vm.ToValue("abort"), vm.ToValue(func() { cancel() }))
	}
	if aborted := sig.Get("aborted"); aborted != nil && aborted.ToBoolean() {
		cancel()
	}
}
