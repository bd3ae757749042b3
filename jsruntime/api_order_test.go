package jsruntime

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

// orderExt records an entry and renames the session from one event's
// handlers (async ones, as most extensions write them).
const orderExt = `export default function (pi) {
  let n = 0;
  const mark = (where) => { n++; pi.appendEntry("mark", { where, n }); pi.setSessionName("name-" + where); };
  for (const ev of EVENTS) pi.on(ev, async (e) => {
    if (ev === "message_end" && e.message.role !== "assistant") return;
    mark(ev);
  });
  pi.registerCommand("mk", { handler: async () => { mark("command"); } });
}`

// trace is the subscriber's view: event types, with the mark's place for
// entry_appended and the name for session_info_changed.
func (h *apiHarness) trace() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		switch ev := e.(type) {
		case engine.EntryAppended:
			var d struct{ Where string }
			_ = json.Unmarshal(ev.Entry.Data, &d)
			out = append(out, "entry:"+d.Where)
		case engine.SessionInfoChanged:
			out = append(out, "name:"+ev.Name)
		case engine.MessageStart, engine.MessageUpdate, engine.TurnStart, engine.TurnEnd, engine.QueueUpdate, engine.ToolExecutionUpdate:
		case engine.MessageEnd:
			out = append(out, "message_end:"+string(ev.Message.Role))
		default:
			out = append(out, e.EventType())
		}
	}
	return out
}

// storeTrace lists the stored entries after the session's own header
// entries: marks, names and message roles.
func (h *apiHarness) storeTrace() []string {
	var out []string
	for _, e := range h.store.Entries() {
		switch e.Type {
		case engine.EntryCustom:
			var d struct{ Where string }
			_ = json.Unmarshal(e.Data, &d)
			out = append(out, "entry:"+d.Where)
		case engine.EntrySessionInfo:
			out = append(out, "name:"+*e.Name)
		case engine.EntryMessage:
			out = append(out, "message:"+string(e.Message.Role))
		}
	}
	return out
}

// TestActionOrdering checks that actions taken in a handler take effect
// before the event reaches subscribers and before the event's own entry
// is stored, as the reference orders them (its extension handlers run
// before its listeners, and message_end is persisted last).
func TestActionOrdering(t *testing.T) {
	t.Parallel()
	toolTurn := faux.Turn{ToolCalls: []faux.ToolCall{{Name: "bash", Args: `{"command":"true"}`}}}
	cases := []struct {
		name   string
		events string
		turns  []faux.Turn
		prompt string
		trace  []string
		store  []string
	}{
		{
			name: "agent_start", events: `["agent_start"]`, turns: []faux.Turn{{Text: "ok"}}, prompt: "hi",
			trace: []string{"entry:agent_start", "name:name-agent_start", "agent_start", "message_end:system", "message_end:user", "message_end:assistant", "agent_end", "agent_settled"},
			store: []string{"entry:agent_start", "name:name-agent_start", "message:system", "message:user", "message:assistant"},
		},
		{
			name: "message_end", events: `["message_end"]`, turns: []faux.Turn{{Text: "ok"}}, prompt: "hi",
			trace: []string{"agent_start", "message_end:system", "message_end:user", "entry:message_end", "name:name-message_end", "message_end:assistant", "agent_end", "agent_settled"},
			store: []string{"message:system", "message:user", "entry:message_end", "name:name-message_end", "message:assistant"},
		},
		{
			name: "tool_call", events: `["tool_call"]`, turns: []faux.Turn{toolTurn, {Text: "done"}}, prompt: "hi",
			trace: []string{"agent_start", "message_end:system", "message_end:user", "message_end:assistant", "tool_execution_start", "entry:tool_call", "name:name-tool_call",
				"tool_execution_end", "message_end:toolResult", "message_end:assistant", "agent_end", "agent_settled"},
			store: []string{"message:system", "message:user", "message:assistant", "entry:tool_call", "name:name-tool_call", "message:toolResult", "message:assistant"},
		},
		{
			name: "agent_end", events: `["agent_end"]`, turns: []faux.Turn{{Text: "ok"}}, prompt: "hi",
			trace: []string{"agent_start", "message_end:system", "message_end:user", "message_end:assistant", "entry:agent_end", "name:name-agent_end", "agent_end", "agent_settled"},
			store: []string{"message:system", "message:user", "message:assistant", "entry:agent_end", "name:name-agent_end"},
		},
		{
			name: "command", events: `[]`, prompt: "/mk",
			trace: []string{"entry:command", "name:name-command"},
			store: []string{"entry:command", "name:name-command"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := "const EVENTS = " + tc.events + ";\n" + orderExt
			h := newAPIHarness(t, src, nil, tc.turns...)
			h.prompt(t, tc.prompt)
			assert.Equal(t, tc.trace, h.trace())
			assert.Equal(t, tc.store, h.storeTrace())
			assert.Empty(t, h.extErrors())
		})
	}
}

// TestSessionInfoChangedReachesHandlers checks that a handler renaming the
// session from session_info_changed's own handler does not deadlock, and
// that the nested rename lands before the agent_end that started it, as
// the reference's un-awaited emit runs its handlers first.
func TestSessionInfoChangedReachesHandlers(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("session_info_changed", (e) => { if (e.name === "one") pi.setSessionName("two"); });
  pi.on("agent_end", () => { pi.setSessionName("one"); });
}`
	h := newAPIHarness(t, src, nil, faux.Turn{Text: "ok"})
	h.prompt(t, "hi")
	require.Eventually(t, func() bool {
		tr := h.trace()
		return len(tr) > 0 && tr[len(tr)-1] == "agent_settled"
	}, 10*time.Second, 10*time.Millisecond, "trace %v, errors %v", h.trace(), h.extErrors())
	assert.Equal(t, []string{"agent_start", "message_end:system", "message_end:user", "message_end:assistant", "name:one", "name:two", "agent_end", "agent_settled"}, h.trace())
}

// TestSetLabel checks setLabel's target check and that it announces no
// entry_appended, as in the reference.
func TestSetLabel(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("agent_end", (e, ctx) => {
    pi.setLabel(ctx.sessionManager.getLeafId(), "here");
    pi.setLabel("nonexistent", "x");
  });
}`
	h := newAPIHarness(t, src, nil, faux.Turn{Text: "ok"})
	h.prompt(t, "hi")
	var labels []string
	for _, e := range h.store.Entries() {
		if e.Type == engine.EntryLabel {
			labels = append(labels, *e.Label)
		}
	}
	assert.Equal(t, []string{"here"}, labels)
	assert.NotContains(t, h.trace(), "entry:")
	errs := h.extErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, "Entry nonexistent not found", errs[0].Error)
}

// TestSendUserMessageWhileStreaming checks the refusal of a prompt sent
// during a run without deliverAs: a "<runtime>" send_user_message error,
// reported at the run's next event.
func TestSendUserMessageWhileStreaming(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("agent_start", async () => { pi.sendUserMessage("again"); });
}`
	h := newAPIHarness(t, src, nil, faux.Turn{Text: "ok"})
	h.prompt(t, "hi")
	errs := h.extErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, ExtensionError{Path: "<runtime>", Event: "send_user_message", Error: engine.ErrAlreadyProcessing.Error()}, errs[0])
	assert.Len(t, h.sess.Messages(), 3, "system, user and assistant only")
}
