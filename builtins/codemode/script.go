package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// callable is one tool a script may call.
type callable struct {
	ident string // member name on `tools`
	tool  engine.Tool
	entry *Entry // nil for a declared tool
}

// callRecord is one tool call of a script, as details.calls lists it.
type callRecord struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Args       string  `json:"args"`
	Status     string  `json:"status"`
	DurationMs float64 `json:"durationMs,omitempty"`
	started    time.Time
}

// outItem is one text or image item of a script's output.
type outItem struct {
	text  string
	image *engine.Content
	path  string // where the image was saved
}

// callDone carries a finished tool call back to the script's goroutine.
type callDone struct {
	idx int
	res engine.ToolResult
	err error
}

// Sentinels passed to goja's Interrupt: exit() ends a script successfully,
// the others end it as a failure.
var (
	errExit     = errors.New("exit")
	errTimeout  = errors.New("timeout")
	errAborted  = errors.New("aborted")
	errNoSettle = errors.New("The script awaits a promise that nothing can settle: no tool call is pending, and there are no timers.")
)

// run is the state of one script on its own goroutine and goja runtime.
// Everything but the tool calls happens on that goroutine; the calls run
// on their own and report through results.
type run struct {
	vm       *goja.Runtime
	ctx      context.Context
	parentID string
	tools    []callable
	cfg      *Config
	onUpdate func([]callRecord)

	results chan callDone
	done    chan struct{}
	pending int
	calls   []callRecord
	settle  []settler

	items      []outItem
	console    []string
	outChars   int
	outCalls   int
	store      *storeState
	exited     bool
	timeoutMs  int
	lines      int // the script's line count
	jsonStr    goja.Callable
	jsonParse  goja.Callable
	errorCtor  goja.Value
	typeErrCtr goja.Value
}

// throw raises a JavaScript exception of the constructor ctor.
func (r *run) throw(ctor goja.Value, msg string) {
	o, err := r.vm.New(ctor, r.vm.ToValue(msg))
	if err != nil {
		panic(r.vm.ToValue(msg))
	}
	panic(o)
}

// stringify is JSON.stringify(v); ok is false for values it skips
// (undefined, functions).
func (r *run) stringify(v goja.Value) (string, bool) {
	s, err := r.jsonStr(goja.Undefined(), v)
	if err != nil {
		panic(err)
	}
	if goja.IsUndefined(s) {
		return "", false
	}
	return s.String(), true
}

// show renders a value for text(), return and console: strings as they
// are, other values as JSON.
func (r *run) show(v goja.Value) string {
	if v == nil {
		return "undefined"
	}
	if s, ok := v.Export().(string); ok {
		return s
	}
	if goja.IsUndefined(v) {
		return "undefined"
	}
	if _, isFn := goja.AssertFunction(v); isFn {
		return v.String()
	}
	if s, ok := r.stringify(v); ok {
		return s
	}
	return v.String()
}

// count applies the output limits to one more item of n characters.
func (r *run) count(n int) {
	r.outCalls++
	r.outChars += n
	if r.outCalls > maxOutputCalls {
		r.throw(r.errorCtor, fmt.Sprintf("the script made more than %d text(), image() and console calls; write large data to a file with a tool instead", maxOutputCalls))
	}
	if r.outChars > maxOutputChars {
		r.throw(r.errorCtor, fmt.Sprintf("the script's output passed %d characters; write large data to a file with a tool instead", maxOutputChars))
	}
}

func (r *run) addText(s string) {
	r.count(len(s))
	r.items = append(r.items, outItem{text: s})
}

// setup installs the documented globals, and nothing else, in the VM.
func (r *run) setup() error {
	vm := r.vm
	vm.SetMaxCallStackSize(2000)
	jsonObj := vm.Get("JSON").ToObject(vm)
	r.jsonStr, _ = goja.AssertFunction(jsonObj.Get("stringify"))
	r.jsonParse, _ = goja.AssertFunction(jsonObj.Get("parse"))
	r.errorCtor = vm.Get("Error")
	r.typeErrCtr = vm.Get("TypeError")
	set := func(name string, v any) {
		if err := vm.Set(name, v); err != nil {
			panic(err)
		}
	}
	set("text", func(v goja.Value) { r.addText(r.show(v)) })
	set("image", func(v goja.Value) { r.addImage(v) })
	logf := func(call goja.FunctionCall) goja.Value {
		parts := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			parts[i] = r.show(a)
		}
		line := strings.Join(parts, " ")
		r.count(len(line))
		r.console = append(r.console, line)
		return goja.Undefined()
	}
	con := vm.NewObject()
	for _, m := range []string{"log", "info", "warn", "error", "debug"} {
		_ = con.Set(m, logf)
	}
	set("console", con)
	set("exit", func() {
		r.exited = true
		vm.Interrupt(errExit)
	})
	set("store", func(key string, v goja.Value) {
		if v == nil || goja.IsUndefined(v) {
			r.store.del(key)
			return
		}
		s, ok := r.stringify(v)
		if !ok {
			r.store.del(key)
			return
		}
		if err := r.store.set(key, s); err != nil {
			r.throw(r.errorCtor, err.Error())
		}
	})
	set("load", func(key string) goja.Value {
		s, ok := r.store.get(key)
		if !ok {
			return goja.Undefined()
		}
		v, err := r.jsonParse(goja.Undefined(), vm.ToValue(s))
		if err != nil {
			panic(err)
		}
		return v
	})
	raw := vm.NewObject()
	all := vm.NewArray()
	for i, c := range r.tools {
		_ = raw.Set(c.ident, r.toolFunc(c))
		o := vm.NewObject()
		_ = o.Set("name", c.tool.Info().Name)
		_ = o.Set("description", describe(c.tool.Info(), c.entry))
		_ = all.Set(fmt.Sprint(i), o)
	}
	set("ALL_TOOLS", all)
	set("searchTools", r.searchTools)
	set("describeTool", r.describeTool)
	set("describeNamespace", r.describeNamespace)
	set("__tools", raw)
	set("__names", r.names())
	models := vm.NewObject()
	for _, m := range []string{"getModelsOfType", "getAvailableOfType", "getModelOfType", "classify", "generateImages"} {
		name := m
		_ = models.Set(name, func() goja.Value {
			p, _, reject := vm.NewPromise()
			e, _ := vm.New(r.errorCtor, vm.ToValue("models."+name+" is not available in this build: codemode scripts cannot list or run classifier and image models yet"))
			_ = reject(e)
			return vm.ToValue(p)
		})
	}
	set("models", models)
	// A proxy turns a missing tool into a TypeError that lists the real
	// ones, instead of "undefined is not a function".
	_, err := vm.RunString(`(function (raw, names) { globalThis.tools = new Proxy(raw, { get(t, k) {
  if (typeof k === "symbol" || k in t || k === "then" || k === "toJSON") return t[k];
  throw new TypeError("tools." + String(k) + " is not a tool here. Callable tools: " + names +
    ". ALL_TOOLS lists them all and searchTools(query) ranks them by topic.");
} }); })(__tools, __names); delete globalThis.__tools; delete globalThis.__names;`)
	return err
}

func (r *run) names() string {
	n := make([]string, len(r.tools))
	for i, c := range r.tools {
		n[i] = c.ident
	}
	if len(n) == 0 {
		return "(none)"
	}
	return strings.Join(n, ", ")
}

// toolFunc is tools.<name>: it starts the call on its own goroutine and
// returns a promise the script's goroutine settles when the call ends.
func (r *run) toolFunc(c callable) func(goja.Value) goja.Value {
	return func(args goja.Value) goja.Value {
		vm := r.vm
		argsJSON := "{}"
		if args != nil && !goja.IsUndefined(args) && !goja.IsNull(args) {
			if s, ok := r.stringify(args); ok {
				argsJSON = s
			}
		}
		idx := len(r.calls)
		id := fmt.Sprintf("%s/%d", r.parentID, idx+1)
		// Until the call ends its record says "<parent>/?", as the
		// reference's does, and the update that reports it running goes
		// out after the call's tool_execution_start.
		r.calls = append(r.calls, callRecord{ID: r.parentID + "/?", Name: c.tool.Info().Name, Args: argsJSON, Status: "running", started: time.Now()})
		snapshot := append([]callRecord(nil), r.calls...)
		ctx := engine.WithNestedStarted(r.ctx, func() {
			if r.onUpdate != nil {
				r.onUpdate(snapshot)
			}
		})
		r.pending++
		p, resolve, reject := vm.NewPromise()
		r.settle = append(r.settle, settler{resolve, reject, c})
		go func() {
			res, err := execute(ctx, c.tool, id, json.RawMessage(argsJSON))
			select {
			case r.results <- callDone{idx: idx, res: res, err: err}:
			case <-r.done:
			}
		}()
		return vm.ToValue(p)
	}
}

// settler holds a pending call's promise functions.
type settler struct {
	resolve, reject func(any) error
	c               callable
}

// execute runs a script's call as a model's call runs
// (engine.ExecuteNested: validation, the tool_call and tool_result
// hooks, events with parentToolCallId).
func execute(ctx context.Context, t engine.Tool, id string, args json.RawMessage) (engine.ToolResult, error) {
	return engine.ExecuteNested(ctx, t, engine.ToolCall{ID: id, Name: t.Info().Name, Args: args}), nil
}

func (r *run) update() {
	if r.onUpdate != nil {
		r.onUpdate(append([]callRecord(nil), r.calls...))
	}
}

// finish settles the promise of a finished call, which runs the script's
// continuations.
func (r *run) finish(d callDone) error {
	r.pending--
	s := r.settle[d.idx]
	rec := &r.calls[d.idx]
	rec.ID = fmt.Sprintf("%s/%d", r.parentID, d.idx+1)
	rec.DurationMs = float64(time.Since(rec.started).Microseconds()) / 1000
	if d.err != nil {
		d.res = engine.ErrorResult(d.err.Error())
	}
	value, failure := r.resultValue(d.res)
	if failure != "" {
		rec.Status = "error"
		r.update()
		e, err := r.vm.New(r.errorCtor, r.vm.ToValue(failure))
		if err != nil {
			return err
		}
		return s.reject(e)
	}
	rec.Status = "ok"
	r.update()
	return s.resolve(value)
}

// resultValue is what a call resolves to: its structured content when it
// has one (bash's object, read's text or image block, an MCP tool's
// CallToolResult), else its text, or failure text to reject with. A
// failed call whose structured content is an object (bash's non-zero
// exit) still resolves to that object.
func (r *run) resultValue(res engine.ToolResult) (goja.Value, string) {
	text := resultText(res)
	if len(res.StructuredContent) > 0 {
		isObject := strings.HasPrefix(strings.TrimSpace(string(res.StructuredContent)), "{")
		if !res.IsError || isObject {
			v, err := r.jsonParse(goja.Undefined(), r.vm.ToValue(string(res.StructuredContent)))
			if err == nil {
				return v, ""
			}
		}
	}
	if res.IsError {
		if text == "" {
			text = "the tool failed without a message"
		}
		return nil, text
	}
	for _, c := range res.Content {
		if c.Type == engine.ContentImage {
			o := r.vm.NewObject()
			_ = o.Set("type", "image")
			_ = o.Set("data", c.Data)
			_ = o.Set("mimeType", c.MimeType)
			_ = o.Set("note", text)
			return o, ""
		}
	}
	return r.vm.ToValue(text), ""
}

// resultText joins a result's text blocks.
func resultText(res engine.ToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if c.Type == engine.ContentText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}
