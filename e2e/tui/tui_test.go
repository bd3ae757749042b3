package tui

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// piBin is the binary TestMain builds once.
var piBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pi-e2e-tui-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	piBin = filepath.Join(dir, "pi")
	_, file, _, _ := runtime.Caller(0)
	build := exec.Command("go", "build", "-o", piBin, "./cmd/pi")
	build.Dir = filepath.Join(filepath.Dir(file), "..", "..")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building pi:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// term is pi running in a pty, drawn on an emulated screen.
type term struct {
	t    *testing.T
	cmd  *exec.Cmd
	pty  *os.File
	emu  *vt.SafeEmulator
	mu   sync.Mutex
	raw  strings.Builder
	done chan struct{} // the process exited
	read chan struct{} // its output was read to the end
	err  error
}

// startPi runs pi with args in a w×h terminal, in project, with the
// agent directory agentDir.
func startPi(t *testing.T, agentDir, project string, w, h int, args ...string) *term {
	t.Helper()
	return startPiEnv(t, nil, agentDir, project, w, h, args...)
}

// startPiEnv is startPi with extra environment variables.
func startPiEnv(t *testing.T, env []string, agentDir, project string, w, h int, args ...string) *term {
	t.Helper()
	cmd := exec.Command(piBin, args...)
	cmd.Dir = project
	cmd.Env = append(append(os.Environ(), "PI_CODING_AGENT_DIR="+agentDir, "HOME="+filepath.Dir(agentDir),
		"TERM=xterm-256color", "NO_COLOR=1", "PI_OFFLINE=1"), env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)})
	if err != nil {
		t.Fatal(err)
	}
	tm := &term{t: t, cmd: cmd, pty: f, emu: vt.NewSafeEmulator(w, h), done: make(chan struct{}), read: make(chan struct{})}
	go func() {
		defer close(tm.read)
		buf := make([]byte, 32*1024)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				// x/vt's SafeEmulator locks Write but not String, so the
				// emulator is only touched under tm.mu.
				tm.mu.Lock()
				tm.raw.Write(buf[:n])
				_, _ = tm.emu.Write(buf[:n])
				tm.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	// The emulator answers the terminal queries pi sends (device
	// attributes, keyboard protocol); its answers are the terminal's input.
	go func() { _, _ = io.Copy(f, tm.emu) }()
	go func() {
		tm.err = cmd.Wait()
		close(tm.done)
	}()
	t.Cleanup(func() {
		select {
		case <-tm.done:
		default:
			_ = cmd.Process.Kill()
			<-tm.done
		}
		_ = f.Close()
		// The emulator is not closed: x/vt's Close races with a Read in
		// progress (the goroutine copying its answers to the pty), and the
		// blocked reader ends with the test binary.
	})
	return tm
}

func (tm *term) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.emu.String()
}

// waitFor waits (bounded) until the screen shows want.
func (tm *term) waitFor(want string) string {
	tm.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := tm.screen()
		if strings.Contains(s, want) {
			return s
		}
		select {
		case <-tm.done:
			tm.mu.Lock()
			raw := tm.raw.String()
			tm.mu.Unlock()
			tm.t.Fatalf("pi exited (%v) before showing %q; output:\n%q", tm.err, want, raw)
		default:
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("screen never showed %q:\n%s", want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (tm *term) send(s string) {
	tm.t.Helper()
	if _, err := tm.pty.Write([]byte(s)); err != nil {
		tm.t.Fatal(err)
	}
}

// exitCode waits for pi to exit.
func (tm *term) exitCode() int {
	tm.t.Helper()
	select {
	case <-tm.done:
	case <-time.After(30 * time.Second):
		tm.t.Fatalf("pi did not exit; screen:\n%s", tm.screen())
	}
	// What pi wrote before exiting is still in the pty: read it all.
	select {
	case <-tm.read:
	case <-time.After(10 * time.Second):
		tm.t.Fatal("pty output did not end after pi exited")
	}
	if tm.err == nil {
		return 0
	}
	if ee, ok := tm.err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	tm.t.Fatal(tm.err)
	return -1
}

func TestPromptReplyToolRowAndDoubleCtrlC(t *testing.T) {
	for _, mode := range []string{"fullscreen", "regular"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			args, _ := json.Marshal(map[string]string{"command": "echo tool-says-hi"})
			agentDir, project, _ := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{
				{ToolCalls: []mockllm.ToolCall{{Name: "bash", Arguments: args, ID: "call_1"}}},
				{Text: "The command ran fine."},
			}})
			tm := startPi(t, agentDir, project, 100, 30, "--model", sdktest.Model, "--tui-mode", mode)
			tm.waitFor("mock-model")
			tm.send("please run it")
			tm.waitFor("please run it")
			tm.send("\r")
			s := tm.waitFor("The command ran fine.")
			for _, want := range []string{"$ echo tool-says-hi", "Took "} {
				if !strings.Contains(s, want) {
					t.Errorf("screen lacks %q:\n%s", want, s)
				}
			}
			// Two Ctrl+C in one write: the second comes well within the
			// double-press window.
			tm.send("\x03\x03")
			if code := tm.exitCode(); code != 0 {
				t.Fatalf("exit code %d", code)
			}
			tm.mu.Lock()
			raw := tm.raw.String()
			tm.mu.Unlock()
			if !strings.Contains(raw, "To resume this session:") {
				t.Errorf("no resume hint in the output:\n%q", raw[max(0, len(raw)-600):])
			}
			// The transcript stays on the screen (fullscreen prints it on
			// leaving the alternate screen) with the hint below it.
			final := tm.screen()
			reply, hint := strings.LastIndex(final, "The command ran fine."), strings.Index(final, "To resume this session:")
			if reply < 0 || hint < reply {
				t.Errorf("after exit the hint is not below the transcript:\n%s", final)
			}
		})
	}
}

// TestContinueReplaysHistory exits a session and reopens it with -c: the
// earlier prompt, reply and tool row are drawn again from the session
// file.
func TestContinueReplaysHistory(t *testing.T) {
	t.Parallel()
	args, _ := json.Marshal(map[string]string{"command": "echo replayed-tool"})
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{Turns: []mockllm.Turn{
		{ToolCalls: []mockllm.ToolCall{{Name: "bash", Arguments: args, ID: "call_1"}}},
		{Text: "First session reply."},
	}})
	first := startPi(t, agentDir, project, 100, 30, "--model", sdktest.Model, "--tui-mode", "regular", "remember this")
	first.waitFor("First session reply.")
	first.send("\x04") // Ctrl+D on the empty editor exits
	if code := first.exitCode(); code != 0 {
		t.Fatalf("first run exit code %d", code)
	}
	second := startPi(t, agentDir, project, 100, 30, "--model", sdktest.Model, "--tui-mode", "regular", "-c")
	s := second.waitFor("First session reply.")
	for _, want := range []string{"remember this", "$ echo replayed-tool", "replayed-tool"} {
		if !strings.Contains(s, want) {
			t.Errorf("replayed screen lacks %q:\n%s", want, s)
		}
	}
	second.send("\x03\x03")
	if code := second.exitCode(); code != 0 {
		t.Fatalf("second run exit code %d", code)
	}
}

// TestSigtermExits143 checks that SIGTERM ends the interactive mode with
// the print mode's code.
func TestSigtermExits143(t *testing.T) {
	t.Parallel()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	tm := startPi(t, agentDir, project, 80, 24, "--model", sdktest.Model)
	tm.waitFor("mock-model")
	if err := tm.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := tm.exitCode(); code != 143 {
		t.Fatalf("exit code %d, want 143", code)
	}
}

// TestTrustPromptBeforeStart: a project with its own .pi settings and no
// saved decision is asked about first; "Trust" saves the decision and pi
// starts.
func TestTrustPromptBeforeStart(t *testing.T) {
	t.Parallel()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	if err := os.MkdirAll(filepath.Join(project, ".pi"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".pi", "settings.json"), []byte(`{"quietStartup": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := startPi(t, agentDir, project, 100, 30, "--model", sdktest.Model)
	tm.waitFor("Trust project folder?")
	tm.send("\r")
	tm.waitFor("mock-model")
	b, err := os.ReadFile(filepath.Join(agentDir, "trust.json"))
	if err != nil {
		t.Fatalf("no trust.json: %v", err)
	}
	real, _ := filepath.EvalSymlinks(project)
	if !strings.Contains(string(b), real) {
		t.Errorf("trust.json lacks the project: %s", b)
	}
	// quietStartup from the now trusted project hides the header.
	if strings.Contains(tm.screen(), "Press ctrl+o") {
		t.Errorf("project settings were not loaded:\n%s", tm.screen())
	}
	tm.send("\x03\x03")
	if code := tm.exitCode(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// askExtension registers /ask: a select in the editor slot, then a
// notice with the answer, a status and a widget.
const askExtension = `export default function (pi: any) {
	pi.registerCommand("ask", {
		description: "Asks for a colour.",
		handler: async (_args: string, ctx: any) => {
			const c = await ctx.ui.select("Pick a colour (" + ctx.mode + ", " + ctx.hasUI + ")", ["Red", "Blue"]);
			ctx.ui.notify("picked " + c, "info");
			ctx.ui.setStatus("ask", "asked once");
			ctx.ui.setWidget("ask", ["colour widget: " + c]);
		},
	});
}
`

// TestExtensionDialogInTheEditorSlot runs an extension command whose
// ctx.ui.select shows in place of the editor and is answered with keys.
func TestExtensionDialogInTheEditorSlot(t *testing.T) {
	t.Parallel()
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	if err := os.MkdirAll(filepath.Join(agentDir, "extensions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agentDir, "extensions", "ask.ts"), []byte(askExtension), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := startPi(t, agentDir, project, 100, 30, "--model", sdktest.Model)
	tm.waitFor("mock-model")
	tm.send("/ask")
	tm.waitFor("/ask")
	tm.send("\r")
	tm.waitFor("Pick a colour (tui, true)")
	tm.send("\x1b[B")
	tm.send("\r")
	s := tm.waitFor("picked Blue")
	for _, want := range []string{"asked once", "colour widget: Blue"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	tm.send("\x03\x03")
	if code := tm.exitCode(); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// TestStartsWithoutModels: a new user with no credentials gets the
// interactive mode with the no-models warning in the header and "unknown"
// in the footer, as the reference starts, so /login is one command away;
// a prompt fails with the no-key error and pi keeps running.
func TestStartsWithoutModels(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	agentDir, project := filepath.Join(home, ".pi", "agent"), filepath.Join(home, "p")
	for _, d := range []string{agentDir, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tm := startPi(t, agentDir, project, 100, 24)
	tm.waitFor("No models available")
	tm.waitFor("unknown")
	tm.send("hello\r")
	tm.waitFor("No API key found for the selected model")
	tm.send("\x04") // Ctrl+D on the empty editor
	if code := tm.exitCode(); code != 0 {
		t.Fatalf("exit code %d, want 0", code)
	}
}
