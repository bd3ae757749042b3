package jsruntime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// ExtTool is a tool an extension registered: the model sees its schema
// and calls run its execute function on the loop.
type ExtTool struct {
	api           *API
	path          string
	info          engine.ToolInfo
	defaultActive bool
	exposure      string
}

var _ engine.Tool = (*ExtTool)(nil)

// Info describes the tool.
func (t *ExtTool) Info() engine.ToolInfo { return t.info }

// Path is the extension that registered the tool.
func (t *ExtTool) Path() string { return t.path }

// Exposure is the tool's exposure: "direct" (the default), "model-only",
// "codemode", "deferred" or "hidden".
func (t *ExtTool) Exposure() string {
	if t.exposure == "" {
		return "direct"
	}
	return t.exposure
}

// DefaultActive reports whether the tool starts active.
func (t *ExtTool) DefaultActive() bool { return t.defaultActive }

// Execute runs the extension's execute(toolCallId, params, signal,
// onUpdate, ctx). Cancelling ctx aborts the signal the tool received; the
// call then waits for the tool to settle, as the reference awaits it.
func (t *ExtTool) Execute(ctx context.Context, call engine.ToolCall, onUpdate func(engine.ToolResult)) (engine.ToolResult, error) {
	a := t.api
	type res struct {
		out string
		err error
	}
	ch := make(chan res, 1)
	// Progress reaches the session through a queue drained by its own
	// goroutine: the engine may be busy delivering another tool's update
	// to the extensions, which waits for this very loop, so calling it
	// from the loop could deadlock two parallel tools.
	updates := newUpdateQueue(onUpdate)
	var abort goja.Value
	args := string(call.Args)
	if args == "" {
		args = "{}"
	}
	err := a.rt.loop.Do(context.WithoutCancel(ctx), func(vm *goja.Runtime) error {
		update := func(s string) {
			var r engine.ToolResult
			if json.Unmarshal([]byte(s), &r) != nil {
				return
			}
			updates.push(r)
		}
		ok := func(s string) { ch <- res{out: s} }
		fail := func(m string) { ch <- res{err: errors.New(m)} }
		v, err := a.executeFn(goja.Undefined(), vm.ToValue(t.path), vm.ToValue(t.info.Name), vm.ToValue(call.ID),
			vm.ToValue(args), vm.ToValue(update), vm.ToValue(ok), vm.ToValue(fail))
		abort = v
		return err
	})
	if err != nil {
		updates.close()
		return engine.ToolResult{}, err
	}
	var r res
	select {
	case r = <-ch:
	case <-ctx.Done():
		a.rt.loop.RunOnLoop(func(vm *goja.Runtime) {
			if fn, ok := goja.AssertFunction(abort); ok {
				_, _ = fn(goja.Undefined())
			}
		})
		r = <-ch
	}
	updates.close()
	if r.err != nil {
		return engine.ErrorResult(r.err.Error()), nil
	}
	var out engine.ToolResult
	if err := json.Unmarshal([]byte(r.out), &out); err != nil {
		return engine.ErrorResult("invalid tool result: " + err.Error()), nil
	}
	return out, nil
}

// registerTool records a pi.registerTool definition (JSON from api.js). A
// later registration of the same name replaces the earlier one.
func (a *API) registerTool(path, def string) {
	var d struct {
		Name             string          `json:"name"`
		Label            string          `json:"label"`
		Description      string          `json:"description"`
		Parameters       json.RawMessage `json:"parameters"`
		PromptSnippet    string          `json:"promptSnippet"`
		PromptGuidelines []string        `json:"promptGuidelines"`
		ExecutionMode    string          `json:"executionMode"`
		DefaultActive    *bool           `json:"defaultActive"`
		Exposure         string          `json:"exposure"`
		// ConstrainedSampling is recorded with the tool's declaration;
		// extension tools have none unless they copy a built-in's.
		ConstrainedSampling json.RawMessage `json:"constrainedSampling"`
	}
	if err := json.Unmarshal([]byte(def), &d); err != nil {
		return
	}
	t := &ExtTool{api: a, path: path, defaultActive: d.DefaultActive == nil || *d.DefaultActive,
		info: engine.ToolInfo{Name: d.Name, Label: d.Label, Description: d.Description, Parameters: d.Parameters,
			PromptSnippet: d.PromptSnippet, PromptGuidelines: d.PromptGuidelines, Sequential: d.ExecutionMode == "sequential",
			OwnSampling: true, ConstrainedSampling: d.ConstrainedSampling}}
	t.exposure = d.Exposure
	if d.Exposure != "" && d.Exposure != "direct" && d.Exposure != "model-only" {
		t.defaultActive = false
	}
	a.mu.Lock()
	replaced := false
	for i, old := range a.tools {
		if old.info.Name == d.Name {
			a.tools[i] = t
			replaced = true
		}
	}
	if !replaced {
		a.tools = append(a.tools, t)
	}
	s := a.sess
	a.mu.Unlock()
	// Registered after startup: the tool becomes active right away.
	if s != nil && t.defaultActive {
		tools := s.Tools()
		found := false
		for i, old := range tools {
			if old.Info().Name == d.Name {
				tools[i] = t
				found = true
			}
		}
		if !found {
			tools = append(tools, t)
		}
		s.SetTools(tools)
	}
}

// ExtTools returns the registered extension tools in registration order.
func (a *API) ExtTools() []*ExtTool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*ExtTool(nil), a.tools...)
}

func (a *API) extTool(name string) *ExtTool {
	for _, t := range a.ExtTools() {
		if t.info.Name == name {
			return t
		}
	}
	return nil
}

// exec is pi.exec: a child process without a shell, with a timeout and an
// abort function returned to JS.
func (a *API) exec(command, argsJSON, optsJSON string, ok, fail goja.Callable) goja.Value {
	var argv []string
	_ = json.Unmarshal([]byte(argsJSON), &argv)
	var o struct {
		Cwd       string   `json:"cwd"`
		Timeout   *float64 `json:"timeout"`
		MaxBuffer *float64 `json:"maxBuffer"`
	}
	_ = json.Unmarshal([]byte(optsJSON), &o)
	limit := int64(execMaxBuffer)
	if o.MaxBuffer != nil && *o.MaxBuffer > 0 {
		limit = int64(*o.MaxBuffer)
	}
	cwd := o.Cwd
	if cwd == "" {
		cwd = a.opts.Cwd
	}
	ctx, cancel := context.WithCancel(context.Background())
	settle := a.rt.loop.Reserve()
	var killedMu sync.Mutex
	killed := false
	kill := func() {
		killedMu.Lock()
		killed = true
		killedMu.Unlock()
		cancel()
	}
	go func() {
		defer cancel()
		cmd := exec.Command(command, argv...)
		cmd.Dir = cwd
		var stdout, stderr bytes.Buffer
		capped := &execCap{limit: limit, onFull: kill}
		cmd.Stdout, cmd.Stderr = capped.writer(&stdout), capped.writer(&stderr)
		cmd.SysProcAttr = groupAttr()
		if err := cmd.Start(); err != nil {
			// Node reports a spawn failure as a result with code 1 and the
			// error on stderr rather than a rejection.
			msg := err.Error()
			settle(func(vm *goja.Runtime) {
				out, _ := ordered{{"stdout", ""}, {"stderr", msg}, {"code", 1}, {"killed", false}, {"truncated", false}}.MarshalJSON()
				_, _ = ok(goja.Undefined(), vm.ToValue(string(out)))
			})
			return
		}
		waitDone := make(chan error, 1)
		go func() { waitDone <- cmd.Wait() }()
		var timer <-chan time.Time
		if o.Timeout != nil && *o.Timeout > 0 {
			timer = time.After(time.Duration(*o.Timeout) * time.Millisecond)
		}
		var werr error
		select {
		case werr = <-waitDone:
		case <-timer:
			kill()
			_ = signalGroup(cmd.Process.Pid, syscall.SIGTERM)
			werr = <-waitDone
		case <-ctx.Done():
			_ = signalGroup(cmd.Process.Pid, syscall.SIGTERM)
			werr = <-waitDone
		}
		code := 0
		if werr != nil {
			var ee *exec.ExitError
			if errors.As(werr, &ee) {
				code = ee.ExitCode()
				if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					code = 128 + int(ws.Signal())
				}
			} else {
				code = 1
			}
		}
		killedMu.Lock()
		k := killed
		killedMu.Unlock()
		truncated := capped.full()
		if truncated && code == 0 {
			// A cut-off output must never read as success.
			code = 1
		}
		out := ordered{{"stdout", stdout.String()}, {"stderr", stderr.String()}, {"code", code}, {"killed", k}, {"truncated", truncated}}
		b, _ := out.MarshalJSON()
		settle(func(vm *goja.Runtime) { _, _ = ok(goja.Undefined(), vm.ToValue(string(b))) })
	}()
	return a.rt.vm.ToValue(func() { kill() })
}

// updateQueue delivers a tool's progress updates in order on a goroutine
// of its own, so the extension loop never waits for the session. Updates
// pushed after close (a tool reporting after it settled) are dropped.
type updateQueue struct {
	mu     sync.Mutex
	items  []engine.ToolResult
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

func newUpdateQueue(fn func(engine.ToolResult)) *updateQueue {
	q := &updateQueue{wake: make(chan struct{}, 1), done: make(chan struct{})}
	if fn == nil {
		q.closed = true
		close(q.done)
		return q
	}
	go q.run(fn)
	return q
}

func (q *updateQueue) push(r engine.ToolResult) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.items = append(q.items, r)
	q.mu.Unlock()
	q.signal()
}

func (q *updateQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *updateQueue) run(fn func(engine.ToolResult)) {
	defer close(q.done)
	for {
		q.mu.Lock()
		items, closed := q.items, q.closed
		q.items = nil
		q.mu.Unlock()
		for _, r := range items {
			fn(r)
		}
		if len(items) > 0 {
			continue
		}
		if closed {
			return
		}
		<-q.wake
	}
}

// close stops accepting updates and waits until those already pushed
// were delivered, so they all come before the tool's end.
func (q *updateQueue) close() {
	q.mu.Lock()
	already := q.closed
	q.closed = true
	q.mu.Unlock()
	if !already {
		q.signal()
	}
	<-q.done
}

// execMaxBuffer is pi.exec's default cap on stdout and stderr together.
const execMaxBuffer = 256 << 20

// execCap keeps a command's combined output within a byte limit; the
// first write past it keeps what fits and kills the command.
type execCap struct {
	mu     sync.Mutex
	limit  int64
	used   int64
	cut    bool
	onFull func()
}

func (c *execCap) full() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cut
}

func (c *execCap) writer(dst *bytes.Buffer) io.Writer {
	return capWriter{c, dst}
}

type capWriter struct {
	c   *execCap
	dst *bytes.Buffer
}

func (w capWriter) Write(p []byte) (int, error) {
	c := w.c
	c.mu.Lock()
	if c.cut {
		c.mu.Unlock()
		return len(p), nil
	}
	keep := int64(len(p))
	cut := false
	if rest := c.limit - c.used; keep > rest {
		keep, cut, c.cut = rest, true, true
	}
	c.used += keep
	w.dst.Write(p[:keep])
	c.mu.Unlock()
	if cut {
		c.onFull()
	}
	return len(p), nil
}
