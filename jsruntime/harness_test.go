package jsruntime

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a goroutine-safe stderr capture.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fakeHost collects what a test run produced.
type fakeHost struct {
	rt       *Runtime
	loadErrs []LoadError
	stderr   *syncBuffer
	mu       sync.Mutex
	errs     []ExtensionError
	dir      string
}

func (h *fakeHost) extErrors() []ExtensionError {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]ExtensionError(nil), h.errs...)
}

// runTS writes files (name → source; the first key "ext.ts" is the entry
// unless entry is given) to a temp dir and loads the entry.
func runTS(t *testing.T, files map[string]string, tweak ...func(*LoadOptions)) *fakeHost {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := &fakeHost{stderr: &syncBuffer{}, dir: dir}
	opts := LoadOptions{
		AgentDir: filepath.Join(dir, "agent"),
		Cwd:      dir,
		Paths:    []string{filepath.Join(dir, "ext.ts")},
		Stderr:   h.stderr,
		// The product's limit: a -race build on a loaded two-core machine
		// runs pi-ai's or webcrypto's first load close to 2 s.
		Watchdog: DefaultWatchdog,
		OnError: func(e ExtensionError) {
			h.mu.Lock()
			h.errs = append(h.errs, e)
			h.mu.Unlock()
		},
	}
	for _, f := range tweak {
		f(&opts)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rt, lerrs, err := Load(ctx, opts)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	t.Cleanup(rt.Close)
	h.rt, h.loadErrs = rt, lerrs
	return h
}

// settle waits until the loop has nothing left to do.
func (h *fakeHost) settle(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := h.rt.Loop().WaitIdle(ctx); err != nil {
		t.Fatalf("WaitIdle: %v; stderr so far:\n%s", err, h.stderr.String())
	}
}

// logOf loads one extension (the source of ext.ts), waits until its loop
// settles and returns what it printed; a load error fails the test.
func logOf(t *testing.T, src string) string {
	t.Helper()
	h := runTS(t, map[string]string{"ext.ts": src})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	return h.stderr.String()
}

// wantLines fails the test for each line missing from got.
func wantLines(t *testing.T, got string, lines ...string) {
	t.Helper()
	for _, w := range lines {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
}
