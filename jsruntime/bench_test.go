package jsruntime

import (
	"context"
	"io"
	"path/filepath"
	"strconv"
	"testing"
)

// benchExamples are the five reference examples bench/extbench.py starts
// the binary with: typebox and pi-ai (todo), pi-tui components (question),
// a tool_call gate (permission-gate), fs and the pi-coding-agent helpers
// (tool-override) and node:path (protected-paths).
var benchExamples = []string{"todo.ts", "question.ts", "permission-gate.ts", "tool-override.ts", "protected-paths.ts"}

func benchLoad(b *testing.B, agentDir func() string, freshProcess bool) {
	b.Helper()
	var paths []string
	for _, e := range benchExamples {
		paths = append(paths, exampleEntry(b, e)...)
	}
	cwd := b.TempDir()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if freshProcess {
			// A new pi process starts without compiled programs.
			programCache.Clear()
		}
		rt, lerrs, err := Load(ctx, LoadOptions{AgentDir: agentDir(), Cwd: cwd, Paths: paths, Stderr: io.Discard})
		if err != nil || len(lerrs) > 0 {
			b.Fatal(err, lerrs)
		}
		rt.Close()
	}
}

// BenchmarkLoad5Examples measures startup with five extensions: bundling,
// runtime setup, module evaluation and the factories. "cold" is a new
// process with an empty transpile cache, "warm" a new process with a
// filled one, "reload" a second load in the same process (/reload, a new
// session), where compiled programs are reused too.
func BenchmarkLoad5Examples(b *testing.B) {
	needReference(b)
	b.Run("cold", func(b *testing.B) {
		root := b.TempDir()
		n := 0
		benchLoad(b, func() string {
			n++
			return filepath.Join(root, "agent", strconv.Itoa(n))
		}, true)
	})
	b.Run("warm", func(b *testing.B) {
		agent := b.TempDir()
		benchLoad(b, func() string { return agent }, true)
	})
	b.Run("reload", func(b *testing.B) {
		agent := b.TempDir()
		benchLoad(b, func() string { return agent }, false)
	})
}

// BenchmarkNewRuntime is the fixed cost of a runtime without extensions:
// globals, prelude and the host modules it needs, in a fresh process.
func BenchmarkNewRuntime(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		programCache.Clear()
		rt, err := New(LoadOptions{Stderr: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		rt.Close()
	}
}
