package codemode

import (
	"context"
	"slices"
	"sync"

	"github.com/pi-go/pi/engine"
)

// Exposure says how the model reaches a tool that is not declared to it.
type Exposure string

const (
	// ExposureCodemode tools are callable from codemode scripts and listed
	// in the codemode description (within codemode.inlineBudget), as an
	// extension's tool with exposure "codemode" is.
	ExposureCodemode Exposure = "codemode"
	// ExposureDeferred tools are callable from scripts too, but not listed,
	// so the codemode description stays the same while they come and go;
	// scripts find them with searchTools(), describeTool() and ALL_TOOLS,
	// and tool_search declares the ones it matches. MCP tools of both the
	// "codemode" (default) and "deferred" server exposures are this.
	ExposureDeferred Exposure = "deferred"
)

// Namespace groups tools, as one MCP server does. Scripts read it with
// describeNamespace(name) (Name, one of Aliases, or either with "-" as
// "_") and filter searchTools() by it.
type Namespace struct {
	Name         string
	Aliases      []string
	Description  string
	Instructions string
}

// Entry is one tool reached through codemode or tool_search.
type Entry struct {
	Tool      engine.Tool
	Exposure  Exposure
	Namespace *Namespace
	// Returns is the TypeScript type a script's call resolves to, shown
	// in the tool's declaration; empty means string. A tool whose result
	// carries StructuredContent resolves to that value (an MCP tool: its
	// CallToolResult, isError included), so such a tool should say so.
	Returns string
	// Activate names the tool the agent turns on when this entry is
	// registered: Name ("codemode") for an MCP server with codemode
	// exposure, SearchName ("tool_search") for one with deferred
	// exposure, "" for none.
	Activate string
}

// Registry holds the tools of one agent that are callable without being
// declared to the model. Any Go code (the MCP client, an embedder) adds
// tools to it; the codemode and tool_search tools read it at each call,
// so a tool added while a session runs is reachable from the next script.
// It is safe for concurrent use.
type Registry struct {
	mu       sync.Mutex
	entries  []Entry
	sources  []func() []Entry
	version  uint64
	onChange []func()
	waiters  []func(ctx context.Context, code string)
}

// OnWait registers a function that a call waits on before it reads the
// registry: the MCP client waits there for the servers that are still
// connecting. code is the script a codemode call runs, or "" for a call
// that needs every tool (tool_search).
func (r *Registry) OnWait(f func(ctx context.Context, code string)) {
	r.mu.Lock()
	r.waiters = append(r.waiters, f)
	r.mu.Unlock()
}

// Wait runs the OnWait functions for a call about to read the registry.
func (r *Registry) Wait(ctx context.Context, code string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	fns := slices.Clone(r.waiters)
	r.mu.Unlock()
	for _, f := range fns {
		f(ctx, code)
	}
}

// AddSource registers a function whose entries join the registry's at
// each read (after the added ones), for code that already keeps its own
// list, such as the MCP client's connected servers. Call Notify when the
// list changes so that Entry.Activate takes effect.
func (r *Registry) AddSource(f func() []Entry) {
	r.mu.Lock()
	r.sources = append(r.sources, f)
	r.mu.Unlock()
	r.Notify()
}

// Notify runs the OnChange functions, as Add and Remove do.
func (r *Registry) Notify() {
	r.mu.Lock()
	fns := slices.Clone(r.onChange)
	r.mu.Unlock()
	for _, f := range fns {
		f()
	}
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

// Add registers a tool, replacing one of the same name. e.Tool and
// e.Exposure are required; e.Namespace may be nil.
func (r *Registry) Add(e Entry) {
	name := e.Tool.Info().Name
	r.mu.Lock()
	if i := r.index(name); i >= 0 {
		r.entries[i] = e
	} else {
		r.entries = append(r.entries, e)
	}
	r.version++
	fns := slices.Clone(r.onChange)
	r.mu.Unlock()
	for _, f := range fns {
		f()
	}
}

// Remove withdraws a tool; later calls to it fail as unknown tools.
func (r *Registry) Remove(name string) {
	r.mu.Lock()
	i := r.index(name)
	if i >= 0 {
		r.entries = slices.Delete(r.entries, i, i+1)
		r.version++
	}
	fns := slices.Clone(r.onChange)
	r.mu.Unlock()
	if i >= 0 {
		for _, f := range fns {
			f()
		}
	}
}

// Entries returns the registered tools in registration order.
func (r *Registry) Entries() []Entry {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	out := slices.Clone(r.entries)
	srcs := slices.Clone(r.sources)
	r.mu.Unlock()
	// Sources are called without the lock: they may take their own.
	for _, f := range srcs {
		out = append(out, f()...)
	}
	return out
}

// Get returns the entry of a tool by name.
func (r *Registry) Get(name string) (Entry, bool) {
	if r == nil {
		return Entry{}, false
	}
	for _, e := range r.Entries() {
		if e.Tool.Info().Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Has reports whether a tool of the exposure is registered: the agent
// activates codemode for codemode tools and tool_search for deferred ones.
func (r *Registry) Has(exposure Exposure) bool {
	if r == nil {
		return false
	}
	for _, e := range r.Entries() {
		if e.Exposure == exposure {
			return true
		}
	}
	return false
}

// OnChange calls f (on the caller's goroutine, without the registry's
// lock) after each Add or Remove, so the agent can activate codemode or
// tool_search when such a tool first appears.
func (r *Registry) OnChange(f func()) {
	r.mu.Lock()
	r.onChange = append(r.onChange, f)
	r.mu.Unlock()
}

func (r *Registry) index(name string) int {
	return slices.IndexFunc(r.entries, func(e Entry) bool { return e.Tool.Info().Name == name })
}
