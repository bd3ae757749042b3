package pi_test

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/builtins/codemode"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

func toolNames(s *engine.Session) []string {
	var out []string
	for _, t := range s.Tools() {
		out = append(out, t.Info().Name)
	}
	return out
}

// TestIndirectToolsActivate checks the seam the MCP client uses: an entry
// whose Activate names codemode turns codemode on in the running session
// (with the call notes on the other tools), one that names tool_search
// turns that on, neither entry is declared itself, and with the built-in
// extension switched off (-ne) nothing is activated.
func TestIndirectToolsActivate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		noExt    bool
		activate string
		want     []string
	}{
		{name: "codemode", activate: codemode.Name, want: []string{"read", "bash", "edit", "write", "codemode"}},
		{name: "tool_search", activate: codemode.SearchName, want: []string{"read", "bash", "edit", "write", "tool_search"}},
		{name: "-ne", noExt: true, activate: codemode.Name, want: []string{"read", "bash", "edit", "write"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
			agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
				NoSession: true, Mode: pi.ModeRPC, NoExtensions: tc.noExt, Stderr: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			defer agent.Close()
			tool := pi.NewTool("mcp__srv__ping", "Ping the server.", `{"type":"object","properties":{}}`,
				func(ctx context.Context, _ struct{}) (string, error) { return "PONG", nil })
			agent.IndirectTools().Add(codemode.Entry{Tool: tool, Exposure: codemode.ExposureDeferred,
				Namespace: &codemode.Namespace{Name: "srv"}, Activate: tc.activate})
			got := toolNames(agent.Session())
			if !slices.Equal(got, tc.want) {
				t.Errorf("active tools %v, want %v", got, tc.want)
			}
			if tc.activate == codemode.Name && !tc.noExt {
				var desc string
				for _, tl := range agent.Session().Tools() {
					if tl.Info().Name == "read" {
						desc = tl.Info().Description
					}
				}
				if !strings.Contains(desc, "Codemode: `tools.read(args)`") {
					t.Errorf("read's description lacks the codemode note: %q", desc)
				}
			}
		})
	}
}
