package engine

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files")

// memStore is a minimal in-memory Store for the runtime's tests.
type memStore struct {
	mu      sync.Mutex
	entries []*Entry
	leaf    string
	n       int
}

func (m *memStore) Header() Header { return Header{Type: "session", ID: "test-session"} }
func (m *memStore) Path() string   { return "" }
func (m *memStore) Append(e *Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	e.ID = fmt.Sprintf("e%d", m.n)
	if m.leaf != "" {
		p := m.leaf
		e.ParentID = &p
	}
	if e.Timestamp == "" {
		e.Timestamp = "2026-01-01T00:00:00.000Z"
	}
	m.entries = append(m.entries, e)
	m.leaf = e.ID
	return nil
}
func (m *memStore) Entries() []*Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*Entry(nil), m.entries...)
}
func (m *memStore) Branch() []*Entry { return m.Entries() }
func (m *memStore) LeafID() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.leaf
}
func (m *memStore) SetLeaf(id string) error { m.leaf = id; return nil }
func (m *memStore) Get(id string) (*Entry, bool) {
	for _, e := range m.Entries() {
		if e.ID == id {
			return e, true
		}
	}
	return nil, false
}
func (m *memStore) Close() error { return nil }

// step is one scripted provider reply.
type step struct {
	text  string
	calls []Content
	err   string // an error reply
	stop  StopReason
	block chan struct{} // when set, the stream waits here (or for abort) after its first delta
}

// scripted is a fake Provider that plays replies in order.
type scripted struct {
	mu    sync.Mutex
	steps []step
	reqs  []*LLMRequest
}

func (p *scripted) Stream(ctx context.Context, req *LLMRequest, emit func(AssistantEvent)) *Message {
	p.mu.Lock()
	p.reqs = append(p.reqs, req)
	if len(p.steps) == 0 {
		p.mu.Unlock()
		return &Message{Role: RoleAssistant, StopReason: StopError, ErrorMessage: "script exhausted"}
	}
	st := p.steps[0]
	p.steps = p.steps[1:]
	p.mu.Unlock()
	m := &Message{Role: RoleAssistant, API: "faux", Provider: "faux", Model: "faux-1", StopReason: StopPending, Timestamp: 1}
	if st.err != "" {
		m.StopReason, m.ErrorMessage = StopError, st.err
		return m
	}
	emit(AssistantEvent{Type: AEStart, Partial: m})
	if st.text != "" {
		m.Content.Blocks = append(m.Content.Blocks, TextContent(""))
		i := len(m.Content.Blocks) - 1
		emit(AssistantEvent{Type: AETextStart, ContentIndex: i, Partial: m})
		m.Content.Blocks[i].Text = st.text
		emit(AssistantEvent{Type: AETextDelta, ContentIndex: i, Delta: st.text, Partial: m})
		if st.block != nil {
			select {
			case <-st.block:
			case <-ctx.Done():
				emit(AssistantEvent{Type: AETextEnd, ContentIndex: i, Content: st.text, Partial: m})
				m.StopReason, m.ErrorMessage = StopAborted, "Request was aborted"
				emit(AssistantEvent{Type: AEError, Reason: StopAborted, Partial: m})
				return m
			}
		}
		emit(AssistantEvent{Type: AETextEnd, ContentIndex: i, Content: st.text, Partial: m})
	}
	for _, c := range st.calls {
		m.Content.Blocks = append(m.Content.Blocks, Content{Type: ContentToolCall, ID: c.ID, Name: c.Name})
		i := len(m.Content.Blocks) - 1
		emit(AssistantEvent{Type: AEToolCallStart, ContentIndex: i, Partial: m})
		m.Content.Blocks[i].Arguments = c.Arguments
		emit(AssistantEvent{Type: AEToolCallDelta, ContentIndex: i, Delta: string(c.Arguments), Partial: m})
		tc := m.Content.Blocks[i]
		emit(AssistantEvent{Type: AEToolCallEnd, ContentIndex: i, ToolCall: &tc, Partial: m})
	}
	m.StopReason = StopStop
	if len(st.calls) > 0 {
		m.StopReason = StopToolUse
	}
	if st.stop != "" {
		m.StopReason = st.stop
	}
	m.Usage = Usage{Input: 10, Output: 5, TotalTokens: 15}
	emit(AssistantEvent{Type: AEDone, Reason: m.StopReason, Partial: m})
	return m
}

// fakeTool echoes its arguments, optionally waiting on a channel first.
type fakeTool struct {
	name   string
	schema string
	wait   chan struct{}
	fail   string
}

func (t *fakeTool) Info() ToolInfo {
	s := t.schema
	if s == "" {
		s = `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`
	}
	return ToolInfo{Name: t.name, Description: t.name + " tool", Parameters: json.RawMessage(s)}
}

func (t *fakeTool) Execute(ctx context.Context, call ToolCall, onUpdate func(ToolResult)) (ToolResult, error) {
	onUpdate(ToolResult{Content: []Content{TextContent("working")}})
	if t.wait != nil {
		select {
		case <-t.wait:
		case <-ctx.Done():
			return ToolResult{}, errors.New("Command aborted")
		}
	}
	if t.fail != "" {
		return ToolResult{}, errors.New(t.fail)
	}
	return ToolResult{Content: []Content{TextContent(t.name + " " + string(call.Args))}}, nil
}

func call(id, name, args string) Content {
	return Content{Type: ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(args)}
}

var testModel = &Model{ID: "faux-1", Name: "faux-1", API: "faux", Provider: "faux", Input: []string{"text"}, ContextWindow: 128000, MaxTokens: 16384}

func str(s string) *string { return &s }

type harness struct {
	s      *Session
	p      *scripted
	store  *memStore
	mu     sync.Mutex
	events []Event
}

func newHarness(t *testing.T, p *scripted, tools []Tool, tweak func(*SessionOptions)) *harness {
	t.Helper()
	h := &harness{p: p, store: &memStore{}}
	opts := SessionOptions{
		Store: h.store, Model: testModel, ThinkingLevel: ThinkingOff, Tools: tools,
		ProviderFor: func(string) (Provider, error) { return p, nil },
		SystemPrompt: func(tools []ToolInfo) Sections {
			return Sections{{Name: "preamble", Value: str("You help.")}, {Name: "cwd", Value: str("<cwd>\n/x\n</cwd>")}}
		},
		Settings: DefaultRuntimeSettings(),
		Sleep:    func(context.Context, time.Duration) error { return nil },
	}
	if tweak != nil {
		tweak(&opts)
	}
	s, err := NewSession(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.s = s
	s.Subscribe(func(e Event) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.events = append(h.events, e)
	})
	return h
}

func (h *harness) prompt(t *testing.T, text string) {
	t.Helper()
	if _, err := h.s.Prompt(context.Background(), text, nil, PromptOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) wait(t *testing.T) {
	t.Helper()
	if err := h.s.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// summary renders the events as one short line each.
func (h *harness) summary() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var b strings.Builder
	for _, e := range h.events {
		b.WriteString(e.EventType())
		switch ev := e.(type) {
		case MessageStart:
			b.WriteString(" " + ev.Message.Role)
		case MessageEnd:
			b.WriteString(" " + ev.Message.Role)
			if ev.Message.Role == RoleAssistant {
				b.WriteString(" " + string(ev.Message.StopReason))
			}
			if ev.Message.Role == RoleToolResult {
				fmt.Fprintf(&b, " %s error=%v %q", ev.Message.ToolCallID, ev.Message.IsError, ev.Message.Content.Text())
			}
			if ev.Message.Role == RoleUser {
				fmt.Fprintf(&b, " %q", ev.Message.Content.Text())
			}
		case MessageUpdate:
			b.WriteString(" " + ev.AssistantMessageEvent.Type)
		case ToolExecutionStart:
			b.WriteString(" " + ev.ToolCallID)
		case ToolExecutionUpdate:
			b.WriteString(" " + ev.ToolCallID)
		case ToolExecutionEnd:
			fmt.Fprintf(&b, " %s error=%v", ev.ToolCallID, ev.IsError)
		case AgentEnd:
			fmt.Fprintf(&b, " messages=%d willRetry=%v", len(ev.Messages), ev.WillRetry)
		case AgentSettled:
			fmt.Fprintf(&b, " aborted=%v", ev.Aborted)
		case QueueUpdate:
			fmt.Fprintf(&b, " %q %q", ev.Steering, ev.FollowUp)
		case AutoRetryStart:
			fmt.Fprintf(&b, " attempt=%d/%d delay=%d %q", ev.Attempt, ev.MaxAttempts, ev.DelayMs, ev.ErrorMessage)
		case AutoRetryEnd:
			fmt.Fprintf(&b, " success=%v attempt=%d %q", ev.Success, ev.Attempt, ev.FinalError)
		case EntryAppended:
			fmt.Fprintf(&b, " %s target=%s", ev.Entry.Type, ev.Entry.TargetID)
		case ThinkingLevelChanged:
			b.WriteString(" " + string(ev.Level))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "loop", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s: events differ\n--- want\n%s\n--- got\n%s", name, want, got)
	}
}

func TestSessionScenarios(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		steps []step
		tools func() []Tool
		tweak func(*SessionOptions)
		run   func(t *testing.T, h *harness)
	}{
		{name: "text_reply", steps: []step{{text: "Hello."}}},
		{name: "tool_round_trip", steps: []step{{text: "Reading.", calls: []Content{call("c1", "read", `{"path":"a.txt"}`)}}, {text: "Done."}},
			tools: func() []Tool { return []Tool{&fakeTool{name: "read"}} }},
		{name: "validation_and_unknown", steps: []step{{calls: []Content{
			call("c1", "read", `{}`), call("c2", "nope", `{}`), call("c3", "read", `{"path":"x","n":null}`),
			call("c4", "read", `{bad`),
		}}, {text: "ok"}},
			tools: func() []Tool { return []Tool{&fakeTool{name: "read"}} }},
		{name: "thrown_error", steps: []step{{calls: []Content{call("c1", "boom", `{"path":"p"}`)}}, {text: "ok"}},
			tools: func() []Tool { return []Tool{&fakeTool{name: "boom", fail: "it broke"}} }},
		{name: "length_stop", steps: []step{{calls: []Content{call("c1", "read", `{"path":"a"}`)}, stop: StopLength}, {text: "ok"}},
			tools: func() []Tool { return []Tool{&fakeTool{name: "read"}} }},
		{name: "retry_529_then_success", steps: []step{{err: `529: {"message":"Overloaded","type":"overloaded_error"}`}, {text: "Recovered."}}},
		{name: "retry_exhausted", steps: []step{{err: "500: boom"}, {err: "500: boom"}, {err: "500: boom"}, {err: "500: boom"}}},
		{name: "non_retryable_400", steps: []step{{err: `400: {"message":"bad request"}`}}},
		{name: "follow_up_queued_idle", steps: []step{{text: "one"}, {text: "two"}},
			run: func(t *testing.T, h *harness) {
				h.s.FollowUp("later", nil)
				h.prompt(t, "first")
				h.wait(t)
			}},
		{name: "steer_queued_idle_all_mode", steps: []step{{text: "one"}},
			tweak: func(o *SessionOptions) { o.Settings.SteeringMode = QueueAll },
			run: func(t *testing.T, h *harness) {
				h.s.Steer("s1", nil)
				h.s.Steer("s2", nil)
				h.prompt(t, "first")
				h.wait(t)
			}},
		{name: "steer_queued_idle_one_at_a_time", steps: []step{{text: "one"}, {text: "two"}},
			run: func(t *testing.T, h *harness) {
				h.s.Steer("s1", nil)
				h.s.Steer("s2", nil)
				h.prompt(t, "first")
				h.wait(t)
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var tools []Tool
			if tc.tools != nil {
				tools = tc.tools()
			}
			h := newHarness(t, &scripted{steps: tc.steps}, tools, tc.tweak)
			if tc.run != nil {
				tc.run(t, h)
			} else {
				h.prompt(t, "hi")
				h.wait(t)
			}
			golden(t, tc.name, h.summary())
		})
	}
}

func TestParallelToolOrder(t *testing.T) {
	t.Parallel()
	slow := &fakeTool{name: "slow", wait: make(chan struct{})}
	fast := &fakeTool{name: "fast"}
	h := newHarness(t, &scripted{steps: []step{{calls: []Content{call("t1", "slow", `{"path":"a"}`), call("t2", "fast", `{"path":"b"}`)}}, {text: "ok"}}}, []Tool{slow, fast}, nil)
	// Release the slow tool only once the fast one has ended, so the end
	// events must come in completion order.
	h.s.Subscribe(func(e Event) {
		if ev, ok := e.(ToolExecutionEnd); ok && ev.ToolCallID == "t2" {
			close(slow.wait)
		}
	})
	h.prompt(t, "go")
	h.wait(t)
	// Updates of concurrent tools interleave freely; the order that
	// matters is starts, ends and result messages.
	var lines []string
	for _, l := range strings.Split(h.summary(), "\n") {
		if !strings.HasPrefix(l, "tool_execution_update") {
			lines = append(lines, l)
		}
	}
	golden(t, "parallel_tools", strings.Join(lines, "\n"))
}

func TestSteerWhileStreaming(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	h := newHarness(t, &scripted{steps: []step{{text: "Counting", block: release}, {text: "Steered."}}}, nil, nil)
	started := make(chan struct{})
	var once sync.Once
	h.s.Subscribe(func(e Event) {
		if ev, ok := e.(MessageUpdate); ok && ev.AssistantMessageEvent.Type == AETextDelta {
			once.Do(func() { close(started) })
		}
	})
	h.prompt(t, "count")
	<-started
	if _, err := h.s.Prompt(context.Background(), "again", nil, PromptOptions{}); err == nil || err.Error() != ErrAlreadyProcessing.Error() {
		t.Fatalf("prompt while streaming: %v", err)
	}
	d, err := h.s.Prompt(context.Background(), "steer me", nil, PromptOptions{StreamingBehavior: "steer"})
	if err != nil || d != DispositionQueued {
		t.Fatalf("steer: %q %v", d, err)
	}
	close(release)
	h.wait(t)
	golden(t, "steer_while_streaming", h.summary())
}

func TestAbortDuringStream(t *testing.T) {
	t.Parallel()
	h := newHarness(t, &scripted{steps: []step{{text: "This ans", block: make(chan struct{})}}}, nil, nil)
	started := make(chan struct{})
	var once sync.Once
	h.s.Subscribe(func(e Event) {
		if _, ok := e.(MessageUpdate); ok {
			once.Do(func() { close(started) })
		}
	})
	h.s.FollowUp("kept", nil)
	h.prompt(t, "long")
	<-started
	h.s.Abort()
	if h.s.IsStreaming() {
		t.Fatal("still streaming after Abort")
	}
	if st := h.s.State(); st.PendingMessageCount != 1 {
		t.Fatalf("abort must keep queues, pending=%d", st.PendingMessageCount)
	}
	golden(t, "abort_stream", h.summary())
}

func TestAbortDuringTool(t *testing.T) {
	t.Parallel()
	tool := &fakeTool{name: "bash", wait: make(chan struct{})}
	h := newHarness(t, &scripted{steps: []step{{calls: []Content{call("c1", "bash", `{"path":"x"}`)}}}}, []Tool{tool}, nil)
	running := make(chan struct{})
	var once sync.Once
	h.s.Subscribe(func(e Event) {
		if _, ok := e.(ToolExecutionUpdate); ok {
			once.Do(func() { close(running) })
		}
	})
	h.prompt(t, "run")
	<-running
	h.s.Abort()
	golden(t, "abort_tool", h.summary())
}

func TestRetryPersistsContextEdit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, &scripted{steps: []step{{err: "503: unavailable"}, {text: "ok"}}}, nil, nil)
	h.prompt(t, "hi")
	h.wait(t)
	var edits int
	for _, e := range h.store.Entries() {
		if e.Type == EntryContextEdit {
			edits++
		}
	}
	if edits != 1 {
		t.Fatalf("context_edit entries = %d", edits)
	}
	for _, m := range h.s.Messages() {
		if m.Role == RoleAssistant && m.StopReason == StopError {
			t.Fatal("failed attempt still in context")
		}
	}
	// The retried request ends with the user message, not the failed reply.
	last := h.p.reqs[1].Messages
	if got := last[len(last)-1].Role; got != RoleUser {
		t.Fatalf("retried request ends with %s", got)
	}
}

func TestSessionThinkingClamp(t *testing.T) {
	t.Parallel()
	reasoning := &Model{ID: "r", Provider: "faux", API: "faux", Reasoning: true}
	cases := []struct {
		model *Model
		set   ThinkingLevel
		want  ThinkingLevel
		event bool
	}{
		{testModel, ThinkingMedium, ThinkingOff, false},
		{reasoning, ThinkingXHigh, ThinkingHigh, true},
		{reasoning, ThinkingOff, ThinkingOff, false},
	}
	for _, tc := range cases {
		h := newHarness(t, &scripted{}, nil, func(o *SessionOptions) { o.Model = tc.model })
		if got := h.s.SetThinkingLevel(tc.set); got != tc.want {
			t.Errorf("%s/%s: got %s want %s", tc.model.ID, tc.set, got, tc.want)
		}
		if got := strings.Contains(h.summary(), "thinking_level_changed"); got != tc.event {
			t.Errorf("%s/%s: event=%v want %v", tc.model.ID, tc.set, got, tc.event)
		}
	}
}

func TestStartupEntriesAndState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, &scripted{steps: []step{{text: "x"}}}, []Tool{&fakeTool{name: "read"}}, nil)
	es := h.store.Entries()
	if len(es) != 2 || es[0].Type != EntryModelChange || es[1].Type != EntryThinkingLevelChange {
		t.Fatalf("startup entries: %+v", es)
	}
	h.prompt(t, "hi")
	h.wait(t)
	st := h.s.State()
	b, err := MarshalJSON(st)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), `{"model":{"id":"faux-1"`) || !strings.Contains(string(b), `"messageCount":3,"pendingMessageCount":0}`) {
		t.Fatalf("state: %s", b)
	}
	sys := h.s.Messages()[0]
	sb, _ := MarshalJSON(sys)
	if !strings.Contains(string(sb), `"toolsAdded":[{"name":"read","description":"read tool","parameters":{"type":"object"`) ||
		!strings.Contains(string(sb), `"constrainedSampling":{"type":"json_schema","strict":"prefer"}`) {
		t.Fatalf("system message: %s", sb)
	}
	// A second prompt with nothing changed records no new system message.
	h.p.steps = []step{{text: "y"}}
	h.prompt(t, "again")
	h.wait(t)
	n := 0
	for _, m := range h.s.Messages() {
		if m.Role == RoleSystem {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("system messages = %d", n)
	}
	// Removing the tool records a patch.
	h.s.SetTools(nil)
	h.p.steps = []step{{text: "z"}}
	h.prompt(t, "third")
	h.wait(t)
	var patch *Message
	for _, m := range h.s.Messages() {
		if m.Role == RoleSystem {
			patch = m
		}
	}
	pb, _ := MarshalJSON(patch)
	if !strings.Contains(string(pb), `"toolsRemoved":[{"name":"read"}]`) || strings.Contains(string(pb), "sections") {
		t.Fatalf("patch: %s", pb)
	}
}

func TestPanickingSubscriber(t *testing.T) {
	t.Parallel()
	h := newHarness(t, &scripted{steps: []step{{text: "fine"}}}, nil, nil)
	h.s.Subscribe(func(Event) { panic("bad subscriber") })
	h.prompt(t, "hi")
	h.wait(t)
	if !strings.Contains(h.summary(), "agent_settled aborted=false") {
		t.Fatal("loop did not survive a panicking subscriber")
	}
}

func TestClearQueue(t *testing.T) {
	t.Parallel()
	h := newHarness(t, &scripted{}, nil, nil)
	h.s.Steer("a", nil)
	h.s.FollowUp("b", nil)
	st, fu := h.s.ClearQueue()
	if strings.Join(st, ",") != "a" || strings.Join(fu, ",") != "b" || h.s.State().PendingMessageCount != 0 {
		t.Fatalf("clear: %v %v", st, fu)
	}
}
