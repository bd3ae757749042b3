package pi_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
	"github.com/pi-go/pi/mcp/mcptest"
)

// manageUI is a person in the TUI going through /mcp's dialogs: each
// Select is checked and answered by the next step of the script.
type manageUI struct {
	engine.NopUI
	t     *testing.T
	steps []func(title string, options []string) (string, bool)

	mu    sync.Mutex
	notes []string
}

func (u *manageUI) HasUI() bool  { return true }
func (u *manageUI) Mode() string { return "tui" }

func (u *manageUI) Notify(message, kind string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.notes = append(u.notes, kind+": "+message)
}

func (u *manageUI) Select(_ context.Context, title string, options []string, _ engine.DialogOptions) (string, bool) {
	if len(u.steps) == 0 {
		u.t.Errorf("unexpected dialog %q %q", title, options)
		return "", false
	}
	step := u.steps[0]
	u.steps = u.steps[1:]
	return step(title, options)
}

// pick answers with the option that starts with label, failing the test
// when the dialog does not offer it.
func pick(t *testing.T, options []string, label string) (string, bool) {
	t.Helper()
	for _, o := range options {
		if strings.HasPrefix(o, label+" ") || o == label {
			return o, true
		}
	}
	t.Errorf("no option %q in %q", label, options)
	return "", false
}

// TestMCPManager drives /mcp in the TUI: the list puts the servers that
// need attention (needs sign-in, failed) before a disabled one, each row
// with state, exposure and scope; a server's menu shows its command, its
// file and state and the actions that apply to it; "Enable in this
// project" writes an override into the project's mcp.json (leaving the
// user file alone), and an exposure change is saved into the user file.
func TestMCPManager(t *testing.T) {
	t.Parallel()
	w := mcptest.New(t)
	agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
	global := filepath.Join(agentDir, "mcp.json")
	conf := `{"mcpServers":{"off":{"command":"/nonexistent/off","enabled":false},"secure":{"url":"` + w.MCPURL + `"},"dead":{"command":"/nonexistent/dead"}}}`
	if err := os.WriteFile(global, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	ui := &manageUI{t: t}
	list := func(want ...string) func(string, []string) (string, bool) {
		return func(title string, options []string) (string, bool) {
			if title != "MCP servers" || len(options) != len(want) {
				t.Fatalf("list %q %q", title, options)
			}
			for i, o := range options {
				if !strings.HasPrefix(o, want[i]) {
					t.Errorf("row %d %q, want %q…", i, o, want[i])
				}
			}
			return "", false
		}
	}
	choose := func(row string) func(string, []string) (string, bool) {
		return func(_ string, options []string) (string, bool) { return pick(t, options, row) }
	}
	menu := func(head string, labels []string, answer string) func(string, []string) (string, bool) {
		return func(title string, options []string) (string, bool) {
			if title != head {
				t.Errorf("menu title %q, want %q", title, head)
			}
			var got []string
			for _, o := range options {
				got = append(got, strings.Fields(o)[0])
			}
			if strings.Join(got, ",") != strings.Join(labels, ",") {
				t.Errorf("menu %q offers %q, want %q", head, options, labels)
			}
			if answer == "" {
				return "", false
			}
			return pick(t, options, answer)
		}
	}
	// The first walk checks the list and leaves it; the second acts.
	ui.steps = append(ui.steps, func(title string, options []string) (string, bool) {
		list("secure                          needs sign-in · codemode · global",
			"dead                            failed: ",
			"off                             disabled · codemode · global")(title, options)
		return "", false
	},
		choose("off"),
		menu("MCP server off\n/nonexistent/off\nglobal: "+global+"\nState: disabled", []string{"Enable", "Enable"}, "Enable in this project"),
		func(title string, options []string) (string, bool) {
			if !strings.Contains(title, "override: "+filepath.Join(project, ".pi", "mcp.json")) || !strings.Contains(title, "State: failed") {
				t.Errorf("menu after enabling in the project: %q", title)
			}
			return pick(t, options, "Exposure")
		},
		func(title string, options []string) (string, bool) {
			if !strings.HasPrefix(title, "Exposure of off\nSaved to "+filepath.Join(project, ".pi", "mcp.json")) || !strings.HasPrefix(options[0], "✓ codemode") {
				t.Errorf("exposure dialog %q %q", title, options)
			}
			return pick(t, options, "direct")
		},
		func(title string, options []string) (string, bool) { return "", false },
		func(title string, options []string) (string, bool) { return "", false },
	)
	agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
		NoSession: true, Mode: pi.ModeRPC, UI: ui, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	for range 2 {
		if err := agent.Prompt(context.Background(), "/mcp", nil); err != nil {
			t.Fatal(err)
		}
	}
	if len(ui.steps) != 0 {
		t.Errorf("%d dialogs never shown", len(ui.steps))
	}
	if b, _ := os.ReadFile(global); string(b) != conf {
		t.Errorf("user mcp.json changed:\n%s", b)
	}
	b, _ := os.ReadFile(filepath.Join(project, ".pi", "mcp.json"))
	if want := "{\n  \"mcpServers\": {\n    \"off\": {\n      \"enabled\": true,\n      \"exposure\": \"direct\"\n    }\n  }\n}\n"; string(b) != want {
		t.Errorf("project mcp.json:\n%s\nwant\n%s", b, want)
	}
}
