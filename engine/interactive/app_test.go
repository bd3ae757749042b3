package interactive

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/tuitest"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// testApp runs the interactive mode in-process against the mock LLM on
// tuitest's virtual terminal.
type testApp struct {
	t    *testing.T
	a    *app
	r    *tuitest.Run
	term *tuitest.Term
	out  *bytes.Buffer
}

func startApp(t *testing.T, script mockllm.Script, o Options, settings ...string) *testApp {
	t.Helper()
	agentDir, project, _ := sdktest.Home(t, script)
	if len(settings) > 0 {
		// The agent directory's settings.json, for tests of a setting.
		if err := os.WriteFile(filepath.Join(agentDir, "settings.json"), []byte(settings[0]), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ui := NewUI()
	ag, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
		Mode: pi.ModeInteractive, UI: ui, Stderr: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ag.Close)
	out := &bytes.Buffer{}
	term := tuitest.NewTerm(100, 30)
	regular := false
	o.UI, o.Stdout, o.Version, o.Terminal, o.Input = ui, out, "0.0.0-test", term, term.Input()
	if o.Fullscreen == nil {
		o.Fullscreen = &regular
	}
	a, err := newApp(context.Background(), ag, o)
	if err != nil {
		t.Fatal(err)
	}
	a.term = term
	r := tuitest.Start(t, term, a.programOptions(), func(p *tui.Program) {
		a.p = p
		a.setup()
	}, a.onEvent)
	t.Cleanup(func() {
		ui.detach()
		a.unsub()
	})
	return &testApp{t: t, a: a, r: r, term: term, out: out}
}

// screen is everything drawn so far (scrollback and screen) as text.
func (ta *testApp) screen() string {
	ta.r.Do(nil)
	return ta.term.All()
}

// waitFor waits until the terminal shows want (the agent answers on its
// own goroutines; the wait is bounded, never a timed assertion).
func (ta *testApp) waitFor(want string) string {
	ta.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := ta.screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			ta.t.Fatalf("terminal never showed %q:\n%s", want, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitGone waits until the screen no longer shows text.
func (ta *testApp) waitGone(text string) {
	ta.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ta.r.Do(nil)
		if !strings.Contains(ta.term.ScreenText(), text) {
			return
		}
		if time.Now().After(deadline) {
			ta.t.Fatalf("screen still shows %q:\n%s", text, ta.term.ScreenText())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// exited waits for the program to end and runs the app's exit.
func (ta *testApp) exited() error {
	ta.t.Helper()
	done := make(chan error, 1)
	go func() {
		err, pan := ta.r.Wait()
		if pan != nil {
			panic(pan)
		}
		done <- err
	}()
	select {
	case err := <-done:
		return ta.a.finish(err)
	case <-time.After(20 * time.Second):
		ta.t.Fatalf("pi did not exit; screen:\n%s", ta.term.ScreenText())
		return nil
	}
}

func TestAppPromptReplyAndToolRow(t *testing.T) {
	t.Parallel()
	args, _ := json.Marshal(map[string]string{"command": "echo hi from bash"})
	ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{
		{ToolCalls: []mockllm.ToolCall{{Name: "bash", Arguments: args, ID: "call_1"}}},
		{Text: "All done here."},
	}}, Options{})
	ta.waitFor("v0.0.0-test")
	ta.r.Feed("run it")
	ta.r.Feed("\r")
	s := ta.waitFor("All done here.")
	for _, want := range []string{"run it", "$ echo hi from bash", "hi from bash", "Took ", "mock-model"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	// Ctrl+C twice exits.
	ta.r.Feed("\x03\x03")
	if err := ta.exited(); err != nil {
		t.Fatal(err)
	}
}

func TestAppInitialPromptAndBang(t *testing.T) {
	t.Parallel()
	ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "First reply."}}}, Options{Initial: "hello"})
	ta.waitFor("First reply.")
	ta.r.Feed("!echo bang-$((6*7))\r")
	s := ta.waitFor("bang-42")
	if !strings.Contains(s, "$ echo bang-$((6*7))") {
		t.Errorf("no bash block:\n%s", s)
	}
}

func TestAppSlashQuitPrintsResumeHint(t *testing.T) {
	t.Parallel()
	ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "Saved reply."}}}, Options{Initial: "keep me"})
	ta.waitFor("Saved reply.")
	ta.r.Feed("/quit")
	ta.r.Feed("\r")
	if err := ta.exited(); err != nil {
		t.Fatal(err)
	}
	if out := tui.Strip(ta.out.String()); !strings.Contains(out, "To resume this session:\npi --session ") {
		t.Errorf("exit output %q", out)
	}
}

// TestAppExtensionUI drives ctx.ui's fire-and-forget calls: a notify
// before the screen exists waits for it; status, widgets and editor text
// land where the reference puts them.
func TestAppExtensionUI(t *testing.T) {
	t.Parallel()
	ta := startApp(t, mockllm.Script{}, Options{})
	ui := ta.a.o.UI
	ui.Notify("hello from an extension", "info")
	ui.Notify("careful", "warning")
	ready := "Ready"
	ui.SetStatus("st", &ready)
	ui.SetWidget("w1", []string{"Above editor widget"}, engine.WidgetOptions{})
	ui.SetWidget("w2", []string{"Below editor widget"}, engine.WidgetOptions{Placement: "belowEditor"})
	ui.SetEditorText("prefilled text")
	s := ta.waitFor("prefilled text")
	for _, want := range []string{"hello from an extension", "Warning: careful", "Ready", "Above editor widget", "Below editor widget"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "Above editor widget") > strings.Index(s, "prefilled text") ||
		strings.Index(s, "Below editor widget") < strings.Index(s, "prefilled text") {
		t.Errorf("widgets in the wrong place:\n%s", s)
	}
	ui.SetStatus("st", nil)
	ui.SetWidget("w1", nil, engine.WidgetOptions{})
	ta.r.Do(nil)
	if scr := ta.term.ScreenText(); strings.Contains(scr, "Above editor widget") {
		t.Errorf("cleared widget still shown:\n%s", scr)
	}
}

// TestUIBacklog checks that calls made before the screen is attached are
// shown once it is.
func TestUIBacklog(t *testing.T) {
	t.Parallel()
	ui := NewUI()
	ui.Notify("early notice", "error")
	if len(ui.backlog) != 1 {
		t.Fatalf("backlog %d, want 1", len(ui.backlog))
	}
	ui.detach()
	ui.Notify("after close", "info")
	if len(ui.backlog) != 0 {
		t.Fatalf("calls after detach are kept: %d", len(ui.backlog))
	}
	if ok := ui.Confirm(context.Background(), "t", "m", engine.DialogOptions{}); ok {
		t.Fatal("a dialog after detach answered yes")
	}
}

// TestAppQueueDequeueAndAbort queues a steering message (Enter) and a
// follow-up (Alt+Enter) while a reply streams, puts both back into the
// editor with Alt+Up, and aborts with Escape.
func TestAppQueueDequeueAndAbort(t *testing.T) {
	t.Parallel()
	slow := mockllm.Turn{Text: strings.Repeat("slow words ", 60), ChunkSize: 2, DelayMs: 40}
	ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{slow}}, Options{Initial: "write slowly"})
	ta.waitFor("slow words")
	ta.r.Feed("steer: be brief\r")
	ta.r.Feed("follow-up: then summarise\x1b\r")
	s := ta.waitFor("Follow-up: follow-up: then summarise")
	for _, want := range []string{"Steering: steer: be brief", "↳ Alt+Up to edit all queued messages"} {
		if !strings.Contains(s, want) {
			t.Errorf("pending area lacks %q:\n%s", want, s)
		}
	}
	ta.r.Feed("\x1b[1;3A")
	ta.waitFor("Restored 2 queued messages to editor")
	var text string
	ta.r.Do(func() { text = ta.a.editor.Text() })
	if text != "steer: be brief\n\nfollow-up: then summarise" {
		t.Errorf("editor holds %q", text)
	}
	ta.r.Feed("\x1b")
	ta.waitFor("Operation aborted")
}

// TestAppDialogs answers an extension's select in the editor slot, lets
// a confirm time out, and opens the model selector with Ctrl+L.
func TestAppDialogs(t *testing.T) {
	t.Parallel()
	ta := startApp(t, mockllm.Script{}, Options{})
	ui := ta.a.o.UI
	type answer struct {
		choice string
		ok     bool
	}
	got := make(chan answer, 1)
	go func() {
		c, ok := ui.Select(context.Background(), "Pick a colour", []string{"Red", "Blue"}, engine.DialogOptions{})
		got <- answer{c, ok}
	}()
	ta.waitFor("Pick a colour")
	ta.r.Feed("\x1b[B\r")
	select {
	case a := <-got:
		if a.choice != "Blue" || !a.ok {
			t.Errorf("select answered %q, %v", a.choice, a.ok)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("select was not answered")
	}
	if s := ta.screen(); strings.Contains(ta.term.ScreenText(), "Pick a colour") {
		t.Errorf("dialog still shown:\n%s", s)
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool, 1)
	go func() { done <- ui.Confirm(ctx, "Really?", "It cannot be undone.", engine.DialogOptions{}) }()
	ta.waitFor("It cannot be undone.")
	cancel() // the extension's AbortSignal
	select {
	case yes := <-done:
		if yes {
			t.Error("an aborted confirm answered yes")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("aborted confirm did not return")
	}

	ta.r.Feed("\x0c") // Ctrl+L
	s := ta.waitFor("to select")
	if !strings.Contains(s, "mock-model") {
		t.Errorf("model selector lacks the model:\n%s", s)
	}
	ta.r.Feed("\x1b")
	ta.waitGone("to select") // a lone Escape is known once no byte follows
	ta.r.Feed("/session\r")
	ta.waitFor("Session Info")
}
