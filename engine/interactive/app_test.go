package interactive

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// testApp runs the interactive mode in-process against the mock LLM and
// gives the test the screen and the keyboard.
type testApp struct {
	t    *testing.T
	a    *app
	p    uiProgram
	done chan error
	out  *bytes.Buffer
}

func startApp(t *testing.T, script mockllm.Script, o Options) *testApp {
	t.Helper()
	agentDir, project, _ := sdktest.Home(t, script)
	ui := NewUI()
	ag, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
		Mode: pi.ModeInteractive, UI: ui, Stderr: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ag.Close)
	out := &bytes.Buffer{}
	o.UI, o.Stdout, o.Version = ui, out, "0.0.0-test"
	a, err := newApp(context.Background(), ag, o)
	if err != nil {
		t.Fatal(err)
	}
	ta := &testApp{t: t, a: a, p: a.p, done: make(chan error, 1), out: out}
	go func() { ta.done <- a.run() }()
	t.Cleanup(func() {
		a.p.Quit()
		<-ta.done
	})
	return ta
}

// onUI runs fn on the UI goroutine and waits for it.
func (ta *testApp) onUI(fn func()) {
	ta.t.Helper()
	ch := make(chan struct{})
	ta.p.Post(func() { fn(); close(ch) })
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		ta.t.Fatal("UI goroutine did not run the posted function")
	}
}

// screen is the transcript and the dock as plain text at width.
func (ta *testApp) screen(width int) string {
	var s string
	ta.onUI(func() {
		rows := append(ta.a.tr.Render(width), ta.a.dock.Render(width)...)
		s = tui.Strip(strings.Join(rows, "\n"))
	})
	return s
}

// waitFor polls the screen until it contains want (the agent answers on
// its own goroutines; the wait is bounded, never a timed assertion).
func (ta *testApp) waitFor(want string) string {
	ta.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := ta.screen(80)
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			ta.t.Fatalf("screen never showed %q:\n%s", want, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (ta *testApp) typeText(s string) {
	for _, r := range s {
		ta.key(tui.Key{Code: string(r), Text: string(r)})
	}
}

func (ta *testApp) key(k tui.Key) {
	ta.onUI(func() { dispatchKey(ta.a, k) })
}

// dispatchKey routes a key as tui.Program does: interceptor, focused
// component, then the app's onEvent.
func dispatchKey(a *app, k tui.Key) {
	if a.intercept(k) {
		return
	}
	var focus tui.Component = a.editor
	if a.dialog != nil {
		focus = a.dialog
	}
	if h, ok := focus.(tui.InputHandler); ok && h.HandleKey(k) {
		return
	}
	a.onEvent(k)
}

func TestAppPromptReplyAndToolRow(t *testing.T) {
	t.Parallel()
	args, _ := json.Marshal(map[string]string{"command": "echo hi from bash"})
	ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{
		{ToolCalls: []mockllm.ToolCall{{Name: "bash", Arguments: args, ID: "call_1"}}},
		{Text: "All done here."},
	}}, Options{})
	ta.waitFor("pi v0.0.0-test")
	ta.typeText("run it")
	ta.key(tui.Key{Code: "enter"})
	s := ta.waitFor("All done here.")
	for _, want := range []string{"run it", "$ echo hi from bash", "hi from bash", "Took ", "mock-model"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	// Ctrl+C twice exits.
	ta.key(tui.Key{Code: "c", Mod: tui.ModCtrl})
	ta.key(tui.Key{Code: "c", Mod: tui.ModCtrl})
	select {
	case err := <-ta.done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		ta.done <- nil
	case <-time.After(10 * time.Second):
		t.Fatal("two Ctrl+C did not exit")
	}
}

func TestAppInitialPromptAndBang(t *testing.T) {
	t.Parallel()
	ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "First reply."}}}, Options{Initial: "hello"})
	ta.waitFor("First reply.")
	ta.typeText("!echo bang-$((6*7))")
	ta.key(tui.Key{Code: "enter"})
	s := ta.waitFor("bang-42")
	if !strings.Contains(s, "$ echo bang-$((6*7))") {
		t.Errorf("no bash block:\n%s", s)
	}
}

func TestAppSlashQuitPrintsResumeHint(t *testing.T) {
	t.Parallel()
	ta := startApp(t, mockllm.Script{Turns: []mockllm.Turn{{Text: "Saved reply."}}}, Options{Initial: "keep me"})
	ta.waitFor("Saved reply.")
	ta.typeText("/quit")
	ta.key(tui.Key{Code: "enter"})
	select {
	case err := <-ta.done:
		ta.done <- err
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("/quit did not exit")
	}
	if out := ta.out.String(); !strings.Contains(out, "To resume this session:\npi --session ") {
		t.Errorf("exit output %q", out)
	}
}
