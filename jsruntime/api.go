package jsruntime

import (
	"fmt"

	"github.com/dop251/goja"
	"github.com/pi-go/pi/internal/imagetype"
)

// Handler is one pi.on subscription. Handlers run in extension load order,
// then registration order.
type Handler struct {
	Event string
	Fn    goja.Callable
}

// ToolReg is one pi.registerTool call. Def is the definition object as the
// extension passed it (execute, parameters, renderers …); the API layer
// reads the rest of its fields from there.
type ToolReg struct {
	Name string
	Def  *goja.Object
}

// CommandReg is one pi.registerCommand call.
type CommandReg struct {
	Name    string
	Options *goja.Object // description, handler, getArgumentCompletions …
}

// FlagReg is one pi.registerFlag call.
type FlagReg struct {
	Name    string
	Options *goja.Object // description, type, default
}

// Call is a pi method the placeholder API does not know, recorded so tests
// and the API engineer can see what extensions use.
type Call struct {
	Method string
	Args   []goja.Value
}

// Extension is one loaded extension and what its factory registered.
type Extension struct {
	Source
	Handlers []Handler
	Tools    []ToolReg
	Commands []CommandReg
	Flags    []FlagReg
	Calls    []Call
	// Data is free for the API layer to hang per-extension state on.
	Data   map[string]any
	loaded bool
}

func newExtension(s Source) *Extension {
	return &Extension{Source: s, Data: map[string]any{}}
}

// placeholderAPI is the `pi` object until the real API exists: it records
// on/registerTool/registerCommand/registerFlag and accepts any other method
// through a Proxy, returning undefined, so every example's factory runs.
func (r *Runtime) placeholderAPI(ext *Extension) goja.Value {
	vm := r.vm
	target := vm.NewObject()
	set := func(name string, fn func(goja.FunctionCall) goja.Value) { _ = target.Set(name, fn) }
	set("on", func(c goja.FunctionCall) goja.Value {
		if fn, ok := goja.AssertFunction(c.Argument(1)); ok {
			ext.Handlers = append(ext.Handlers, Handler{Event: c.Argument(0).String(), Fn: fn})
		}
		return goja.Undefined()
	})
	set("registerTool", func(c goja.FunctionCall) goja.Value {
		def := c.Argument(0).ToObject(vm)
		ext.Tools = append(ext.Tools, ToolReg{Name: def.Get("name").String(), Def: def})
		return goja.Undefined()
	})
	set("registerCommand", func(c goja.FunctionCall) goja.Value {
		var opts *goja.Object
		if o, ok := c.Argument(1).(*goja.Object); ok {
			opts = o
		}
		ext.Commands = append(ext.Commands, CommandReg{Name: c.Argument(0).String(), Options: opts})
		return goja.Undefined()
	})
	set("registerFlag", func(c goja.FunctionCall) goja.Value {
		var opts *goja.Object
		if o, ok := c.Argument(1).(*goja.Object); ok {
			opts = o
		}
		ext.Flags = append(ext.Flags, FlagReg{Name: c.Argument(0).String(), Options: opts})
		return goja.Undefined()
	})
	set("getFlag", func(c goja.FunctionCall) goja.Value {
		name := c.Argument(0).String()
		for _, f := range ext.Flags {
			if f.Name == name && f.Options != nil {
				return f.Options.Get("default")
			}
		}
		return goja.Undefined()
	})
	events, _ := vm.RunString(`(function(){ const m = new Map(); return {
		on(n, f){ if(!m.has(n)) m.set(n, []); m.get(n).push(f); return () => { const a = m.get(n) || []; const i = a.indexOf(f); if (i >= 0) a.splice(i, 1); }; },
		emit(n, d){ for (const f of (m.get(n) || []).slice()) f(d); } }; })()`)
	_ = target.Set("events", events)
	proxy := vm.NewProxy(target, &goja.ProxyTrapConfig{
		Get: func(t *goja.Object, prop string, recv goja.Value) goja.Value {
			if v := t.Get(prop); v != nil {
				return v
			}
			if prop == "then" || prop == "toJSON" {
				return goja.Undefined()
			}
			return vm.ToValue(func(c goja.FunctionCall) goja.Value {
				ext.Calls = append(ext.Calls, Call{Method: prop, Args: append([]goja.Value(nil), c.Arguments...)})
				return goja.Undefined()
			})
		},
	})
	return vm.ToValue(proxy)
}

// detectConflicts reports tools and flags registered by two extensions,
// with the reference's wording, against the later extension.
func detectConflicts(exts []*Extension) []LoadError {
	var out []LoadError
	tools := map[string]string{}
	flags := map[string]string{}
	for _, e := range exts {
		for _, t := range e.Tools {
			if owner, ok := tools[t.Name]; ok && owner != e.Path {
				out = append(out, LoadError{Path: e.Path, Message: fmt.Sprintf("Tool \"%s\" conflicts with %s", t.Name, owner)})
			} else if !ok {
				tools[t.Name] = e.Path
			}
		}
		for _, f := range e.Flags {
			if owner, ok := flags[f.Name]; ok && owner != e.Path {
				out = append(out, LoadError{Path: e.Path, Message: fmt.Sprintf("Flag \"--%s\" conflicts with %s", f.Name, owner)})
			} else if !ok {
				flags[f.Name] = e.Path
			}
		}
	}
	return out
}

// installHostDefaults fills the __host object with what the vmod sources
// can use before the API layer exists: the agent dir, and built-in tool
// factories that build inert tool definitions, so extensions calling
// createReadTool(cwd) at load time keep loading. Host.Setup replaces them
// with the Go-backed versions.
func (r *Runtime) installHostDefaults() {
	vm := r.vm
	agentDir := r.opts.AgentDir
	if agentDir != "" {
		_ = r.host.Set("getAgentDir", func() string { return agentDir })
	}
	r.installDiffHost()
	r.installSDKHost()
	r.installSDKSessionHost()
	r.installSDKFunctionsHost()
	_ = r.host.Set("sniffImage", func(b goja.Value) string { return imagetype.Sniff(bytesOf(r.vm, b)) })
	_ = r.host.Set("createTool", func(name, cwd string, _ goja.Value, _ bool) goja.Value {
		def := vm.NewObject()
		_ = def.Set("name", name)
		_ = def.Set("label", name)
		_ = def.Set("description", "built-in "+name+" tool")
		params, _ := vm.RunString(`({ type: "object", properties: {} })`)
		_ = def.Set("parameters", params)
		_ = def.Set("execute", func() goja.Value {
			p, _, reject := vm.NewPromise()
			_ = reject(vm.NewGoError(fmt.Errorf("built-in tool %q (cwd %s) is not wired to this runtime yet", name, cwd)))
			return vm.ToValue(p)
		})
		return def
	})
}
