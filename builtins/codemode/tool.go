package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pi-go/pi/engine"
)

// Name is the codemode tool's name.
const Name = "codemode"

// Config is what the codemode tool needs from its agent.
type Config struct {
	// Declared returns the tools declared to the model right now; scripts
	// may call each of them but codemode and tool_search.
	Declared func() []engine.Tool
	// Registry holds the tools callable without being declared (MCP
	// tools with codemode or deferred exposure). May be nil.
	Registry *Registry
	// Extra returns more entries read at each call next to the
	// registry's (an extension's tools with exposure codemode or
	// deferred, which come and go with its generation). May be nil.
	Extra func() []Entry
	// Store keeps store() values in the session. Nil keeps them for the
	// tool's lifetime only.
	Store SessionStore
	// DocsPath is a guide to the models global the description points
	// to; empty says that models is not available.
	DocsPath string
	// TempDir receives full outputs and images; "" is os.TempDir().
	TempDir string
	// InlineBudget is codemode.inlineBudget: the estimated tokens
	// (characters / 4) the description may spend on tool declarations.
	// Nil is the default, 3000.
	InlineBudget *int
	// Only is codemode.mode "only": the description lists the declared
	// tools too, since the agent hides them from the model.
	Only bool
}

// Tool is the codemode tool.
type Tool struct {
	cfg Config
	// running counts the scripts executing now (for tests and status).
	running atomic.Int32
	mu      sync.Mutex
	mem     *storeState // values kept when Config.Store is nil
}

// New returns the codemode tool.
func New(cfg Config) *Tool { return &Tool{cfg: cfg} }

const parameters = `{"type":"object","required":["code"],"properties":{"code":{"type":"string","description":"Raw JavaScript source."}}}`

// Info declares the tool.
func (t *Tool) Info() engine.ToolInfo {
	return engine.ToolInfo{
		Name: Name, Label: Name, Description: t.description(), Parameters: json.RawMessage(parameters),
		// The model writes raw JavaScript, so the declaration brings a
		// grammar (an optional "// @options:" line, then the source) for
		// providers that sample under one, as the reference's does.
		OwnSampling: true, ConstrainedSampling: json.RawMessage(sourceGrammar),
		PromptSnippet:    "Run JavaScript that calls other tools",
		PromptGuidelines: []string{"Use codemode to run independent tool calls together (Promise.allSettled), to chain calls, or to filter large output, rather than making many separate calls."},
	}
}

// sourceGrammar is the codemode input's Lark grammar: the wire value the
// reference declares, since a provider samples the model's output under it.
const sourceGrammar = `{"type":"grammar","variants":{"openai_lark":"\nstart: options_source | plain_source\noptions_source: OPTIONS_LINE NEWLINE SOURCE\nplain_source: SOURCE\n\nOPTIONS_LINE: /[ \\t]*\\/\\/ @options:[^\\r\\n]*/\nNEWLINE: /\\r?\\n/\nSOURCE: /[\\s\\S]+/\n"}}`

func (t *Tool) description() string {
	return "Run a JavaScript script that calls other tools. Send raw JavaScript (no JSON, no markdown fence); it runs as the body of an async function in a sandbox, so top-level `await` and `return` work. There is no Node API, file system, network or timer.\n" +
		"- `await tools.<name>({ ...args })` resolves to a string, or to an object when the tool's declaration says so, and rejects with an Error when the call fails. A tool declared to return an object also resolves on failure when it produced that object; check its fields. Calls still running when the script ends are cancelled.\n" +
		"- An optional first line sets limits: `// @options: {\"max_output_tokens\": 10000, \"timeout_ms\": 60000}`\n\n" +
		"Globals:\n" +
		"- Output: `text(value)`, `image(dataUrlOrImageBlock)`, `console.log(...)` and a top-level `return`; `exit()` ends the script. Several text items each start with a `==> text N/M <==` line; console lines come after the rest in one `<console_output>` block. `image()` saves the image to a temp file and names it in the result.\n" +
		"- `store(key, value)` and `load(key)` keep JSON values from one codemode call to the next.\n" +
		"- `ALL_TOOLS`, `await searchTools(query, { limit?, namespace? })`, `await describeTool(name)` and `await describeNamespace(name)` find tools this description does not list, such as MCP tools.\n" +
		t.modelsLine() + t.listing()
}

// modelsLine says what `models` offers: this build cannot run classifier
// or image models from scripts, so its methods reject, and the line says
// so rather than pointing at a guide for something that fails.
func (t *Tool) modelsLine() string {
	if t.cfg.DocsPath != "" {
		return "- `models`: classifier and image models. Read " + t.cfg.DocsPath + " before using it."
	}
	return "- `models`: not available in this build; its methods reject."
}

// listing is the description's section of tools scripts may call that
// the model does not see declared: the registry's codemode-exposure tools
// (and, with Only, the declared tools), in order, while they fit the
// inline budget. Deferred tools are never listed, so the description
// does not change as MCP servers connect.
func (t *Tool) listing() string {
	budget := 3000
	if t.cfg.InlineBudget != nil {
		budget = *t.cfg.InlineBudget
	}
	var parts []string
	used := 0
	for _, c := range t.callable() {
		if c.entry == nil && !t.cfg.Only {
			continue
		}
		if c.entry != nil && c.entry.Exposure != ExposureCodemode {
			continue
		}
		info := c.tool.Info()
		var b strings.Builder
		b.WriteString("### `" + info.Name + "`\n" + info.Description)
		for i, g := range info.PromptGuidelines {
			if i == 0 {
				b.WriteString("\n")
			}
			b.WriteString("\n- " + g)
		}
		b.WriteString("\n\ncodemode tool declaration:\n```ts\n" + declaration(info, c.entry) + "\n```")
		if used+(b.Len()+3)/4 > budget {
			continue
		}
		used += (b.Len() + 3) / 4
		parts = append(parts, b.String())
	}
	if len(parts) == 0 {
		return ""
	}
	return "\n\nTools for scripts:\n\n" + strings.Join(parts, "\n\n")
}

// maxWorkers is PI_CODEMODE_MAX_WORKERS (default 2): scripts alive at
// once across the process. Waiters are served in arrival order (a Go
// channel queues blocked senders first in, first out).
var (
	workersOnce sync.Once
	workers     chan struct{}
)

func workerSlots() chan struct{} {
	workersOnce.Do(func() {
		n := 2
		if v, err := strconv.Atoi(os.Getenv("PI_CODEMODE_MAX_WORKERS")); err == nil && v > 0 {
			n = v
		}
		workers = make(chan struct{}, n)
	})
	return workers
}

// workerWait is the longest a script waits for a free worker.
const workerWait = 60 * time.Second

// Execute runs one script.
func (t *Tool) Execute(ctx context.Context, call engine.ToolCall, onUpdate func(engine.ToolResult)) (engine.ToolResult, error) {
	var args struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(call.Args, &args)
	opts, err := parseOptions(args.Code)
	if err != nil {
		return engine.ToolResult{Content: []engine.Content{engine.TextContent(err.Error())}, Details: json.RawMessage("{}"), IsError: true}, nil
	}
	start := time.Now()
	var deadline time.Time
	if opts.TimeoutMs > 0 {
		deadline = start.Add(time.Duration(opts.TimeoutMs) * time.Millisecond)
	}
	// Tools still being connected (MCP servers the script names, or all
	// of them for a script that searches) are waited for first, so the
	// script sees them.
	t.cfg.Registry.Wait(ctx, args.Code)
	r := &run{ctx: ctx, parentID: call.ID, cfg: &t.cfg, tools: t.callable(), timeoutMs: opts.TimeoutMs}
	if onUpdate != nil {
		onUpdate(engine.ToolResult{Content: []engine.Content{}, Details: callsDetails(nil, "")})
		r.onUpdate = func(calls []callRecord) {
			onUpdate(engine.ToolResult{Content: []engine.Content{}, Details: callsDetails(calls, "")})
		}
	}
	r.store = t.loadStore()

	wait := workerWait
	if !deadline.IsZero() && time.Until(deadline) < wait {
		wait = time.Until(deadline)
	}
	slots := workerSlots()
	timer := time.NewTimer(wait)
	select {
	case slots <- struct{}{}:
		timer.Stop()
	case <-timer.C:
		return t.result(r, start, outcome{failed: true, errMsg: fmt.Sprintf("Error: no codemode worker became free within %s (PI_CODEMODE_MAX_WORKERS is %d)", wait.Round(time.Millisecond), cap(slots))}, opts), nil
	case <-ctx.Done():
		timer.Stop()
		return t.result(r, start, outcome{failed: true, errMsg: "Error: the script was aborted"}, opts), nil
	}
	// The script runs on its own goroutine with its own runtime; this one
	// only waits for it.
	done := make(chan outcome, 1)
	go func() {
		defer func() { <-slots }()
		t.running.Add(1)
		defer t.running.Add(-1)
		done <- r.execScript(args.Code, deadline)
	}()
	out := <-done
	if !out.failed {
		t.saveStore(r.store)
	}
	return t.result(r, start, out, opts), nil
}

// callable lists the tools a script may call: the declared ones, then
// the registry's, by script identifier (the first of a name wins).
func (t *Tool) callable() []callable {
	var out []callable
	seen := map[string]bool{}
	add := func(c callable) {
		if seen[c.ident] {
			return
		}
		seen[c.ident] = true
		out = append(out, c)
	}
	if t.cfg.Declared != nil {
		for _, tool := range t.cfg.Declared() {
			// The tool itself is skipped before its Info, which lists the
			// callable tools.
			if self, ok := tool.(*Tool); ok && self == t {
				continue
			}
			name := tool.Info().Name
			if name == Name || name == SearchName {
				continue
			}
			if e, ok := t.cfg.Registry.Get(name); ok {
				add(callable{ident: jsIdent(name), tool: tool, entry: &e})
				continue
			}
			add(callable{ident: jsIdent(name), tool: tool})
		}
	}
	for _, e := range allEntries(t.cfg.Registry, t.cfg.Extra) {
		e := e
		add(callable{ident: jsIdent(e.Tool.Info().Name), tool: e.Tool, entry: &e})
	}
	return out
}

func (t *Tool) loadStore() *storeState {
	if t.cfg.Store != nil {
		return loadStore(t.cfg.Store)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	st := &storeState{values: map[string]string{}, sets: map[string]string{}}
	if t.mem != nil {
		for k, v := range t.mem.values {
			st.values[k] = v
		}
	}
	return st
}

func (t *Tool) saveStore(st *storeState) {
	data := st.entryData()
	if data == nil {
		return
	}
	if t.cfg.Store != nil {
		_ = t.cfg.Store.AppendCustom(StoreCustomType, data)
		return
	}
	t.mu.Lock()
	t.mem = st
	t.mu.Unlock()
}

func callsDetails(calls []callRecord, fullPath string) json.RawMessage {
	if calls == nil {
		calls = []callRecord{}
	}
	b, _ := engine.MarshalJSON(calls)
	out := `{"calls":` + string(b)
	if fullPath != "" {
		p, _ := engine.MarshalJSON(fullPath)
		out += `,"fullOutputPath":` + string(p)
	}
	return json.RawMessage(out + "}")
}

// result formats the tool result: a header block ("Script completed" or
// "Script failed", the wall time) and the output, with the error and the
// calls made for a failure.
func (t *Tool) result(r *run, start time.Time, out outcome, opts scriptOptions) engine.ToolResult {
	status := "Script completed"
	if out.failed {
		status = "Script failed"
	}
	header := fmt.Sprintf("%s\nWall time %.1f seconds\nOutput:\n", status, time.Since(start).Seconds())
	content := []engine.Content{engine.TextContent(header)}
	blocks, fullPath := t.renderOutput(r, opts.MaxOutputTokens)
	if out.failed {
		tail := "Script error:\n" + out.errMsg + "\n\n" + callSummary(r.calls)
		if n := len(blocks); n > 0 && blocks[n-1].Type == engine.ContentText {
			blocks[n-1].Text += "\n" + tail
		} else {
			blocks = append(blocks, engine.TextContent(tail))
		}
	}
	content = append(content, blocks...)
	return engine.ToolResult{Content: content, Details: callsDetails(r.calls, fullPath), IsError: out.failed}
}

// callSummary names the calls a failed script made, which are not undone.
func callSummary(calls []callRecord) string {
	if len(calls) == 0 {
		return "No tool calls were made."
	}
	parts := make([]string, len(calls))
	for i, c := range calls {
		status := c.Status
		if status == "running" {
			status = "cancelled"
		}
		parts[i] = fmt.Sprintf("%s (%s)", c.Name, status)
	}
	return "Tool calls made before the failure (they are not undone): " + strings.Join(parts, ", ")
}

// allEntries is the registry's entries, then extra's.
func allEntries(r *Registry, extra func() []Entry) []Entry {
	out := r.Entries()
	if extra != nil {
		out = append(out, extra()...)
	}
	return out
}
