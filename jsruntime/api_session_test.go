package jsruntime

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

// fakeController stands in for the RPC server: it consults the session
// hooks as the server does and keeps the current session.
type fakeController struct {
	hooks engine.Hooks
	mu    sync.Mutex
	calls []string
}

func (c *fakeController) record(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, s)
}

func (c *fakeController) NewSession(ctx context.Context, parent string) (bool, error) {
	c.record("new " + parent)
	return c.hooks.BeforeSwitch(ctx, "new", ""), nil
}

func (c *fakeController) SwitchSession(ctx context.Context, path string) (bool, error) {
	c.record("switch " + path)
	return c.hooks.BeforeSwitch(ctx, "resume", path), nil
}

func (c *fakeController) Fork(ctx context.Context, id, position string) (bool, string, error) {
	c.record("fork " + position)
	return c.hooks.BeforeFork(ctx, id, position), "text", nil
}

// notes returns the ui.notify messages in order.
func (u *scriptedUI) notes() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []string
	for _, c := range u.calls {
		if m, ok := strings.CutPrefix(c, "notify:"); ok {
			out = append(out, m)
		}
	}
	return out
}

func TestAPISessionControlFromCommand(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("session_before_switch", (e) => { if (e.reason === "resume") return { cancel: true }; });
  pi.on("session_before_fork", (e) => ({ cancel: e.position === "at" }));
  pi.registerCommand("go", { handler: async (args, ctx) => {
    let r;
    switch (args) {
    case "new":
      r = await ctx.newSession({ parentSession: "/p.jsonl", setup: async (sm) => { sm.appendCustomEntry("seed", { a: 1 }); },
        withSession: async (c) => { ctx.ui.notify("with " + typeof c.sendUserMessage); } });
      break;
    case "switch": r = await ctx.switchSession("/x.jsonl", { withSession: async () => ctx.ui.notify("never") }); break;
    case "fork": r = await ctx.fork("e1"); break;
    case "clone": r = await ctx.fork("e1", { position: "at" }); break;
    }
    ctx.ui.notify(args + " " + JSON.stringify(r));
  } });
}`
	cases := []struct {
		arg   string
		call  string
		notes []string
	}{
		{"new", "new /p.jsonl", []string{"with function", `new {"cancelled":false}`}},
		{"switch", "switch /x.jsonl", []string{`switch {"cancelled":true}`}},
		{"fork", "fork before", []string{`fork {"cancelled":false}`}},
		{"clone", "fork at", []string{`clone {"cancelled":true}`}},
	}
	for _, tc := range cases {
		t.Run(tc.arg, func(t *testing.T) {
			t.Parallel()
			ui := &scriptedUI{}
			h := newAPIHarness(t, src, ui)
			ctl := &fakeController{hooks: h.api.Hooks()}
			require.NotNil(t, ctl.hooks)
			h.api.SetSessionController(ctl)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			disp, err := h.sess.Prompt(ctx, "/go "+tc.arg, nil, engine.PromptOptions{})
			require.NoError(t, err)
			assert.Equal(t, engine.DispositionHandled, disp)
			h.settle(t)
			assert.Equal(t, []string{tc.call}, ctl.calls)
			assert.Equal(t, tc.notes, ui.notes())
			assert.Empty(t, h.extErrors())
			if tc.arg == "new" {
				var seeded bool
				for _, e := range h.store.Entries() {
					seeded = seeded || (e.Type == engine.EntryCustom && e.CustomType == "seed" && string(e.Data) == `{"a":1}`)
				}
				assert.True(t, seeded, "setup's entry is in the session")
			}
		})
	}
}

func TestAPINavigateTreeAndEvents(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("session_before_tree", (e, ctx) => { ctx.ui.notify("before " + Object.keys(e.preparation).join(",") + " signal=" + typeof e.signal); });
  pi.on("session_tree", (e, ctx) => { ctx.ui.notify("tree " + (e.newLeafId !== e.oldLeafId) + " " + typeof e.oldLeafId); });
  pi.registerCommand("nav", { handler: async (args, ctx) => {
    const first = ctx.sessionManager.getBranch().find((x) => x.type === "message" && x.message.role === "user");
    ctx.ui.notify("nav " + JSON.stringify(await ctx.navigateTree(first.id, { summarize: false })));
    ctx.ui.notify("missing " + await ctx.navigateTree("nope").catch((e) => e.message));
  } });
}`
	ui := &scriptedUI{}
	h := newAPIHarness(t, src, ui, faux.Turn{Text: "hi"})
	h.prompt(t, "hello")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := h.sess.Prompt(ctx, "/nav", nil, engine.PromptOptions{})
	require.NoError(t, err)
	h.settle(t)
	assert.Equal(t, []string{
		"before targetId,oldLeafId,commonAncestorId,entriesToSummarize,userWantsSummary signal=object",
		"tree true string",
		`nav {"cancelled":false}`,
		"missing Entry nope not found",
	}, ui.notes())
	for _, m := range h.sess.Messages() {
		assert.Equal(t, engine.RoleSystem, m.Role, "the leaf moved before the first user message")
	}
}

func TestAPITurnEndBoundary(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  let n = 0;
  pi.on("turn_end", (e, ctx) => {
    n++;
    ctx.ui.notify(n + " " + e.outcome + " " + typeof e.messageEntryId + " " + e.context.canContinue + " " + e.continue);
    if (n === 1) return { entries: [{ type: "custom_message", customType: "nudge", content: "keep going", display: true }, { type: "custom", customType: "mark", data: { n } }], continue: true };
    if (n === 2) return { continue: true };
  });
}`
	ui := &scriptedUI{}
	h := newAPIHarness(t, src, ui, faux.Turn{Text: "one"}, faux.Turn{Text: "two"}, faux.Turn{Text: "three"})
	h.prompt(t, "hello")
	assert.Equal(t, []string{"1 completed string false false", "2 completed string false false"}, ui.notes())
	var roles []string
	for _, m := range h.sess.Messages() {
		if m.Role != engine.RoleSystem {
			roles = append(roles, m.Role+":"+m.CustomType)
		}
	}
	assert.Equal(t, []string{"user:", "assistant:", "custom:nudge", "assistant:"}, roles, "one continuation with the nudge in context")
	var marked bool
	for _, e := range h.store.Entries() {
		marked = marked || (e.Type == engine.EntryCustom && e.CustomType == "mark")
	}
	assert.True(t, marked)
	errs := h.extErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, ExtensionError{Path: "<boundary>", Event: "turn_end", Error: "turn_end" + textNoContinuation}, errs[0])
}

func TestAPIAgentBeforeSettleContinues(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  let n = 0;
  pi.on("agent_before_settle", (e, ctx) => {
    n++;
    ctx.ui.notify(n + " " + e.outcome + " " + e.continue + " " + e.entries.length);
    if (n === 1) return { entries: [{ type: "custom_message", customType: "nudge", content: "keep going", display: true }], continue: true };
    if (n === 2) return { continue: true };
  });
}`
	ui := &scriptedUI{}
	h := newAPIHarness(t, src, ui, faux.Turn{Text: "one"}, faux.Turn{Text: "two"}, faux.Turn{Text: "three"})
	h.prompt(t, "hello")
	assert.Equal(t, []string{"1 completed false 0", "2 completed false 0"}, ui.notes())
	var roles []string
	for _, m := range h.sess.Messages() {
		if m.Role != engine.RoleSystem {
			roles = append(roles, m.Role+":"+m.CustomType)
		}
	}
	assert.Equal(t, []string{"user:", "assistant:", "custom:nudge", "assistant:"}, roles)
	var entry bool
	for _, e := range h.store.Entries() {
		entry = entry || (e.Type == engine.EntryCustomMessage && e.CustomType == "nudge")
	}
	assert.True(t, entry, "the draft is a custom_message entry")
	errs := h.extErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, "agent_before_settle"+textNoContinuation, errs[0].Error)
}

func TestAPIProjectTrust(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                       string
		handlers                   string
		decided, trusted, remember bool
		errors                     int
	}{
		{"none", ``, false, false, false, 0},
		{"undecided then yes", `pi.on("project_trust", () => ({ trusted: "undecided" }));
  pi.on("project_trust", (e) => ({ trusted: e.cwd ? "yes" : "no", remember: true }));`, true, true, true, 0},
		{"throw then no", `pi.on("project_trust", () => { throw new Error("boom"); });
  pi.on("project_trust", () => ({ trusted: "no" }));
  pi.on("project_trust", () => ({ trusted: "yes" }));`, true, false, false, 1},
		{"only undecided", `pi.on("project_trust", () => undefined);`, false, false, false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newAPIHarness(t, "export default function (pi) {\n  "+tc.handlers+"\n}", nil)
			decided, trusted, remember := h.api.ProjectTrust(context.Background(), h.dir)
			assert.Equal(t, []bool{tc.decided, tc.trusted, tc.remember}, []bool{decided, trusted, remember})
			assert.Len(t, h.extErrors(), tc.errors)
		})
	}
}

func TestAPIReloadRunsLifecycleEvents(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("session_shutdown", (e, ctx) => { ctx.ui.notify("shutdown " + e.reason); });
  pi.on("session_start", (e, ctx) => { ctx.ui.notify("start " + e.reason); });
  pi.registerCommand("rl", { handler: async (args, ctx) => { ctx.ui.notify("result " + (await ctx.reload())); } });
}`
	ui := &scriptedUI{}
	h := newAPIHarness(t, src, ui)
	_, err := h.sess.Prompt(context.Background(), "/rl", nil, engine.PromptOptions{})
	require.NoError(t, err)
	h.settle(t)
	assert.Equal(t, []string{"shutdown reload", "start reload", "result undefined"}, ui.notes())
}

func TestAPIAgentBeforeSettleFollowUpContinues(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  let n = 0;
  pi.on("agent_before_settle", () => { if (++n === 1) pi.sendUserMessage("more please", { deliverAs: "followUp" }); });
}`
	h := newAPIHarness(t, src, nil, faux.Turn{Text: "one"}, faux.Turn{Text: "two"})
	h.prompt(t, "hello")
	var roles []string
	for _, m := range h.sess.Messages() {
		if m.Role != engine.RoleSystem {
			roles = append(roles, m.Role)
		}
	}
	assert.Equal(t, []string{"user", "assistant", "user", "assistant"}, roles, "the queued follow-up gets its own run")
}
