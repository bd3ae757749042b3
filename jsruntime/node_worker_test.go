package jsruntime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestWorkerStopsWithRuntime: a worker that would run forever (its
// parentPort listens, a timer appends to a file) stops when the runtime
// that started it closes.
func TestWorkerStopsWithRuntime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mark := filepath.Join(dir, "mark.txt")
	h := runTS(t, map[string]string{"ext.ts": `import { Worker } from "node:worker_threads";
export default function () {
  const w = new Worker(` + "`" + `const { parentPort } = require("worker_threads");
parentPort.on("message", () => {});
setInterval(() => require("fs").appendFileSync(` + "${JSON.stringify(" + `"` + filepath.ToSlash(mark) + `"` + ")}" + `, "x"), 2);
parentPort.postMessage("started");` + "`" + `, { eval: true });
  w.on("message", (m) => console.log("worker", m));
}
`})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(h.stderr.String(), "worker started") || size(mark) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("worker did not start: %q", h.stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.rt.Close()
	// Let a write already under way land, then the file must stay put.
	time.Sleep(50 * time.Millisecond)
	before := size(mark)
	time.Sleep(100 * time.Millisecond)
	if after := size(mark); after != before {
		t.Fatalf("worker still running after Close: file grew from %d to %d bytes", before, after)
	}
}

func size(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// TestWorkerConsoleThroughParent: a worker's console output reaches the
// parent's stderr, before the messages it posted afterwards are handled.
func TestWorkerConsoleThroughParent(t *testing.T) {
	t.Parallel()
	got := logOf(t, `import { Worker } from "node:worker_threads";
export default function () {
  const w = new Worker("console.log('from worker'); require('worker_threads').parentPort.postMessage('done')", { eval: true });
  w.on("message", (m) => console.log("parent got", m));
  w.on("exit", (c) => console.log("exit", c));
}
`)
	want := "from worker\nparent got done\nexit 0\n"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestAsyncHooksLoadsLazily: the promise tracker that AsyncLocalStorage
// needs is installed by the first require of async_hooks, not at start.
func TestAsyncHooksLoadsLazily(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": "export default function () {}\n"})
	h.settle(t)
	check := func(want bool) {
		t.Helper()
		var has bool
		if err := h.rt.Loop().Do(t.Context(), func(*goja.Runtime) error { has = h.rt.tracker() != nil; return nil }); err != nil {
			t.Fatal(err)
		}
		if has != want {
			t.Fatalf("tracker installed = %v, want %v", has, want)
		}
	}
	check(false)
	if err := h.rt.Loop().Do(t.Context(), func(*goja.Runtime) error { h.rt.require("async_hooks"); return nil }); err != nil {
		t.Fatal(err)
	}
	check(true)
}

// TestAsyncLocalStorageEndsWithTask: a store entered in one loop task
// that nothing scheduled from (a host callback) is gone in the next task.
func TestAsyncLocalStorageEndsWithTask(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": "export default function () {}\n"})
	h.settle(t)
	run := func(src string) string {
		t.Helper()
		var out string
		if err := h.rt.Loop().Do(t.Context(), func(vm *goja.Runtime) error {
			v, err := vm.RunString(src)
			if err == nil {
				out = v.String()
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if err := h.rt.Loop().Do(t.Context(), func(vm *goja.Runtime) error { return vm.Set("__req", h.rt.requireFn) }); err != nil {
		t.Fatal(err)
	}
	run(`globalThis.als = new (__req("async_hooks").AsyncLocalStorage)(); als.enterWith("first"); ""`)
	if got := run(`String(als.getStore())`); got != "undefined" {
		t.Fatalf("store in the next task = %s, want undefined", got)
	}
	if got := run(`als.enterWith("again"); String(als.getStore())`); got != "again" {
		t.Fatalf("store within the task = %s, want again", got)
	}
}

// TestAsyncLocalStorageTimersModule: the timers module's functions carry
// the store whether timers loaded before async_hooks or after it.
func TestAsyncLocalStorageTimersModule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, first, second string }{
		{"timers first", "timers", "async_hooks"},
		{"async_hooks first", "async_hooks", "timers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := logOf(t, `export default function () {
  require("`+tc.first+`"); require("`+tc.second+`");
  const { AsyncLocalStorage } = require("async_hooks");
  const timers = require("timers");
  const als = new AsyncLocalStorage();
  als.run("kept", () => {
    timers.setTimeout(() => console.log("timeout", als.getStore()), 1);
    timers.setImmediate(() => console.log("immediate", als.getStore()));
  });
}
`)
			wantLines(t, got, "timeout kept", "immediate kept")
		})
	}
}
