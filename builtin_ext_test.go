package pi_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/internal/mockllm"
	"github.com/pi-go/pi/internal/sdktest"
)

// TestBuiltinExtensions checks that builtin:mcp lists /mcp (unless
// settings turn it off), and that the reference's built-in extensions
// this build does not have (all but builtin:mcp) are neither listed nor
// fatal: get_commands has no /llama, a known builtin:<name> is a warning
// that names it,
// an unknown -e builtin:<name> fails as in the reference, and an extension
// that registers /mcp is the only /mcp.
func TestBuiltinExtensions(t *testing.T) {
	t.Parallel()
	const mcpExt = `export default function (pi) { pi.registerCommand("mcp", { description: "mine", handler: async () => {} }); }`
	tests := []struct {
		name       string
		extensions []string
		settings   string
		ext        bool // load mcpExt with -e
		wantErr    bool
		wantStderr []string
		wantMCP    bool // the extension's /mcp
		noMCP      bool // builtin:mcp off: no /mcp at all
		quiet      bool // nothing on stderr
	}{
		{name: "none"},
		{name: "-e builtin:mcp", extensions: []string{"builtin:mcp"}},
		{name: "-e builtin:codemode", extensions: []string{"builtin:codemode", "builtin:tool-search"}},
		{name: "-e builtin:llama.cpp", extensions: []string{"builtin:llama.cpp"},
			wantStderr: []string{"Warning: built-in extension builtin:llama.cpp is not available in this build"}},
		{name: "-e unknown", extensions: []string{"builtin:nope"}, wantErr: true,
			wantStderr: []string{`Error: Failed to load extension "builtin:nope": Unknown built-in extension: builtin:nope`}},
		{name: "settings", settings: `{"extensions":["-builtin:mcp","+builtin:llama.cpp","+builtin:nope"]}`,
			wantStderr: []string{"Warning: built-in extension builtin:llama.cpp is not available in this build"}, noMCP: true},
		{name: "extension /mcp", ext: true, wantMCP: true, wantStderr: []string{
			"Warning: Extension package \"builtin:mcp\": Extension ",
			"mcp.ts registers command `/mcp`, so built-in extension `mcp` was not loaded. To use `mcp`, run `pi config` and make sure it is enabled under Built-in extensions, then disable or remove the existing extension. We recommend only having one or the other loaded at a time.\n"}},
		{name: "extension /mcp, builtin off", ext: true, wantMCP: true, settings: `{"extensions":["-builtin:mcp"]}`, quiet: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agentDir, project, _ := sdktest.Home(t, mockllm.Script{})
			if tc.settings != "" {
				if err := os.WriteFile(filepath.Join(agentDir, "settings.json"), []byte(tc.settings), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			exts := tc.extensions
			if tc.ext {
				p := filepath.Join(project, "mcp.ts")
				if err := os.WriteFile(p, []byte(mcpExt), 0o644); err != nil {
					t.Fatal(err)
				}
				exts = append(exts, p)
			}
			var stderr bytes.Buffer
			agent, err := pi.New(context.Background(), pi.Options{AgentDir: agentDir, Cwd: project, Model: sdktest.Model,
				NoSession: true, Mode: pi.ModeRPC, Extensions: exts, Stderr: &stderr})
			if tc.quiet && stderr.Len() > 0 {
				t.Errorf("stderr %q, want nothing", stderr.String())
			}
			for _, w := range tc.wantStderr {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q lacks %q", stderr.String(), w)
				}
			}
			if tc.wantErr {
				if !errors.Is(err, pi.ErrExtensionLoad) {
					t.Fatalf("New: %v, want ErrExtensionLoad", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("New: %v (stderr %s)", err, stderr.String())
			}
			defer agent.Close()
			if strings.Contains(stderr.String(), "builtin:mcp is not available") {
				t.Errorf("builtin:mcp, which this build has, was reported missing: %s", stderr.String())
			}
			if strings.Contains(stderr.String(), "nope") {
				t.Errorf("a settings entry with an unknown built-in name was reported: %s", stderr.String())
			}
			var mcp int
			for _, c := range agent.Commands() {
				switch c.Name {
				case "llama":
					t.Errorf("get_commands lists /llama, which nothing implements")
				case "mcp":
					mcp++
					// The extension's /mcp replaces the built-in one.
					if c.SourceInfo == nil || (c.SourceInfo.Source == "builtin") == tc.wantMCP {
						t.Errorf("get_commands lists /mcp from %+v", c.SourceInfo)
					}
				}
			}
			if want := 1; mcp != want && !tc.noMCP {
				t.Errorf("/mcp listed %d times, want %d", mcp, want)
			}
			if tc.noMCP && mcp != 0 {
				t.Errorf("/mcp listed with builtin:mcp off")
			}
		})
	}
}
