package jsruntime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// referenceExamples is the reference's examples/extensions directory; the
// tests that need it skip when the reference is not installed.
const referenceExamples = "/root/.cache/pi-reference/pi/node_modules/@earendil-works/pi-coding-agent/examples/extensions"

// headlessExamples are the examples extensions.md §9 classifies as H,
// H-rpc or H-deg: they must load in a headless host.
var headlessExamples = []string{
	// H
	"hello.ts", "auto-commit-on-exit.ts", "bash-spawn-hook.ts", "bookmark.ts", "claude-rules.ts",
	"custom-compaction.ts", "dynamic-resources", "dynamic-tools.ts", "event-bus.ts", "file-trigger.ts",
	"git-merge-and-resolve.ts", "inline-bash.ts", "input-transform.ts", "input-transform-streaming.ts",
	"model-status.ts", "notify.ts", "pirate.ts", "prompt-customizer.ts", "protected-paths.ts",
	"provider-payload.ts", "reload-runtime.ts", "send-user-message.ts", "session-name.ts",
	"shutdown-command.ts", "ssh.ts", "status-line.ts", "structured-output.ts", "subagent",
	"system-prompt-header.ts", "tool-override.ts", "trigger-compact.ts", "truncated-tool.ts", "with-deps",
	// H-rpc
	"commands.ts", "confirm-destructive.ts", "dirty-repo-guard.ts", "git-checkpoint.ts", "permission-gate.ts",
	"project-trust.ts", "rpc-demo.ts", "timed-confirm.ts", "titlebar-spinner.ts", "widget-placement.ts",
	// H-deg
	"built-in-tool-renderer.ts", "debug-provider.ts", "entry-renderer.ts", "interactive-shell.ts",
	"message-renderer.ts", "minimal-mode.ts", "plan-mode", "preset.ts", "question.ts", "questionnaire.ts",
	"summarize.ts", "todo.ts",
}

func needReference(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(referenceExamples); err != nil {
		t.Skip("reference examples not installed")
	}
}

// copyTree copies a directory (the with-deps example gets a node_modules
// of our own next to it, so the reference install stays untouched).
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// exampleEntry returns the entry files of one example, preparing
// with-deps with a stand-in "ms" package.
func exampleEntry(t testing.TB, name string) []string {
	t.Helper()
	p := filepath.Join(referenceExamples, name)
	if name == "with-deps" {
		dir := filepath.Join(t.TempDir(), "with-deps")
		copyTree(t, p, dir)
		copyTree(t, filepath.Join("testdata", "node_modules"), filepath.Join(dir, "node_modules"))
		p = dir
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return dirEntries(p)
	}
	return []string{p}
}

func TestLoadHeadlessExamples(t *testing.T) {
	t.Parallel()
	needReference(t)
	for _, name := range headlessExamples {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			entries := exampleEntry(t, name)
			if len(entries) == 0 {
				t.Fatalf("no entry found for %s", name)
			}
			stderr := &syncBuffer{}
			var errs []ExtensionError
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			rt, lerrs, err := Load(ctx, LoadOptions{
				AgentDir: t.TempDir(),
				Cwd:      t.TempDir(),
				Paths:    entries,
				Stderr:   stderr,
				OnError:  func(e ExtensionError) { errs = append(errs, e) },
			})
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			for _, le := range lerrs {
				t.Errorf("load error: %v", le.Error())
			}
			if err := rt.Loop().Do(ctx, func(_ *goja.Runtime) error { return nil }); err != nil {
				t.Fatal(err)
			}
			exts := rt.Extensions()
			if len(exts) != len(entries) {
				t.Fatalf("loaded %d extensions, want %d", len(exts), len(entries))
			}
			if name == "with-deps" {
				if len(exts[0].Tools) != 1 || exts[0].Tools[0].Name != "parse_duration" {
					t.Errorf("with-deps registered %+v", exts[0].Tools)
				}
			}
			if strings.Contains(stderr.String(), "Error") {
				t.Logf("stderr: %s", stderr.String())
			}
		})
	}
}
