package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// send is one pi.sendMessage call of a delivery test.
type send struct {
	text      string
	deliverAs string
	trigger   *bool
}

func boolp(b bool) *bool { return &b }

// deliveryHooks sends its planned custom messages the first time the
// run reaches a point: "turn_end" or "agent_end" (the tool point is the
// probeTool below), as an extension's handler would.
type deliveryHooks struct {
	engine.NopHooks
	mu    sync.Mutex
	s     *engine.Session
	point string
	sends []send
	fired bool
}

func (h *deliveryHooks) fire(point string) {
	h.mu.Lock()
	if h.fired || h.point != point {
		h.mu.Unlock()
		return
	}
	h.fired = true
	s, sends := h.s, h.sends
	h.mu.Unlock()
	for _, x := range sends {
		m := &engine.Message{Role: engine.RoleCustom, CustomType: "probe", Content: engine.StringContents(x.text), Display: true}
		if err := s.SendCustom(m, x.deliverAs, x.trigger); err != nil {
			panic(err)
		}
	}
}

func (h *deliveryHooks) Event(_ context.Context, e engine.Event) {
	switch e.(type) {
	case engine.TurnEnd:
		h.fire("turn_end")
	case engine.AgentEnd:
		h.fire("agent_end")
	}
}

// probeTool fires the "tool" point while it runs.
type probeTool struct{ h *deliveryHooks }

func (t probeTool) Info() engine.ToolInfo {
	return engine.ToolInfo{Name: "probe", Description: "probe", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)}
}

func (t probeTool) Execute(context.Context, engine.ToolCall, func(engine.ToolResult)) (engine.ToolResult, error) {
	t.h.fire("tool")
	return engine.ToolResult{Content: []engine.Content{engine.TextContent("probed")}}, nil
}

// textOf is a message's text, tool calls shown as "call".
func textOf(m *engine.Message) string {
	var b strings.Builder
	for _, c := range m.Content.Blocks {
		switch c.Type {
		case engine.ContentText:
			b.WriteString(c.Text)
		case engine.ContentToolCall:
			b.WriteString("call")
		}
	}
	return b.String()
}

// allSends is every sendMessage option combination the reference
// distinguishes during a run.
var allSends = []send{
	{text: "m-default"},
	{text: "m-follow", deliverAs: "followUp"},
	{text: "m-notrigger", trigger: boolp(false)},
	{text: "m-notrigger-follow", deliverAs: "followUp", trigger: boolp(false)},
	{text: "m-next", deliverAs: "nextTurn"},
	{text: "m-trigger", trigger: boolp(true)},
}

// TestSendCustomDuringRun checks the reference's delivery of custom
// messages sent while the agent runs (recorded live from pi 1.6.0 with
// the mock LLM): steering ones one per turn, then follow-ups; held ones
// (triggerTurn false) recorded after the turn in which they were sent,
// with no queue_update; nextTurn ones kept for the next prompt; and
// every custom message stored as a custom_message entry.
func TestSendCustomDuringRun(t *testing.T) {
	t.Parallel()
	cases := []struct {
		point string
		turns []faux.Turn
		// requests lists, per LLM request, the texts of its messages.
		requests []string
		entries  string
	}{
		{
			point: "tool",
			turns: []faux.Turn{{ToolCalls: []faux.ToolCall{{Name: "probe", Args: "{}"}}}, {Text: "t2"}, {Text: "t3"}, {Text: "t4"}, {Text: "t5"}},
			requests: []string{
				"go",
				"go|call|probed|m-notrigger|m-notrigger-follow|m-default",
				"go|call|probed|m-notrigger|m-notrigger-follow|m-default|t2|m-trigger",
				"go|call|probed|m-notrigger|m-notrigger-follow|m-default|t2|m-trigger|t3|m-follow",
			},
			entries: "user:go assistant:call toolResult:probed custom:m-notrigger custom:m-notrigger-follow custom:m-default assistant:t2 custom:m-trigger assistant:t3 custom:m-follow assistant:t4",
		},
		{
			point: "turn_end",
			turns: []faux.Turn{{Text: "t1"}, {Text: "t2"}, {Text: "t3"}, {Text: "t4"}},
			requests: []string{
				"go",
				"go|t1|m-notrigger|m-notrigger-follow|m-default",
				"go|t1|m-notrigger|m-notrigger-follow|m-default|t2|m-trigger",
				"go|t1|m-notrigger|m-notrigger-follow|m-default|t2|m-trigger|t3|m-follow",
			},
			entries: "user:go assistant:t1 custom:m-notrigger custom:m-notrigger-follow custom:m-default assistant:t2 custom:m-trigger assistant:t3 custom:m-follow assistant:t4",
		},
		{
			// Messages queued by agent_end handlers start another run at
			// once; the held ones wait for its first turn to end.
			point: "agent_end",
			turns: []faux.Turn{{Text: "t1"}, {Text: "t2"}, {Text: "t3"}, {Text: "t4"}},
			requests: []string{
				"go",
				"go|t1|m-default",
				"go|t1|m-default|t2|m-notrigger|m-notrigger-follow|m-trigger",
				"go|t1|m-default|t2|m-notrigger|m-notrigger-follow|m-trigger|t3|m-follow",
			},
			entries: "user:go assistant:t1 custom:m-default assistant:t2 custom:m-notrigger custom:m-notrigger-follow custom:m-trigger assistant:t3 custom:m-follow assistant:t4",
		},
	}
	for _, tc := range cases {
		t.Run(tc.point, func(t *testing.T) {
			t.Parallel()
			h := &deliveryHooks{point: tc.point, sends: allSends}
			p := faux.New(tc.turns...)
			s, err := engine.NewSession(engine.SessionOptions{
				Store: session.InMemory(t.TempDir(), ""), Model: smallModel(128000), ThinkingLevel: engine.ThinkingOff,
				ProviderFor: func(string) (engine.Provider, error) { return p, nil },
				Settings:    engine.DefaultRuntimeSettings(), Compactor: compaction.Compactor{}, Hooks: h,
				Tools: []engine.Tool{probeTool{h}},
				Sleep: func(context.Context, time.Duration) error { return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			h.s = s
			var queueUpdates []string
			var mu sync.Mutex
			s.Subscribe(func(e engine.Event) {
				if q, ok := e.(engine.QueueUpdate); ok {
					mu.Lock()
					queueUpdates = append(queueUpdates, fmt.Sprint(q.Steering, q.FollowUp))
					mu.Unlock()
				}
			})
			if _, err := s.Prompt(context.Background(), "go", nil, engine.PromptOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := s.WaitIdle(context.Background()); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range p.Requests() {
				var texts []string
				for _, m := range r.Messages {
					if m.Role != engine.RoleSystem {
						texts = append(texts, textOf(m))
					}
				}
				got = append(got, strings.Join(texts, "|"))
			}
			if strings.Join(got, "\n") != strings.Join(tc.requests, "\n") {
				t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.requests, "\n"))
			}
			var entries []string
			for _, e := range s.Store().Entries() {
				switch e.Type {
				case engine.EntryMessage:
					if e.Message.Role != engine.RoleSystem {
						entries = append(entries, e.Message.Role+":"+textOf(e.Message))
					}
				case engine.EntryCustomMessage:
					entries = append(entries, "custom:"+textOf(&engine.Message{Content: *e.Content}))
				}
			}
			if g := strings.Join(entries, " "); g != tc.entries {
				t.Errorf("entries:\n%s\nwant:\n%s", g, tc.entries)
			}
			if len(queueUpdates) > 0 {
				t.Errorf("custom messages announced in queue_update: %v", queueUpdates)
			}
			if n := s.State().PendingMessageCount; n != 0 {
				t.Errorf("pendingMessageCount %d", n)
			}
		})
	}
}

// TestSendCustomIdle checks sendMessage while idle: recorded at once
// without triggerTurn (announced to listeners), a run with it, and
// nextTurn messages joining the next prompt after its user message.
func TestSendCustomIdle(t *testing.T) {
	t.Parallel()
	p := faux.New(faux.Turn{Text: "t1"}, faux.Turn{Text: "t2"})
	s, err := engine.NewSession(engine.SessionOptions{
		Store: session.InMemory(t.TempDir(), ""), Model: smallModel(128000), ThinkingLevel: engine.ThinkingOff,
		ProviderFor: func(string) (engine.Provider, error) { return p, nil },
		Settings:    engine.DefaultRuntimeSettings(),
		Sleep:       func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var events []string
	s.Subscribe(func(e engine.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := e.(type) {
		case engine.MessageStart:
			events = append(events, "start:"+textOf(ev.Message))
		case engine.AgentStart:
			events = append(events, "agent_start")
		}
	})
	custom := func(text string) *engine.Message {
		return &engine.Message{Role: engine.RoleCustom, CustomType: "probe", Content: engine.StringContents(text), Display: true}
	}
	for _, x := range []send{{text: "m-plain"}, {text: "m-false", trigger: boolp(false)}, {text: "m-next", deliverAs: "nextTurn"}} {
		if err := s.SendCustom(custom(x.text), x.deliverAs, x.trigger); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Prompt(context.Background(), "go", nil, engine.PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.SendCustom(custom("m-trigger"), "", boolp(true)); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var texts []string
	for _, m := range reqs[1].Messages {
		texts = append(texts, textOf(m))
	}
	if got, want := strings.Join(texts, "|"), "m-plain|m-false|go|m-next|t1|m-trigger"; got != want {
		t.Errorf("second request %q, want %q", got, want)
	}
	mu.Lock()
	got := strings.Join(events, " ")
	mu.Unlock()
	want := "start:m-plain start:m-false agent_start start:go start:m-next start: agent_start start:m-trigger start:" // assistants start empty
	if got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	n := 0
	for _, e := range s.Store().Entries() {
		if e.Type == engine.EntryCustomMessage {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d custom_message entries, want 4", n)
	}
}

// customStartHooks answers before_agent_start for custom-triggered runs.
type customStartHooks struct {
	engine.NopHooks
	mu   sync.Mutex
	seen []string
}

func (h *customStartHooks) BeforeAgentStartCustom(_ context.Context, m *engine.Message, _ string) (*engine.BeforeAgentStartResult, error) {
	h.mu.Lock()
	h.seen = append(h.seen, textOf(m))
	h.mu.Unlock()
	inj := &engine.Message{Role: engine.RoleCustom, CustomType: "injected", Content: engine.StringContents("injected"), Display: true}
	return &engine.BeforeAgentStartResult{Messages: []*engine.Message{inj}}, nil
}

// TestSendCustomTriggerRunsBeforeAgentStart checks that a run started by
// a custom message runs before_agent_start with it, and that its first
// request holds the message, then the nextTurn ones, then the handlers'.
func TestSendCustomTriggerRunsBeforeAgentStart(t *testing.T) {
	t.Parallel()
	h := &customStartHooks{}
	p := faux.New(faux.Turn{Text: "t1"})
	s, err := engine.NewSession(engine.SessionOptions{
		Store: session.InMemory(t.TempDir(), ""), Model: smallModel(128000), ThinkingLevel: engine.ThinkingOff,
		ProviderFor: func(string) (engine.Provider, error) { return p, nil },
		Settings:    engine.DefaultRuntimeSettings(), Hooks: h,
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	custom := func(text string) *engine.Message {
		return &engine.Message{Role: engine.RoleCustom, CustomType: "probe", Content: engine.StringContents(text), Display: true}
	}
	if err := s.SendCustom(custom("m-next"), "nextTurn", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.SendCustom(custom("m-trigger"), "", boolp(true)); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	var texts []string
	for _, m := range reqs[0].Messages {
		texts = append(texts, textOf(m))
	}
	if got, want := strings.Join(texts, "|"), "m-trigger|m-next|injected"; got != want {
		t.Errorf("request %q, want %q", got, want)
	}
	if got := strings.Join(h.seen, "|"); got != "m-trigger" {
		t.Errorf("before_agent_start saw %q", got)
	}
}

// settledHooks sends from its first agent_settled handler.
type settledHooks struct {
	engine.NopHooks
	s       *engine.Session
	once    sync.Once
	idle    bool
	trigger bool
}

func (h *settledHooks) Event(_ context.Context, e engine.Event) {
	if _, ok := e.(engine.AgentSettled); !ok {
		return
	}
	h.once.Do(func() {
		h.idle = !h.s.IsStreaming()
		m := func(text string) *engine.Message {
			return &engine.Message{Role: engine.RoleCustom, CustomType: "probe", Content: engine.StringContents(text), Display: true}
		}
		_ = h.s.SendCustom(m("m-plain"), "", nil)
		if h.trigger {
			_ = h.s.SendCustom(m("m-trigger"), "", boolp(true))
		}
	})
}

// TestSendCustomInAgentSettled checks sends from agent_settled: the run
// is over (the session is idle), a plain send is recorded at once, and a
// triggerTurn one starts a run once agent_settled has reached everyone,
// which WaitIdle waits for too.
func TestSendCustomInAgentSettled(t *testing.T) {
	t.Parallel()
	for _, trigger := range []bool{false, true} {
		t.Run(fmt.Sprint("trigger=", trigger), func(t *testing.T) {
			t.Parallel()
			h := &settledHooks{trigger: trigger}
			p := faux.New(faux.Turn{Text: "t1"}, faux.Turn{Text: "t2"})
			s, err := engine.NewSession(engine.SessionOptions{
				Store: session.InMemory(t.TempDir(), ""), Model: smallModel(128000), ThinkingLevel: engine.ThinkingOff,
				ProviderFor: func(string) (engine.Provider, error) { return p, nil },
				Settings:    engine.DefaultRuntimeSettings(), Hooks: h,
				Sleep: func(context.Context, time.Duration) error { return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			h.s = s
			var mu sync.Mutex
			var events []string
			s.Subscribe(func(e engine.Event) {
				mu.Lock()
				defer mu.Unlock()
				switch ev := e.(type) {
				case engine.AgentSettled:
					events = append(events, "settled")
				case engine.AgentStart:
					events = append(events, "agent_start")
				case engine.MessageEnd:
					events = append(events, ev.Message.Role+":"+textOf(ev.Message))
				}
			})
			if _, err := s.Prompt(context.Background(), "go", nil, engine.PromptOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := s.WaitIdle(context.Background()); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			got := strings.Join(events, " ")
			mu.Unlock()
			want := "agent_start user:go assistant:t1 custom:m-plain settled"
			if trigger {
				want += " agent_start custom:m-trigger assistant:t2 settled"
			}
			if got != want || !h.idle {
				t.Errorf("events %q (idle in handler %v), want %q", got, h.idle, want)
			}
		})
	}
}

// TestCustomDisplayOmitted checks that a custom message or custom_message
// entry whose sender left display out is written without the key (the
// reference's JSON.stringify drops undefined), and read back so.
func TestCustomDisplayOmitted(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"message omitted", &engine.Message{Role: engine.RoleCustom, CustomType: "c", Content: engine.StringContents("x"), DisplayOmitted: true, Timestamp: 1},
			`{"role":"custom","customType":"c","content":"x","timestamp":1}`},
		{"message false", &engine.Message{Role: engine.RoleCustom, CustomType: "c", Content: engine.StringContents("x"), Timestamp: 1},
			`{"role":"custom","customType":"c","content":"x","display":false,"timestamp":1}`},
		{"entry omitted", &engine.Entry{Type: engine.EntryCustomMessage, CustomType: "c", Content: &engine.Contents{Blocks: []engine.Content{engine.TextContent("x")}, IsString: true}, DisplayOmitted: true, ID: "a", Timestamp: "t"},
			`{"type":"custom_message","customType":"c","content":"x","id":"a","parentId":null,"timestamp":"t"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := engine.MarshalJSON(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Fatalf("got  %s\nwant %s", b, tc.want)
			}
			var again []byte
			switch tc.v.(type) {
			case *engine.Message:
				var m engine.Message
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				again, err = engine.MarshalJSON(&m)
			case *engine.Entry:
				var e engine.Entry
				if err := json.Unmarshal(b, &e); err != nil {
					t.Fatal(err)
				}
				again, err = engine.MarshalJSON(&e)
			}
			if err != nil || string(again) != tc.want {
				t.Fatalf("round trip %s (%v)", again, err)
			}
		})
	}
}
