package slash

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config/login"
	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/engine/tui"
)

func entry(id, parent string, m *engine.Message) *engine.Entry {
	e := &engine.Entry{Type: engine.EntryMessage, ID: id, Timestamp: "2026-12-01T10:00:0" + id[len(id)-1:] + ".000Z", Message: m}
	if parent != "" {
		p := parent
		e.ParentID = &p
	}
	return e
}

func text(role, s string) *engine.Message {
	return &engine.Message{Role: role, Content: engine.StringContents(s), StopReason: engine.StopStop}
}

// newAgent is a fake agent over a two-turn session:
// u1 → a1 → u2 → a2 (the leaf; a2 used a tool).
func newAgent(t *testing.T) *fakeAgent {
	t.Helper()
	a1 := text(engine.RoleAssistant, "first answer")
	a1.Usage = engine.Usage{Input: 1000, Output: 200, CacheRead: 3000, Cost: engine.Cost{Total: 0.0125}}
	a2 := &engine.Message{Role: engine.RoleAssistant, StopReason: engine.StopStop, Usage: engine.Usage{Input: 500, Output: 50},
		Content: engine.Contents{Blocks: []engine.Content{{Type: engine.ContentText, Text: "the **last** answer"},
			{Type: engine.ContentToolCall, ID: "c1", Name: "read", Arguments: []byte(`{"path":"a.go"}`)}}}}
	store, err := session.InMemoryWith("/p", "sess-1", []*engine.Entry{
		entry("u1", "", text(engine.RoleUser, "first question")),
		entry("a1", "u1", a1),
		entry("u2", "a1", text(engine.RoleUser, "second question")),
		entry("a2", "u2", a2),
	})
	if err != nil {
		t.Fatal(err)
	}
	models := []*engine.Model{
		{Provider: "mock", ID: "m1", Name: "Mock One", Reasoning: true},
		{Provider: "mock", ID: "m2", Name: "Mock Two"},
		{Provider: "other", ID: "gpt-x", Name: "GPT X", Reasoning: true},
		{Provider: "third", ID: "gpt-x", Name: "GPT X again"},
	}
	return &fakeAgent{store: store, model: models[0], models: models, level: "medium", settings: map[string]any{},
		agentDir: t.TempDir(), cwd: t.TempDir(), trusted: true}
}

func run(t *testing.T, h *fakeHost, line string) bool {
	t.Helper()
	name, args, _ := strings.Cut(strings.TrimPrefix(line, "/"), " ")
	handled, _ := Run(context.Background(), h, name, args)
	return handled
}

func TestBuiltins(t *testing.T) {
	t.Parallel()
	var names []string
	for _, c := range Builtins() {
		names = append(names, c.Name)
		if c.Description == "" {
			t.Errorf("%s has no description", c.Name)
		}
		if commands[c.Name] == nil {
			t.Errorf("%s has no runner", c.Name)
		}
	}
	want := "settings model tree thinking scoped-models export import share bug copy name session changelog hotkeys fork clone trust login logout new compact resume reload quit"
	if strings.Join(names, " ") != want {
		t.Fatalf("menu:\n%s\nwant\n%s", strings.Join(names, " "), want)
	}
	for _, gone := range []string{"llama", "mcp"} {
		if slices.Contains(names, gone) {
			t.Errorf("%s is listed but not built here", gone)
		}
	}
	if len(commands) != len(names) {
		t.Errorf("%d runners for %d commands", len(commands), len(names))
	}
}

func TestRunDispatch(t *testing.T) {
	t.Parallel()
	h := newHost(t, newAgent(t))
	if run(t, h, "/bogus") {
		t.Error("unknown command handled")
	}
	if run(t, h, "/new now") || run(t, h, "/quit please") {
		t.Error("a command without arguments took text after its name")
	}
	if !run(t, h, "/quit") || !h.quit {
		t.Error("/quit did not quit")
	}
}

func TestModelCommand(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line, keys string
		call       string
		notice     string
		settings   map[string]any
	}{
		{line: "/model mock/m2", call: "SetModel mock/m2", notice: "info: Model: m2"},
		{line: "/model M2", call: "SetModel mock/m2", notice: "info: Model: m2"},
		{line: "/model", keys: "down enter", call: "SetModel mock/m2", notice: "info: Model: m2"},
		{line: "/model gpt-x", keys: "down enter", call: "SetModel third/gpt-x", notice: "info: Model: gpt-x"}, // two providers: the picker opens on the search
		{line: "/model", keys: "down ctrl+s", call: "SetGlobalSetting defaultModel=m2", notice: "info: Default model: mock/m2",
			settings: map[string]any{"defaultProvider": "mock", "defaultModel": "m2"}},
		{line: "/model", keys: "escape", call: "RefreshModelCatalogs"}, // the picker refreshed the catalogues while it showed
	}
	for _, c := range cases {
		t.Run(c.line+" "+c.keys, func(t *testing.T) {
			t.Parallel()
			a := newAgent(t)
			h := newHost(t, a)
			run(t, h, c.line)
			if c.keys != "" {
				if !strings.Contains(h.screen(), dialogs.NoAuthNotice) {
					t.Fatalf("no model selector:\n%s", h.screen())
				}
				h.press(strings.Fields(c.keys)...)
			}
			if a.lastCall() != c.call || h.last() != c.notice || h.dialog != nil {
				t.Fatalf("calls %q, notices %q, dialog open %v", a.allCalls(), h.notices, h.dialog != nil)
			}
			for k, v := range c.settings {
				if a.settings[k] != v {
					t.Errorf("%s = %v", k, a.settings[k])
				}
			}
		})
	}
}

func TestThinkingCommand(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	h := newHost(t, a)
	run(t, h, "/thinking high")
	if a.level != "high" || h.last() != "info: Thinking level: high" {
		t.Fatalf("level %s, notices %q", a.level, h.notices)
	}
	run(t, h, "/thinking loud")
	if !strings.HasPrefix(h.last(), "error: Unknown thinking level \"loud\"") {
		t.Fatalf("notice %q", h.last())
	}
	run(t, h, "/thinking")
	if !strings.Contains(h.screen(), "Thinking Level") {
		t.Fatalf("no selector:\n%s", h.screen())
	}
	h.press("up", "ctrl+s")
	if a.level != "medium" || a.settings["defaultThinkingLevel"] != "medium" || h.last() != "info: Default thinking level: medium" {
		t.Fatalf("level %s settings %v notices %q", a.level, a.settings, h.notices)
	}
	// A model without reasoning only has off.
	a.model = a.models[1]
	run(t, h, "/thinking high")
	if !strings.Contains(h.last(), "Levels: off") {
		t.Fatalf("notice %q", h.last())
	}
}

func TestScopedModelsCommand(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	a.scoped = []engine.ModelChoice{{Model: a.models[0]}, {Model: a.models[2]}}
	h := newHost(t, a)
	run(t, h, "/scoped-models")
	if !strings.Contains(h.screen(), "2/4 enabled") {
		t.Fatalf("screen:\n%s", h.screen())
	}
	h.press("enter") // disable m1, the first row
	if !a.scopeSet || strings.Join(a.scope, ",") != "other/gpt-x" {
		t.Fatalf("scope %v", a.scope)
	}
	h.press("ctrl+s")
	if got, _ := a.settings["enabledModels"].([]string); strings.Join(got, ",") != "other/gpt-x" {
		t.Fatalf("enabledModels = %#v", a.settings["enabledModels"])
	}
	h.press("ctrl+a", "ctrl+s")
	if got, ok := a.settings["enabledModels"].([]string); !ok || len(got) != 0 || a.scope != nil {
		t.Fatalf("all: enabledModels %#v scope %v", a.settings["enabledModels"], a.scope)
	}
	h.press("escape")
	if h.dialog != nil {
		t.Fatal("escape did not close")
	}
}

func TestSettingsCommand(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	h := newHost(t, a)
	run(t, h, "/settings")
	h.typeText("hidethinking")
	h.press("enter")
	if a.settings["hideThinkingBlock"] != true || strings.Join(h.changed, ",") != "hideThinkingBlock" {
		t.Fatalf("settings %v changed %v", a.settings, h.changed)
	}
	a.fail = errors.New("read-only file system")
	h.press("enter")
	if !strings.Contains(h.screen(), "Could not save Hide thinking: read-only file system") {
		t.Fatalf("no error shown:\n%s", h.screen())
	}
	h.press("escape", "escape")
	if h.dialog != nil {
		t.Fatal("not closed")
	}
}

func TestExportImportCopyName(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line   string
		fail   error
		call   string
		notice string
	}{
		{"/export", nil, "ExportHTML ", "info: Session exported to: /out/.html"},
		{"/export out.jsonl", nil, "ExportJSONL out.jsonl", "info: Session exported to: /out/out.jsonl"},
		{`/export "my file.html" extra`, nil, "ExportHTML my file.html", "info: Session exported to: /out/my file.html.html"},
		{"/export x.html", errors.New("disk full"), "ExportHTML x.html", "error: Failed to export session: disk full"},
		{"/import", nil, "", "error: Usage: /import <path.jsonl>"},
		{"/copy", nil, "", "info: Copied last agent message to clipboard"},
		{"/name", nil, "", "warning: Usage: /name <name>"},
		{"/name my  session", nil, `SetSessionName "my  session"`, "info: Session name set: my  session"},
		{"/compact keep the API notes", nil, `Compact "keep the API notes"`, ""},
		{"/clone", nil, "Clone", "info: Cloned to new session"},
		{"/new", nil, "NewSession", "info: ✓ New session started"},
		{"/new", errors.New("locked"), "NewSession", "error: Failed to create session: locked"},
		{"/reload", nil, "Reload", "info: Reloaded keybindings, extensions, skills, prompts, themes, and context files"},
		{"/reload", errors.New("bad extension"), "Reload", "error: Reload failed: bad extension"},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			t.Parallel()
			a := newAgent(t)
			a.fail = c.fail
			h := newHost(t, a)
			h.editor = "draft"
			if !run(t, h, c.line) {
				t.Fatal("not handled")
			}
			if a.lastCall() != c.call || h.last() != c.notice {
				t.Fatalf("calls %q, notices %q", a.allCalls(), h.notices)
			}
		})
	}
}

func TestCommandDetails(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	h := newHost(t, a)
	run(t, h, "/copy")
	if strings.Join(h.copied, "|") != "the **last** answer" {
		t.Fatalf("copied %q", h.copied)
	}
	h.copyErr = errors.New("no clipboard")
	run(t, h, "/copy")
	if h.last() != "error: no clipboard" {
		t.Fatalf("notice %q", h.last())
	}
	run(t, h, "/name a\nb")
	if !slices.Contains(h.notices, `warning: Session name was normalized from "a\nb" to "a b"`) {
		t.Fatalf("notices %q", h.notices)
	}
	run(t, h, "/name")
	if h.last() != "info: Session name: a b" {
		t.Fatalf("notice %q", h.last())
	}
	run(t, h, "/clone")
	if h.reprint != 1 || h.editor != "" {
		t.Fatalf("clone: reprint %d editor %q", h.reprint, h.editor)
	}
	a.cancel = true
	run(t, h, "/new")
	if h.last() != "info: New session cancelled" || h.reprint != 1 {
		t.Fatalf("cancelled new: %q reprint %d", h.last(), h.reprint)
	}
	a.streaming = true
	run(t, h, "/reload")
	if h.last() != "warning: Wait for the current response to finish before reloading." || strings.Contains(a.allCalls(), "Reload") {
		t.Fatalf("reload while streaming: %q %s", h.last(), a.allCalls())
	}
	empty := newAgent(t)
	empty.store = session.InMemory("/p", "e")
	he := newHost(t, empty)
	run(t, he, "/copy")
	run(t, he, "/clone")
	run(t, he, "/tree")
	if strings.Join(he.notices, "|") != "error: No agent messages to copy yet.|info: Nothing to clone yet|info: No entries in session" {
		t.Fatalf("empty session notices %q", he.notices)
	}
}

func TestImportCommand(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	h := newHost(t, a)
	run(t, h, "/import ~/old.jsonl")
	if !strings.Contains(h.screen(), "Replace current session with ~/old.jsonl?") {
		t.Fatalf("no confirm:\n%s", h.screen())
	}
	h.press("down", "enter")
	if h.last() != "info: Import cancelled" || a.lastCall() != "" {
		t.Fatalf("declined: %q %q", h.notices, a.allCalls())
	}
	run(t, h, "/import ~/old.jsonl")
	h.press("enter")
	if a.lastCall() != "ImportSession ~/old.jsonl" || h.last() != "info: Session imported from: ~/old.jsonl" || h.reprint != 1 {
		t.Fatalf("import: %q %q", a.allCalls(), h.notices)
	}
	a.fail = errors.New("the session's working directory /gone does not exist")
	run(t, h, "/import x.jsonl")
	h.press("enter")
	if h.last() != "error: Failed to import session: the session's working directory /gone does not exist" {
		t.Fatalf("notice %q", h.last())
	}
}

func TestSessionInfo(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	h := newHost(t, a)
	run(t, h, "/session")
	md := h.md[0]
	for _, want := range []string{"**Session Info**", "- File: In-memory", "- ID: sess-1", "- Total: 4", "- User: 2", "- Assistant: 2",
		"- Tools: 1 calls, 0 results", "- Input: 4,500", "- Cached: 3,000 (66.7%)", "- Output: 250", "- Total: 4,750", "- Total: $0.013"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in\n%s", want, md)
		}
	}
	run(t, h, "/changelog")
	if !strings.Contains(h.md[1], "No changelog entries found.") {
		t.Fatalf("changelog %q", h.md[1])
	}
	km, _ := tui.NewKeymap(map[string][]string{"tui.editor.cursorUp": {"up"}, "tui.input.submit": {"enter"}, "app.interrupt": {"escape"}, "app.model.select": {"ctrl+l"}, "tui.editor.cursorWordLeft": {}})
	h.keymap = km
	run(t, h, "/hotkeys")
	hk := h.md[2]
	for _, want := range []string{"**Navigation**", "| Key | Action |", "| `Up` | Move up", "**Editing**", "| `Enter` | Send the message |", "| `Ctrl+L` | Pick a model |", "| `/` | Commands |"} {
		if !strings.Contains(hk, want) {
			t.Errorf("hotkeys missing %q:\n%s", want, hk)
		}
	}
	if strings.Contains(hk, "Move one word left") {
		t.Error("an unbound action is listed")
	}
}

func TestForkCommand(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	h := newHost(t, a)
	run(t, h, "/fork")
	if !strings.Contains(h.screen(), "Message 2 of 2") {
		t.Fatalf("screen:\n%s", h.screen())
	}
	h.press("up", "enter")
	if a.lastCall() != "Fork u1 before" || h.editor != "text of u1" || h.reprint != 1 || h.last() != "info: Branched to new session" {
		t.Fatalf("fork: %q editor %q notices %q", a.allCalls(), h.editor, h.notices)
	}
}

func TestTreeCommand(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		keys   []string
		typed  string
		call   string
		notice string
	}{
		{name: "leaf", keys: []string{"enter"}, notice: "info: Already at this point"},
		{name: "no summary", keys: []string{"up", "enter", "enter"}, call: "NavigateTree u2 summarize=false instructions=<nil>", notice: "info: Navigated to selected point"},
		{name: "summary", keys: []string{"up", "enter", "down", "enter"}, call: "NavigateTree u2 summarize=true instructions=<nil>", notice: "info: Navigated to selected point"},
		{name: "custom", keys: []string{"up", "enter", "down", "down", "enter"}, typed: "focus on tests", call: "NavigateTree u2 summarize=true instructions=focus on tests", notice: "info: Navigated to selected point"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := newAgent(t)
			a.navResult = engine.NavigateResult{EditorText: new("second question")}
			h := newHost(t, a)
			run(t, h, "/tree")
			if !strings.Contains(h.screen(), "Session Tree") {
				t.Fatalf("screen:\n%s", h.screen())
			}
			h.press(c.keys...)
			if c.typed != "" {
				h.typeText(c.typed)
				h.press("enter")
			}
			if a.lastCall() != c.call || h.last() != c.notice {
				t.Fatalf("calls %q notices %q\n%s", a.allCalls(), h.notices, h.screen())
			}
			if c.call != "" && (h.reprint != 1 || h.editor != "second question") {
				t.Fatalf("reprint %d editor %q", h.reprint, h.editor)
			}
		})
	}
	// Escape at the summary question goes back to the tree, on the same
	// entry; labels go to the agent.
	a := newAgent(t)
	h := newHost(t, a)
	run(t, h, "/tree")
	h.press("up", "enter", "escape")
	if !strings.Contains(h.screen(), "› • user: second question") {
		t.Fatalf("not back on u2:\n%s", h.screen())
	}
	h.press("shift+l")
	h.typeText("keep")
	h.press("enter")
	if a.lastCall() != `SetLabel u2 "keep"` {
		t.Fatalf("calls %q", a.allCalls())
	}
	// Skipping the prompt navigates at once; a streaming run is stopped first.
	a.settings["branchSummary.skipPrompt"] = true
	a.streaming = true
	h.press("enter")
	if a.allCalls() != `SetLabel u2 "keep"; Abort; NavigateTree u2 summarize=false instructions=<nil>` {
		t.Fatalf("calls %q", a.allCalls())
	}
}

func TestResumeCommand(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	dir := t.TempDir()
	other := filepath.Join(dir, "other.jsonl")
	f, err := session.CreateAt(other, "/p", session.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Append(&engine.Entry{Type: engine.EntryMessage, Message: text(engine.RoleUser, "hi")})
	f.Close()
	doomed := filepath.Join(dir, "doomed.jsonl")
	if err := os.WriteFile(doomed, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a.sessions = []session.Info{{Path: other, ID: "o", FirstMessage: "other work", MessageCount: 1},
		{Path: doomed, ID: "d", FirstMessage: "delete me"}}
	a.all = append(a.sessions, session.Info{Path: "/elsewhere/x.jsonl", ID: "x", Cwd: "/elsewhere", FirstMessage: "far away"})
	h := newHost(t, a)
	run(t, h, "/resume")
	h.press("down", "ctrl+d", "enter")
	if _, err := os.Stat(doomed); !os.IsNotExist(err) {
		t.Fatalf("not deleted: %v", err)
	}
	h.press("up", "ctrl+r")
	h.typeText("named")
	h.press("enter")
	if g, _ := session.Open(other); g == nil || g.SessionName() != "named" {
		t.Fatal("rename not written to the other session file")
	} else {
		g.Close()
	}
	h.press("tab")
	if !strings.Contains(h.screen(), "far away") {
		t.Fatalf("all scope:\n%s", h.screen())
	}
	h.press("tab", "enter")
	if a.lastCall() != "SwitchSession "+other || h.reprint != 1 || h.last() != "info: Resumed session" || h.dialog != nil {
		t.Fatalf("calls %q notices %q", a.allCalls(), h.notices)
	}
}

func TestTrustCommand(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	h := newHost(t, a)
	run(t, h, "/trust")
	if !strings.Contains(h.screen(), "Saved decision: none") || !strings.Contains(h.screen(), "Current session: trusted") {
		t.Fatalf("screen:\n%s", h.screen())
	}
	h.press("down", "down", "enter") // Do not trust
	b, err := os.ReadFile(filepath.Join(a.agentDir, "trust.json"))
	if err != nil || !strings.Contains(string(b), ": false") {
		t.Fatalf("trust.json %q %v", b, err)
	}
	run(t, h, "/trust")
	if !strings.Contains(h.screen(), "Saved decision: untrusted (") || !strings.Contains(h.screen(), "→ ✓ Do not trust") {
		t.Fatalf("saved decision not shown:\n%s", h.screen())
	}
}

func TestLoginLogout(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	a.providers = []AuthProvider{
		{ID: "anthropic", Name: "Anthropic", OAuth: true, APIKey: true},
		{ID: "openai", Name: "OpenAI", APIKey: true, Configured: true, Stored: "api_key"},
		{ID: "mock", Name: "Mock"},
	}
	var gotKey string
	a.loginFn = func(ctx context.Context, ui login.Interaction) error {
		ui.Notify(login.Event{Kind: "info", Message: "Keys live at the console"})
		k, err := ui.Ask(ctx, login.Prompt{Kind: "secret", Message: "Enter OpenAI API key"})
		gotKey = k
		return err
	}
	h := newHost(t, a)
	h.async = true
	run(t, h, "/login")
	h.press("down", "enter") // API key
	if s := h.screen(); !strings.Contains(s, "OpenAI ✓ configured") || !strings.Contains(s, "Anthropic • not configured") || strings.Contains(s, "Mock") {
		t.Fatalf("providers:\n%s", s)
	}
	h.press("down", "enter") // OpenAI
	h.pump(func() bool { return strings.Contains(h.screen(), "Enter OpenAI API key") })
	h.typeText("sk-123")
	if strings.Contains(h.screen(), "sk-123") {
		t.Fatal("the key is echoed")
	}
	h.press("enter")
	h.pump(func() bool { return strings.HasPrefix(h.last(), "info: Saved API key") })
	h.wg.Wait()
	if gotKey != "sk-123" || h.last() != "info: Saved API key for OpenAI. Credentials saved to /agent/auth.json" || h.dialog != nil {
		t.Fatalf("key %q notices %q", gotKey, h.notices)
	}
	// Escape at the question cancels the sign-in.
	run(t, h, "/login openai")
	h.pump(func() bool { return strings.Contains(h.screen(), "Enter OpenAI API key") })
	h.press("escape")
	h.pump(func() bool { return h.last() == "info: Login cancelled." })
	h.wg.Wait()
	// A flow that withdraws its question (ctx cancelled) takes the
	// question's dialog down again.
	a.loginFn = func(ctx context.Context, ui login.Interaction) error {
		qctx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = ui.Ask(qctx, login.Prompt{Kind: "manual_code", Message: "Paste the code"})
		}()
		stop()
		<-done
		return nil
	}
	run(t, h, "/login anthropic")
	h.press("enter") // account sign-in
	h.pump(func() bool { return strings.HasPrefix(h.last(), "info: Logged in to Anthropic") })
	h.wg.Wait()
	if h.dialog != nil {
		t.Fatalf("dialog left open:\n%s", h.screen())
	}
	run(t, h, "/login nope")
	if !strings.HasPrefix(h.last(), `error: Unknown provider "nope". Providers: anthropic, openai`) {
		t.Fatalf("notice %q", h.last())
	}
	// Logout lists what auth.json holds.
	h.async = false
	run(t, h, "/logout")
	if s := h.screen(); !strings.Contains(s, "OpenAI • API key") || strings.Contains(s, "Anthropic") {
		t.Fatalf("logout list:\n%s", s)
	}
	h.press("enter")
	if a.lastCall() != "Logout openai" || h.last() != "info: Logged out of OpenAI" {
		t.Fatalf("calls %q notices %q", a.allCalls(), h.notices)
	}
}

func TestArgumentCompletions(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	a.providers = []AuthProvider{{ID: "openai", Name: "OpenAI", APIKey: true}, {ID: "mock"}}
	var got []string
	for _, c := range ArgumentCompletions(a, "model", "mock/") {
		got = append(got, c.Value)
	}
	if strings.Join(got, ",") != "mock/m1,mock/m2" {
		t.Fatalf("model completions %v", got)
	}
	if n := len(ArgumentCompletions(a, "thinking", "")); n != 5 {
		t.Fatalf("%d thinking completions", n)
	}
	if c := ArgumentCompletions(a, "login", ""); len(c) != 1 || c[0].Value != "openai" {
		t.Fatalf("login completions %v", c)
	}
}
