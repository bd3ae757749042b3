package jsruntime

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// node:v8 and node:vm expose what goja can honestly give: heap numbers
// from the Go runtime (one heap: goja's objects live in Go's), scripts
// compiled and run by goja, and contexts as sandboxes over the one realm
// (see hostjs/vm.js). The rest throws ERR_NOT_SUPPORTED there.

// heapLimit is the most the heap may grow to: GOMEMLIMIT when set,
// otherwise the machine's memory (the Go heap has no fixed cap the way
// V8's has).
func heapLimit() uint64 {
	if l := debug.SetMemoryLimit(-1); l > 0 && l != math.MaxInt64 {
		return uint64(l)
	}
	f, err := os.Open("/proc/meminfo")
	if err == nil {
		defer func() { _ = f.Close() }()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
				if err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 4 << 30
}

func (r *Runtime) heapStatistics() goja.Value {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	limit := heapLimit()
	other := m.Sys - m.HeapSys
	o := r.vm.NewObject()
	for _, kv := range []struct {
		k string
		v uint64
	}{
		{"total_heap_size", m.HeapSys}, {"total_heap_size_executable", 0}, {"total_physical_size", m.HeapInuse},
		{"total_available_size", limit - min(limit, m.HeapAlloc)}, {"used_heap_size", m.HeapAlloc}, {"heap_size_limit", limit},
		{"malloced_memory", other}, {"peak_malloced_memory", other}, {"does_zap_garbage", 0},
		{"number_of_native_contexts", 1}, {"number_of_detached_contexts", 0}, {"total_global_handles_size", 0},
		{"used_global_handles_size", 0}, {"external_memory", 0},
	} {
		_ = o.Set(kv.k, kv.v)
	}
	return o
}

func (r *Runtime) heapSpaceStatistics() goja.Value {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	o := r.vm.NewObject()
	_ = o.Set("space_name", "go_heap")
	_ = o.Set("space_size", m.HeapSys)
	_ = o.Set("space_used_size", m.HeapAlloc)
	_ = o.Set("space_available_size", m.HeapIdle)
	_ = o.Set("physical_space_size", m.HeapInuse)
	return r.vm.NewArray(o)
}

// checkScript compiles src as a script and returns the syntax error's
// message, or null.
func (r *Runtime) checkScript(src, file string) goja.Value {
	if _, err := goja.Compile(file, src, false); err != nil {
		return r.vm.ToValue(err.Error())
	}
	return goja.Null()
}

// withTimeout calls fn and interrupts it after ms, as vm's timeout
// option does; the interruption becomes Node's ERR_SCRIPT_EXECUTION_TIMEOUT,
// which the caller can catch. The timer never outlives the call: the
// flag, under mu, keeps a late timer from interrupting later code.
func (r *Runtime) withTimeout(fn goja.Callable, ms int64) goja.Value {
	var mu sync.Mutex
	active, fired := true, false
	t := time.AfterFunc(time.Duration(ms)*time.Millisecond, func() {
		mu.Lock()
		defer mu.Unlock()
		if active {
			fired = true
			r.vm.Interrupt(errScriptTimeout)
		}
	})
	v, err := fn(goja.Undefined())
	t.Stop()
	mu.Lock()
	active = false
	wasFired := fired
	mu.Unlock()
	if wasFired {
		r.vm.ClearInterrupt()
	}
	if err != nil {
		if ie, ok := err.(*goja.InterruptedError); ok && ie.Value() == errScriptTimeout {
			e := r.nodeError("ERR_SCRIPT_EXECUTION_TIMEOUT", fmt.Sprintf("Script execution timed out after %dms", ms))
			panic(e)
		}
		panic(err)
	}
	return v
}

var errScriptTimeout = &struct{ name string }{"vm timeout"}

func loadV8(r *Runtime) (goja.Value, error) {
	prim := r.vm.NewObject()
	_ = prim.Set("heapStatistics", r.heapStatistics)
	_ = prim.Set("heapSpaceStatistics", r.heapSpaceStatistics)
	src, err := hostSource("v8")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:v8", wrapModule, src, prim)
}

func loadVM(r *Runtime) (goja.Value, error) {
	prim := r.vm.NewObject()
	_ = prim.Set("check", r.checkScript)
	_ = prim.Set("withTimeout", r.withTimeout)
	src, err := hostSource("vm")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:vm", wrapModule, src, prim)
}
