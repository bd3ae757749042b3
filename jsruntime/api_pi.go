package jsruntime

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// apiJS builds pi, ctx and ctx.ui over the Go bridge in this file. Most of
// the API's shape (getters, option defaults, result combination) is JS
// because that is what extensions observe; Go answers the few primitive
// calls that reach the session.
//
//go:embed apijs/api.js
var apiJS string

// ModelSource is what ctx.modelRegistry and pi.setModel read.
type ModelSource interface {
	All() []*engine.Model
	Available() []*engine.Model
	Find(provider, id string) *engine.Model
	HasAuth(m *engine.Model) bool
}

// APIOptions configure the pi.* layer.
type APIOptions struct {
	// Mode is "print", "json" or "rpc" (ctx.mode).
	Mode string
	Cwd  string
	// UI is ctx.ui's backend; nil is engine.NopUI for Mode.
	UI engine.UI
	// Trusted is ctx.isProjectTrusted().
	Trusted bool
	// Settings returns the merged settings as JSON (pi.getSettings).
	Settings func() json.RawMessage
	// ValidateMCPServer checks a pi.registerMcpServer config and returns
	// it as stored, or the reason it is invalid; nil means this build has
	// no MCP support and the call throws. MCPServersChanged hears every
	// registration change after the session is bound (api_mcp.go).
	ValidateMCPServer func(name string, config json.RawMessage) (json.RawMessage, error)
	MCPServersChanged func([]MCPServer)
	// HostTools are the tools built-in extensions written in Go
	// registered (builtin:mcp's), listed by pi.getAllTools after the
	// extensions' and selectable with pi.setActiveTools when direct.
	HostTools func() []HostTool
	// Models backs ctx.modelRegistry; nil means no models.
	Models ModelSource
	// Builtin constructs a built-in tool by name (setActiveTools and the
	// create*Tool factories); nil means builtins are unavailable.
	Builtin func(name, cwd string) (engine.Tool, bool)
	// BuiltinExtTools are the tools of the built-in extensions that are
	// loaded (codemode, tool_search), listed by pi.getAllTools() after
	// the extensions' tools with the sourceInfo path Paths[i].
	BuiltinExtTools func() (tools []engine.ToolInfo, paths []string)
	// BuiltinNames are the built-in tool names, in the reference's order.
	BuiltinNames []string
	// Shutdown is ctx.shutdown().
	Shutdown func()
	// ExtraCommands lists prompt templates and skills for pi.getCommands,
	// after the extension commands.
	ExtraCommands func() []CommandInfo
	// MutationQueue serializes mutations of one file with the built-in
	// tools' (withFileMutationQueue); nil keeps a queue inside the runtime.
	// It reserves the file's next place at once (on the loop, so calls keep
	// their order) and returns wait and release; see
	// builtins.ReserveFileMutation.
	MutationQueue func(path string) (wait func(), release func(), err error)
	// LocalShell runs a command with pi's local shell, passing its raw
	// output to onData (createLocalBashOperations().exec); nil leaves
	// that factory unavailable.
	LocalShell func(ctx context.Context, command, cwd string, timeout *float64, onData func([]byte)) (int, error)
	// PromptOptions returns before_agent_start's systemPromptOptions for
	// the active tools, in the reference's shape (selectedTools,
	// toolSnippets, sections, cwd, contextFiles, skills …); nil gives
	// only {cwd}.
	PromptOptions func(tools []engine.ToolInfo) json.RawMessage
	// RenderPrompt rebuilds the prompt from systemPromptOptions that
	// handlers changed; nil keeps the built prompt.
	RenderPrompt func(options json.RawMessage) (engine.Sections, error)
	// SubAgents builds the agents of the coding-agent package's
	// createAgentSession (api_subagent.go); nil leaves it unavailable.
	SubAgents SubAgentHost
}

// CommandInfo is one extension command as get_commands lists it.
type CommandInfo struct {
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
	Source      string  `json:"source"`
	Path        string  `json:"-"`
	// SourceInfo is the command's sourceInfo object as pi.getCommands
	// shows it (templates, skills and the built-in extensions' commands).
	SourceInfo any `json:"-"`
}

// FlagDef is one registerFlag call.
type FlagDef struct {
	Path        string
	Name        string
	Type        string // "boolean" or "string"
	Default     json.RawMessage
	Description string
}

// API is the pi.* extension API over one runtime and, once bound, one
// session. Create it, pass Host() to Load, then Bind the session.
type API struct {
	opts APIOptions
	rt   *Runtime

	// Set on the loop during Setup; read-only afterwards.
	makePi, dispatchFn, executeFn, commandListFn, runCommandFn, bindFn goja.Callable
	// loopGID is the loop goroutine's id (api_order.go).
	loopGID uint64
	// deferred holds errors reported at the next event (api_order.go).
	deferred deferredReports
	// sends holds sendUserMessage effects until the running task's
	// promise jobs (api_order.go).
	sends sendBatch

	mu   sync.Mutex
	sess *engine.Session
	// smStore is the store ctx.sessionManager stays on once this
	// generation is retired (api_smgr.go).
	smStore    engine.Store
	ui         engine.UI
	events     map[string]bool
	tools      []*ExtTool
	flags      []FlagDef
	flagValues map[string]any
	name       *string
	turnIndex  int
	dialogs    map[int]context.CancelFunc
	nextDialog int
	// Provider registrations queued while loading, and whether they now
	// apply at once (api_provider.go).
	provPending []pendingProvider
	// provFns records which oauth/refreshModels functions each registered
	// provider has (api_provider_oauth.go).
	provFns  map[string]providerFns
	provLive bool
	// runIDs numbers the session's runs for ctx.signal (api_ctx.go).
	runIDs ctxRuns
	// bridgeObj is the G object api.js holds (set on the loop in setup).
	bridgeObj *goja.Object
	// completions are modelRegistry requests in flight (api_complete.go).
	completions completions
	// mcpServers are the pi.registerMcpServer registrations (api_mcp.go).
	mcpServers []MCPServer
	// streamAPIs are the wire APIs extensions serve with streamSimple
	// (api_stream.go).
	streamAPIs map[string]bool
	// sessions replaces the session for the command context's
	// newSession, fork and switchSession (api_session.go).
	sessions engine.SessionController
	// thinking is the last effective thinking level extensions were told
	// of: thinking_level_select's previousLevel (hooks.go).
	thinking engine.ThinkingLevel
	// successor is the generation that replaced this one (api_session.go).
	successor *API
}

// NewAPI returns the API layer; it does nothing until Host() is passed to
// Load.
func NewAPI(opts APIOptions) *API {
	if opts.Mode == "" {
		opts.Mode = "print"
	}
	// api.js is parsed in the background while discovery and bundling run.
	go func() { _, _ = compileCached("pi:api.js", apiJS, false) }()
	a := &API{opts: opts, events: map[string]bool{}, flagValues: map[string]any{}, dialogs: map[int]context.CancelFunc{}}
	a.ui = opts.UI
	if a.ui == nil {
		a.ui = engine.NopUI{ModeName: opts.Mode}
	}
	return a
}

// Host returns the runtime hooks that install the API.
func (a *API) Host() Host {
	return Host{
		Setup: a.setup,
		NewAPI: func(r *Runtime, ext *Extension) goja.Value {
			v, err := a.makePi(goja.Undefined(), r.vm.ToValue(ext.Path))
			if err != nil {
				panic(err)
			}
			return v
		},
	}
}

// Runtime returns the runtime once loaded.
func (a *API) Runtime() *Runtime { return a.rt }

// SetUI replaces ctx.ui's backend (RPC mode installs its bridge here).
func (a *API) SetUI(ui engine.UI) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ui = ui
}

func (a *API) currentUI() engine.UI {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ui
}

func (a *API) session() *engine.Session {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sess
}

// Bind attaches the session; action methods work from now on.
func (a *API) Bind(ctx context.Context, s *engine.Session) error {
	a.mu.Lock()
	a.sess = s
	if s != nil {
		a.thinking = s.ThinkingLevel()
	}
	a.mu.Unlock()
	if a.rt == nil {
		return nil
	}
	return a.rt.loop.Do(ctx, func(vm *goja.Runtime) error {
		_, err := a.bindFn(goja.Undefined())
		return err
	})
}

// setup runs on the loop before any extension: it evaluates api.js with
// the Go bridge and installs the Go-backed host functions.
func (a *API) setup(r *Runtime) error {
	a.rt = r
	a.loopGID = goid()
	vm := r.vm
	prog, err := compileCached("pi:api.js", apiJS, false)
	if err != nil {
		return fmt.Errorf("api.js: %w", err)
	}
	v, err := vm.RunProgram(prog)
	if err != nil {
		return fmt.Errorf("api.js: %w", err)
	}
	factory, ok := goja.AssertFunction(v)
	if !ok {
		return errors.New("api.js: not a function")
	}
	a.bridgeObj = a.bridge(vm)
	glue, err := factory(goja.Undefined(), a.bridgeObj)
	if err != nil {
		return fmt.Errorf("api.js: %w", err)
	}
	obj := glue.ToObject(vm)
	for name, dst := range map[string]*goja.Callable{
		"makePi": &a.makePi, "dispatch": &a.dispatchFn, "executeTool": &a.executeFn,
		"commandList": &a.commandListFn, "runCommand": &a.runCommandFn, "bind": &a.bindFn,
	} {
		fn, ok := goja.AssertFunction(obj.Get(name))
		if !ok {
			return fmt.Errorf("api.js: missing %s", name)
		}
		*dst = fn
	}
	if fn, ok := goja.AssertFunction(obj.Get("modelRegistry")); ok {
		// The newest generation's registry answers `new ModelRegistry()`.
		_ = r.host.Set("hostModelRegistry", func() (goja.Value, error) { return fn(goja.Undefined()) })
	}
	if fn, ok := goja.AssertFunction(obj.Get("aiStreams")); ok {
		// pi-ai's stream and complete functions run on the newest
		// generation's registry, as ctx.modelRegistry's do.
		_ = r.host.Set("aiStreams", func() (goja.Value, error) { return fn(goja.Undefined()) })
	}
	a.installHostBuiltins(r)
	a.installSubAgents(r)
	return nil
}

// reportError sends an extension error to the runtime's error sink.
func (a *API) reportError(path, event, msg string) {
	a.rt.opts.OnError(ExtensionError{Path: path, Event: event, Error: msg})
}

// bridge is the G object api.js calls.
func (a *API) bridge(vm *goja.Runtime) *goja.Object {
	g := vm.NewObject()
	set := func(name string, v any) { _ = g.Set(name, v) }
	set("mode", a.opts.Mode)
	set("cwd", a.opts.Cwd)
	set("enter", func(path, event string) { a.rt.loop.owner, a.rt.loop.event = path, event })
	set("reportError", a.reportError)
	// parse reads the JSON the bridge hands back (jsonparse.go), falling
	// back to JSON.parse for what it leaves alone and for the error.
	jsonParse, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	set("parse", func(call goja.FunctionCall) goja.Value {
		s := call.Argument(0).String()
		if v, ok := parseJSON(vm, s); ok {
			return v
		}
		v, err := jsonParse(goja.Undefined(), call.Argument(0))
		if err != nil {
			panic(err)
		}
		return v
	})
	set("hasUI", func() bool { return a.currentUI().HasUI() })
	set("runState", a.runState)
	set("complete", a.complete)
	set("cancelComplete", func(id int) { a.completions.done(id, true) })
	set("handlersChanged", func(event string, has bool) {
		a.mu.Lock()
		a.events[event] = has
		a.mu.Unlock()
	})
	set("registerTool", func(path, def string) {
		a.registerTool(path, def)
	})
	set("registerFlag", func(path, name, def string) {
		var d struct {
			Type        string          `json:"type"`
			Default     json.RawMessage `json:"default"`
			Description string          `json:"description"`
		}
		_ = json.Unmarshal([]byte(def), &d)
		a.mu.Lock()
		a.flags = append(a.flags, FlagDef{Path: path, Name: name, Type: d.Type, Default: d.Default, Description: d.Description})
		a.mu.Unlock()
	})
	set("call", func(name, args string) (string, error) {
		v, err := a.call(name, json.RawMessage(args))
		if err != nil {
			return "", err
		}
		if v == nil {
			return "", nil
		}
		b, err := engine.MarshalJSON(v)
		if err != nil {
			return "", err
		}
		return string(b), nil
	})
	set("callAsync", func(name, args string, ok, fail goja.Callable) {
		settle := a.rt.loop.Reserve()
		go func() {
			v, err := a.callAsync(context.Background(), name, json.RawMessage(args))
			var out string
			if err == nil && v != nil {
				b, merr := engine.MarshalJSON(v)
				out, err = string(b), merr
			}
			settle(func(vm *goja.Runtime) {
				if err != nil {
					_, _ = fail(goja.Undefined(), vm.ToValue(err.Error()))
					return
				}
				_, _ = ok(goja.Undefined(), vm.ToValue(out))
			})
		}()
	})
	set("dialog", a.dialog)
	set("replacedCtx", a.replacedCtx)
	set("cancelDialog", func(id int) {
		a.mu.Lock()
		cancel := a.dialogs[id]
		a.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	})
	set("exec", a.exec)
	set("boundaryPreview", a.previewJSON)
	set("renderPrompt", func(options string) (string, error) {
		if a.opts.RenderPrompt == nil {
			return "", errors.New("system prompt options are not supported here")
		}
		secs, err := a.opts.RenderPrompt(json.RawMessage(options))
		if err != nil {
			return "", err
		}
		return engine.SectionsText(secs), nil
	})
	a.bridgeUserBash(g)
	return g
}

// settleJSON waits for a JS result delivered through ok/fail callbacks.
type jsResult struct {
	out string
	err error
}

// callJS runs fn on the loop; fn must arrange for exactly one send on the
// returned channel. It waits for the result or ctx.
func (a *API) callJS(ctx context.Context, fn func(vm *goja.Runtime, ok, fail goja.Value) error) (string, error) {
	ch := make(chan jsResult, 1)
	err := a.rt.loop.Do(context.WithoutCancel(ctx), func(vm *goja.Runtime) error {
		ok := vm.ToValue(func(s string) { ch <- jsResult{out: s} })
		fail := vm.ToValue(func(m string) { ch <- jsResult{err: errors.New(m)} })
		return fn(vm, ok, fail)
	})
	if err != nil {
		return "", err
	}
	select {
	case r := <-ch:
		return r.out, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// dispatch runs one extension event through api.js and returns the
// combined handler result as JSON ("" when undefined).
func (a *API) dispatch(ctx context.Context, typ string, payload any) (string, error) {
	if a.rt == nil {
		return "", nil
	}
	b, err := engine.MarshalJSON(payload)
	if err != nil {
		return "", err
	}
	if a.onLoop() {
		// An action of a running handler raised this event; waiting for
		// the loop from the loop would deadlock (api_order.go).
		a.dispatchQueued(typ, string(b))
		return "", nil
	}
	return a.callJS(ctx, func(vm *goja.Runtime, ok, fail goja.Value) error {
		_, err := a.dispatchFn(goja.Undefined(), vm.ToValue(typ), vm.ToValue(string(b)), ok, fail)
		return err
	})
}

// HasHandlers reports whether any extension listens to event.
func (a *API) HasHandlers(event string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.events[event]
}

// Emit dispatches a notification event ({"type": event, ...fields}) and
// waits for its handlers. Fields are emitted in the order given.
func (a *API) Emit(ctx context.Context, event string, fields ...Field) {
	if !a.HasHandlers(event) {
		return
	}
	_, _ = a.dispatch(ctx, event, orderedEvent(event, fields))
}

// Field is one key of an event payload.
type Field struct {
	Key   string
	Value any
}

type ordered []Field

func (o ordered) MarshalJSON() ([]byte, error) {
	buf := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			buf = append(buf, ',')
		}
		k, _ := json.Marshal(f.Key)
		v, err := engine.MarshalJSON(f.Value)
		if err != nil {
			return nil, err
		}
		buf = append(buf, k...)
		buf = append(buf, ':')
		buf = append(buf, v...)
	}
	return append(buf, '}'), nil
}

func orderedEvent(event string, fields []Field) ordered {
	return append(ordered{{"type", event}}, fields...)
}

// Commands lists the extension commands with their invocation names.
func (a *API) Commands(ctx context.Context) []CommandInfo {
	if a.rt == nil {
		return nil
	}
	var list []struct {
		Name        string  `json:"name"`
		Description *string `json:"description"`
		Path        string  `json:"path"`
	}
	_ = a.rt.loop.Do(ctx, func(vm *goja.Runtime) error {
		v, err := a.commandListFn(goja.Undefined())
		if err != nil {
			return err
		}
		b, _ := json.Marshal(v.Export())
		return json.Unmarshal(b, &list)
	})
	out := make([]CommandInfo, 0, len(list))
	for _, c := range list {
		out = append(out, CommandInfo{Name: c.Name, Description: c.Description, Source: "extension", Path: c.Path})
	}
	return out
}

// RunCommand runs "/name args" when name is an extension command and waits
// for its handler; it reports whether text was such a command. Handler
// errors are extension errors, never returned.
func (a *API) RunCommand(ctx context.Context, text string) bool {
	name, args, ok := splitCommand(text)
	if !ok || a.rt == nil {
		return false
	}
	out, err := a.callJS(ctx, func(vm *goja.Runtime, ok, fail goja.Value) error {
		ok, fail = commandSettled(ctx, vm, ok), commandSettled(ctx, vm, fail)
		_, err := a.runCommandFn(goja.Undefined(), vm.ToValue(name), vm.ToValue(args), ok, fail)
		return err
	})
	return err == nil && out == "true"
}

// IsCommand reports whether text invokes an extension command.
func (a *API) IsCommand(ctx context.Context, text string) bool {
	name, _, ok := splitCommand(text)
	if !ok {
		return false
	}
	for _, c := range a.Commands(ctx) {
		if c.Name == name {
			return true
		}
	}
	return false
}

func splitCommand(text string) (name, args string, ok bool) {
	if len(text) < 2 || text[0] != '/' {
		return "", "", false
	}
	rest := text[1:]
	for i, r := range rest {
		if r == ' ' || r == '\t' || r == '\n' {
			return rest[:i], trimLeft(rest[i+1:]), true
		}
	}
	return rest, "", true
}

func trimLeft(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n') {
		s = s[1:]
	}
	return s
}

// Flags returns the flags extensions registered, in registration order.
func (a *API) Flags() []FlagDef {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]FlagDef(nil), a.flags...)
}

// SetFlag records a CLI value for a registered flag; it reports whether
// the flag exists. Boolean flags given without a value are true.
func (a *API) SetFlag(name, value string, isBool bool) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, f := range a.flags {
		if f.Name != name {
			continue
		}
		if f.Type == "boolean" {
			a.flagValues[name] = isBool || value != "false"
		} else {
			a.flagValues[name] = value
		}
		return true
	}
	return false
}
