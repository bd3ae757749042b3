package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi/engine"
)

// fakeTool echoes its arguments, or fails when asked to.
type fakeTool struct {
	name, desc string
	structured string
	mu         sync.Mutex
	calls      int
}

func (f *fakeTool) Info() engine.ToolInfo {
	return engine.ToolInfo{Name: f.name, Description: f.desc,
		Parameters: json.RawMessage(`{"type":"object","properties":{"msg":{"type":"string","description":"What to echo"},"fail":{"type":"boolean"}},"required":["msg"]}`)}
}

func (f *fakeTool) Execute(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	var a struct {
		Msg  string `json:"msg"`
		Fail bool   `json:"fail"`
	}
	_ = json.Unmarshal(call.Args, &a)
	if a.Fail {
		return engine.ErrorResult("echo failed: " + a.Msg), nil
	}
	res := engine.ToolResult{Content: []engine.Content{engine.TextContent("echo:" + a.Msg)}}
	if f.structured != "" {
		res.StructuredContent = json.RawMessage(f.structured)
	}
	return res, nil
}

// memSession is a SessionStore over a slice of entries.
type memSession struct {
	mu      sync.Mutex
	entries []*engine.Entry
}

func (m *memSession) Branch() []*engine.Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*engine.Entry(nil), m.entries...)
}

func (m *memSession) AppendCustom(t string, data json.RawMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries = append(m.entries, &engine.Entry{Type: engine.EntryCustom, CustomType: t, Data: data})
	return nil
}

func runCode(t *testing.T, tool *Tool, code string) (engine.ToolResult, string) {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"code": code})
	res, err := tool.Execute(context.Background(), engine.ToolCall{ID: "c1", Name: Name, Args: args}, nil)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, c.Text)
	}
	return res, strings.Join(parts, "\n")
}

func newTestTool(t *testing.T) (*Tool, *fakeTool, *Registry) {
	echo := &fakeTool{name: "echo", desc: "Echo a message back."}
	reg := NewRegistry()
	reg.Add(Entry{Tool: &fakeTool{name: "mcp__dev-radius__lookup", desc: "Look up a radius record.", structured: `{"content":[{"type":"text","text":"r"}],"isError":false}`},
		Exposure: ExposureDeferred, Namespace: &Namespace{Name: "dev-radius", Description: "Radius dev server", Instructions: "Use lookup."}, Returns: "CallToolResult"})
	reg.Add(Entry{Tool: &fakeTool{name: "greet", desc: "Greet someone by name."}, Exposure: ExposureCodemode})
	tool := New(Config{Declared: func() []engine.Tool { return []engine.Tool{echo} }, Registry: reg, Store: &memSession{}, TempDir: t.TempDir()})
	return tool, echo, reg
}

func TestScripts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		code    string
		isError bool
		want    []string
		notWant []string
	}{
		{name: "call a tool", code: `const r = await tools.echo({msg: "hi"}); return r`,
			want: []string{"Script completed\nWall time ", "Output:\n\necho:hi"}},
		{name: "parallel calls and console", code: `const rs = await Promise.allSettled([tools.echo({msg:"a"}), tools.echo({msg:"b", fail:true})]);
console.log("n", rs.length, {x: 1}); text(rs[0].value); text(rs[1].reason.message)`,
			want: []string{"==> text 1/2 <==\necho:a\n==> text 2/2 <==\necho failed: b\n<console_output>\nn 2 {\"x\":1}\n</console_output>"}},
		{name: "registry tool, structured result", code: `const r = await tools.mcp__dev_radius__lookup({msg: "q"}); return r.isError + ":" + r.content[0].text`,
			want: []string{"false:r"}},
		{name: "codemode-exposure tool", code: `return await tools.greet({msg: "bo"})`, want: []string{"echo:bo"}},
		{name: "throw", code: `text("partial"); throw new Error("boom")`, isError: true,
			want: []string{"Script failed", "partial\nScript error:\nError: boom\n    at ", "codemode.js:1:", "No tool calls were made."}},
		{name: "failed call rejects", code: `await tools.echo({msg: "x", fail: true})`, isError: true,
			want: []string{"Script error:\nError: echo failed: x", "Tool calls made before the failure (they are not undone): echo (error)"}},
		{name: "invalid arguments reject", code: `await tools.echo({})`, isError: true, want: []string{"Script error:\nError: ", "msg"}},
		{name: "unknown tool", code: `await tools.nope({})`, isError: true, want: []string{"TypeError: tools.nope is not a tool here. Callable tools: echo, mcp__dev_radius__lookup, greet"}},
		{name: "timeout", code: "// @options: {\"timeout_ms\": 200}\nwhile (true) {}", isError: true, want: []string{"Script timed out"}},
		{name: "never settles", code: `await new Promise(() => {})`, isError: true, want: []string{"nothing can settle"}},
		{name: "syntax error", code: `this is not js(`, isError: true, want: []string{"Script error:\nSyntaxError: "}},
		{name: "exit", code: `text("a"); exit(); text("b")`, want: []string{"Output:\n\na"}, notWant: []string{"\nb"}},
		{name: "no host objects", code: `return [typeof require, typeof process, typeof setTimeout, typeof fetch].join(",")`,
			want: []string{"undefined,undefined,undefined,undefined"}},
		{name: "truncated output", code: "// @options: {\"max_output_tokens\": 100}\ntext('x'.repeat(5000)); text('tail')",
			want: []string{"Warning: truncated output (original token count: 1260)", "…1160 tokens truncated…", "[Full output: ", "tail"}},
		{name: "too many output calls", code: `for (let i = 0; i < 100001; i++) console.log(i)`, isError: true,
			want: []string{"more than 100000 text(), image() and console calls"}},
		{name: "options not first", code: "return 1\n// @options: {}", isError: true, want: []string{"first line"}},
		{name: "unknown option", code: "// @options: {\"bogus\": 1}\nreturn 1", isError: true, want: []string{"`bogus`"}},
		{name: "search and describe", code: `const s = await searchTools("radius record"); const d = await describeTool("echo");
const ns = await describeNamespace("mcp__dev_radius"); return [s[0].name, ALL_TOOLS.length, ns.instructions, ns.tools[0]].join("|") + "\n" + d`,
			want: []string{"mcp__dev-radius__lookup|3|Use lookup.|mcp__dev-radius__lookup", "declare const tools: { echo(args: {\n  fail?: boolean;\n  // What to echo\n  msg: string;\n}): Promise<string>; };"}},
		{name: "models is a clear error", code: `await models.classify({}, {})`, isError: true, want: []string{"models.classify is not available"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tool, _, _ := newTestTool(t)
			res, text := runCode(t, tool, tc.code)
			if res.IsError != tc.isError {
				t.Errorf("isError %v, want %v: %s", res.IsError, tc.isError, text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("result lacks %q:\n%s", w, text)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(text, w) {
					t.Errorf("result has %q:\n%s", w, text)
				}
			}
		})
	}
}

func TestStoreLoad(t *testing.T) {
	t.Parallel()
	tool, _, _ := newTestTool(t)
	sess := tool.cfg.Store.(*memSession)
	if res, text := runCode(t, tool, `store("k", {v: [1, 2]}); store("gone", 1); store("gone", undefined)`); res.IsError {
		t.Fatal(text)
	}
	// A failing script's writes are dropped.
	runCode(t, tool, `store("k", "overwritten"); throw new Error("no")`)
	_, text := runCode(t, tool, `return JSON.stringify([load("k"), load("gone")])`)
	if !strings.Contains(text, `[{"v":[1,2]},null]`) {
		t.Errorf("load after store: %s", text)
	}
	if len(sess.entries) != 1 || string(sess.entries[0].Data) != `{"set":{"k":{"v":[1,2]}},"delete":["gone"]}` {
		t.Errorf("entries %d, first %s", len(sess.entries), sess.entries[0].Data)
	}
	_, text = runCode(t, tool, `store("big", "x".repeat(300000))`)
	if !strings.Contains(text, "at most 262144") {
		t.Errorf("oversized value: %s", text)
	}
}

func TestDescriptionListsCodemodeTools(t *testing.T) {
	t.Parallel()
	tool, _, _ := newTestTool(t)
	d := tool.Info().Description
	if !strings.Contains(d, "### `greet`") {
		t.Errorf("description does not list the codemode-exposure tool:\n%s", d)
	}
	if strings.Contains(d, "lookup") || strings.Contains(d, "### `echo`") {
		t.Errorf("description lists a deferred or declared tool:\n%s", d)
	}
	zero := 0
	tool.cfg.InlineBudget = &zero
	if strings.Contains(tool.Info().Description, "greet") {
		t.Errorf("inlineBudget 0 still lists tools")
	}
}

func TestToolSearch(t *testing.T) {
	t.Parallel()
	_, _, reg := newTestTool(t)
	reg.Add(Entry{Tool: &fakeTool{name: "weather_lookup", desc: "Look up the weather forecast for a city."}, Exposure: ExposureDeferred})
	var activated []string
	s := NewSearch(SearchConfig{Registry: reg, Activate: func(n []string) error { activated = n; return nil }})
	res, err := s.Execute(context.Background(), engine.ToolCall{ID: "1", Args: json.RawMessage(`{"query":"weather city"}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].Text
	if !strings.HasPrefix(text, "Loaded 1 tool") || !strings.Contains(text, "- weather_lookup: Look up the weather") {
		t.Errorf("result %q", text)
	}
	if fmt.Sprint(activated) != "[weather_lookup]" || string(res.Details) != `{"loaded":["weather_lookup"]}` {
		t.Errorf("activated %v details %s", activated, res.Details)
	}
	res, _ = s.Execute(context.Background(), engine.ToolCall{ID: "2", Args: json.RawMessage(`{"query":"zebra"}`)}, nil)
	if res.Content[0].Text != "No matching tools found." || string(res.Details) != `{"loaded":[]}` {
		t.Errorf("no match: %q %s", res.Content[0].Text, res.Details)
	}
}

// TestRegistrySource checks that a source's entries are read at each
// call: a tool the source starts to list is callable from the next script.
func TestRegistrySource(t *testing.T) {
	t.Parallel()
	reg := NewRegistry()
	var mu sync.Mutex
	var list []Entry
	reg.AddSource(func() []Entry { mu.Lock(); defer mu.Unlock(); return list })
	notified := 0
	reg.OnChange(func() { notified++ })
	tool := New(Config{Registry: reg, TempDir: t.TempDir()})
	if res, text := runCode(t, tool, `return await tools.late({msg: "a"})`); !res.IsError {
		t.Errorf("a tool no source lists was callable: %s", text)
	}
	mu.Lock()
	list = []Entry{{Tool: &fakeTool{name: "late", desc: "Arrives late."}, Exposure: ExposureDeferred}}
	mu.Unlock()
	reg.Notify()
	if res, text := runCode(t, tool, `return await tools.late({msg: "a"})`); res.IsError || !strings.Contains(text, "echo:a") {
		t.Errorf("the source's tool: %s", text)
	}
	if notified != 1 {
		t.Errorf("OnChange ran %d times, want 1", notified)
	}
}

// TestWorkerLimit fills every worker slot: a script then waits for one
// only until its timeout_ms and fails without running. It is not
// parallel, since the slots are the process's.
func TestWorkerLimit(t *testing.T) {
	slots := workerSlots()
	for i := 0; i < cap(slots); i++ {
		slots <- struct{}{}
	}
	tool, echo, _ := newTestTool(t)
	res, text := runCode(t, tool, "// @options: {\"timeout_ms\": 150}\nawait tools.echo({msg: 'x'})")
	for i := 0; i < cap(slots); i++ {
		<-slots
	}
	if !res.IsError || !strings.Contains(text, "no codemode worker became free") || echo.calls != 0 {
		t.Errorf("isError %v, calls %d: %s", res.IsError, echo.calls, text)
	}
}

// TestAbortStopsBusyScript cancels the call while the script spins: the
// interrupt ends it.
func TestAbortStopsBusyScript(t *testing.T) {
	t.Parallel()
	tool, _, _ := newTestTool(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// The script must be running before the abort to test the
		// interrupt, not the check before the start.
		for tool.running.Load() == 0 {
			runtime.Gosched()
		}
		cancel()
	}()
	res, err := tool.Execute(ctx, engine.ToolCall{ID: "a", Args: json.RawMessage(`{"code":"while (true) {}"}`)}, nil)
	if err != nil || !res.IsError || !strings.Contains(res.Content[len(res.Content)-1].Text, "aborted") {
		t.Errorf("err %v, result %+v", err, res)
	}
}
