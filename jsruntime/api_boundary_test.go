package jsruntime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

// nonSystemRoles lists a request's messages without the system ones, as
// role:text.
func nonSystemRoles(msgs []*engine.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role != engine.RoleSystem {
			out = append(out, m.Role+":"+m.Content.Text())
		}
	}
	return out
}

// The second turn_end handler sees the context the first one proposed,
// rebuilt as the reference does (a custom message reads as a user message
// in llmMessages, an omitted answer is gone), and a context_edit draft is
// committed and shapes the continuation's request.
func TestAPIBoundaryChainedContextEdit(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  let n = 0;
  const roles = (ms) => ms.map((m) => m.role).join(",");
  pi.on("turn_end", (e) => {
    n++;
    if (n === 1) return { entries: [{ type: "custom_message", customType: "note", content: "be brief", display: false },
      { type: "context_edit", targetId: e.messageEntryId, replacement: null }], continue: true };
  });
  pi.on("turn_end", (e, ctx) => {
    const c = e.context;
    ctx.ui.notify(n + " " + e.entries.map((x) => x.type).join(",") + " llm=" + roles(c.llmMessages) + " msgs=" + roles(c.contextMessages) +
      " entries=" + c.contextEntries.map((x) => x.sourceEntry.type + ":" + x.messages.length).join(",") + " can=" + c.canContinue);
  });
}`
	ui := &scriptedUI{}
	h := newAPIHarness(t, src, ui, faux.Turn{Text: "first"}, faux.Turn{Text: "second"})
	h.prompt(t, "hello")
	assert.Equal(t, []string{
		"1 custom_message,context_edit llm=system,user,user msgs=system,user,custom entries=model_change:0,thinking_level_change:0,message:1,message:1,message:0,custom_message:1,context_edit:0 can=true",
		"2  llm=system,user,user,assistant msgs=system,user,custom,assistant entries=model_change:0,thinking_level_change:0,message:1,message:1,message:0,custom_message:1,context_edit:0,message:1 can=false",
	}, ui.notes())
	assert.Empty(t, h.extErrors())
	reqs := h.provider.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, []string{"user:hello", "user:be brief"}, nonSystemRoles(reqs[1].Messages), "the edited answer is left out of the continuation")
	var edit *engine.Entry
	for _, e := range h.store.Entries() {
		if e.Type == engine.EntryContextEdit {
			edit = e
		}
	}
	require.NotNil(t, edit, "the context_edit draft is an entry")
	assert.Equal(t, "null", string(edit.Replacement))
}

// A compaction draft without firstKeptEntryId keeps nothing: the entry
// names itself, carries the prompt in effect, and the next request starts
// from its summary.
func TestAPIBoundaryCompactionRetainNone(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  let n = 0;
  pi.on("turn_end", () => { if (++n === 1) return { entries: [{ type: "compaction", summary: "SUMMARY" }], continue: true }; });
  pi.on("turn_end", (e, ctx) => { ctx.ui.notify(n + " " + e.context.contextEntries.map((x) => x.sourceEntry.type).join(",") + " " + e.context.canContinue); });
}`
	ui := &scriptedUI{}
	h := newAPIHarness(t, src, ui, faux.Turn{Text: "first"}, faux.Turn{Text: "second"})
	h.prompt(t, "hello")
	assert.Equal(t, []string{"1 compaction true", "2 compaction,message false"}, ui.notes())
	assert.Empty(t, h.extErrors())
	var c *engine.Entry
	for _, e := range h.store.Entries() {
		if e.Type == engine.EntryCompaction {
			c = e
		}
	}
	require.NotNil(t, c)
	assert.Equal(t, c.ID, c.FirstKeptEntryID, "retain-none names itself")
	require.NotNil(t, c.FromHook)
	assert.True(t, *c.FromHook)
	require.NotNil(t, c.SystemMessage, "the compaction carries the prompt in effect")
	assert.Positive(t, c.TokensBefore)
	reqs := h.provider.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, []string{"user:" + engine.CompactionSummaryPrefix + "SUMMARY" + engine.CompactionSummarySuffix}, nonSystemRoles(reqs[1].Messages))
	assert.Equal(t, "base prompt", reqs[1].SystemPrompt, "the replayed prompt survives the compaction")
}

// Drafts the session would refuse are reported against the handler after
// it and after every later one (the context is rebuilt each time), and
// nothing of the proposal is committed.
func TestAPIBoundaryInvalidDrafts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, draft, err string
	}{
		{"unknown target", `{ type: "context_edit", targetId: "nope", replacement: null }`, "Entry nope not found"},
		{"bad replacement", `{ type: "context_edit", targetId: e.messageEntryId, replacement: { text: "x" } }`, "Context edit replacement must be null or contain string/array content"},
		{"missing replacement", `{ type: "context_edit", targetId: e.messageEntryId }`, "Context edit replacement must be null or contain string/array content"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := `export default function (pi) {
  pi.on("turn_end", (e) => ({ entries: [{ type: "custom", customType: "mark" }, ` + tc.draft + `], continue: true }));
  pi.on("turn_end", () => undefined);
}`
			h := newAPIHarness(t, src, &scriptedUI{}, faux.Turn{Text: "first"}, faux.Turn{Text: "second"})
			h.prompt(t, "hello")
			errs := h.extErrors()
			require.Len(t, errs, 2)
			for _, e := range errs {
				assert.Equal(t, "turn_end", e.Event)
				assert.Equal(t, "Invalid boundary entries: "+tc.err, e.Error)
				assert.NotEqual(t, "<boundary>", e.Path)
			}
			assert.Len(t, h.provider.Requests(), 1, "no continuation")
			for _, e := range h.store.Entries() {
				assert.NotEqual(t, engine.EntryCustom, e.Type, "nothing of a refused proposal is committed")
			}
		})
	}
}

// A context_with_system handler that drops the leading system message
// drops its tool declarations with it, and the loss is reported, as in
// the reference; one that keeps it keeps the tools.
func TestAPIContextWithSystemDropsTools(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, handler string
		tools, errs   int
	}{
		{"drop head", `(e) => ({ messages: e.messages.filter((m) => m.role !== "system") })`, 0, 1},
		{"keep head", `(e) => ({ messages: e.messages.slice() })`, 2, 0},
		{"drop one tool", `(e) => ({ messages: e.messages.map((m, i) => i === 0 ? { ...m, toolsAdded: m.toolsAdded.filter((t) => t.name !== "bash") } : m) })`, 1, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := `export default function (pi) { pi.on("context_with_system", ` + tc.handler + `); }`
			h := newAPIHarness(t, src, &scriptedUI{}, faux.Turn{Text: "ok"})
			h.prompt(t, "hello")
			reqs := h.provider.Requests()
			require.Len(t, reqs, 1)
			assert.Len(t, reqs[0].Tools, tc.tools)
			errs := h.extErrors()
			require.Len(t, errs, tc.errs)
			if tc.errs > 0 {
				assert.Equal(t, "context_with_system", errs[0].Event)
				assert.Contains(t, errs[0].Error, "Handler removed the leading system message")
				assert.Empty(t, reqs[0].SystemPrompt)
			}
		})
	}
}

// A handler may push onto event.entries instead of returning them, as
// the reference hands every handler the proposal itself: the next
// handler sees the pushed entry in entries and in the context, and it is
// committed.
func TestAPIBoundaryEntriesPushedInPlace(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  let n = 0;
  pi.on("turn_end", (e) => { if (++n === 1) e.entries.push({ type: "custom", customType: "pushed", data: { n } }); });
  pi.on("turn_end", (e, ctx) => { ctx.ui.notify(n + " " + e.entries.map((x) => x.type).join(",") + " " + e.context.contextEntries.at(-1).sourceEntry.type); });
}`
	ui := &scriptedUI{}
	h := newAPIHarness(t, src, ui, faux.Turn{Text: "first"})
	h.prompt(t, "hello")
	assert.Equal(t, []string{"1 custom custom"}, ui.notes())
	assert.Empty(t, h.extErrors())
	var pushed bool
	for _, e := range h.store.Entries() {
		pushed = pushed || (e.Type == engine.EntryCustom && e.CustomType == "pushed")
	}
	assert.True(t, pushed, "the pushed entry is committed")
}
