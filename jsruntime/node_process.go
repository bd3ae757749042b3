//go:build unix

package jsruntime

import (
	"os"
	"syscall"

	"github.com/dop251/goja"
)

// signalNumbers are the POSIX signals process.kill accepts by name.
var signalNumbers = map[string]syscall.Signal{
	"SIGHUP": syscall.SIGHUP, "SIGINT": syscall.SIGINT, "SIGQUIT": syscall.SIGQUIT, "SIGKILL": syscall.SIGKILL,
	"SIGUSR1": syscall.SIGUSR1, "SIGUSR2": syscall.SIGUSR2, "SIGPIPE": syscall.SIGPIPE, "SIGALRM": syscall.SIGALRM,
	"SIGTERM": syscall.SIGTERM, "SIGCONT": syscall.SIGCONT, "SIGSTOP": syscall.SIGSTOP, "SIGTSTP": syscall.SIGTSTP,
}

// installProcessExtras adds the process members the prelude leaves out,
// as native functions so that the prelude compiled at every start stays
// as it is: kill (of other processes: an extension may stop what it
// spawned, never the host), getBuiltinModule, loadEnvFile, the memory and
// resource figures, config and report.
func (r *Runtime) installProcessExtras() {
	vm := r.vm
	p, ok := vm.Get("process").(*goja.Object)
	if !ok {
		return
	}
	set := func(name string, v any) { _ = p.Set(name, v) }
	set("argv0", "node")
	set("kill", func(c goja.FunctionCall) goja.Value {
		pid := int(c.Argument(0).ToInteger())
		sig := syscall.SIGTERM
		if s := c.Argument(1); !goja.IsUndefined(s) {
			if n, isNum := s.Export().(int64); isNum {
				sig = syscall.Signal(n)
			} else if named, known := signalNumbers[s.String()]; known {
				sig = named
			} else {
				e := r.cryptoErr("TypeError", "ERR_UNKNOWN_SIGNAL", "Unknown signal: "+s.String())
				panic(e)
			}
		}
		if pid == os.Getpid() || pid == 0 {
			panic(vm.NewGoError(errNoSelfKill))
		}
		if err := syscall.Kill(pid, sig); err != nil {
			e := r.nodeError("ESRCH", "kill ESRCH")
			if err == syscall.EPERM {
				e = r.nodeError("EPERM", "kill EPERM")
			}
			_ = e.Set("syscall", "kill")
			_ = e.Set("errno", -int(err.(syscall.Errno)))
			panic(e)
		}
		return vm.ToValue(true)
	})
	set("getBuiltinModule", func(name string) goja.Value {
		if _, _, ok := r.canonical(name); !ok {
			return goja.Undefined()
		}
		return r.require(name)
	})
	set("loadEnvFile", func(c goja.FunctionCall) goja.Value {
		path := ".env"
		if a := c.Argument(0); !goja.IsUndefined(a) {
			path = a.String()
		}
		b, err := os.ReadFile(r.absPath(path))
		if err != nil {
			e := r.nodeError("ENOENT", "ENOENT: no such file or directory, open '"+path+"'")
			_ = e.Set("errno", -2)
			_ = e.Set("syscall", "open")
			_ = e.Set("path", path)
			panic(e)
		}
		parse, _ := goja.AssertFunction(r.require("util").ToObject(vm).Get("parseEnv"))
		vars, err := parse(goja.Undefined(), vm.ToValue(string(b)))
		if err != nil {
			panic(err)
		}
		env := p.Get("env").ToObject(vm)
		obj := vars.ToObject(vm)
		for _, k := range obj.Keys() {
			if v := env.Get(k); v == nil || goja.IsUndefined(v) {
				_ = env.Set(k, obj.Get(k))
			}
		}
		return goja.Undefined()
	})
	set("availableMemory", func() int64 { return 4 << 30 })
	set("constrainedMemory", func() int64 { return 0 })
	set("resourceUsage", func() *goja.Object {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		// Node's key order; a map would come out shuffled.
		o := vm.NewObject()
		for _, kv := range []struct {
			k string
			v int64
		}{
			{"userCPUTime", int64(ru.Utime.Sec)*1e6 + int64(ru.Utime.Usec)}, {"systemCPUTime", int64(ru.Stime.Sec)*1e6 + int64(ru.Stime.Usec)},
			{"maxRSS", int64(ru.Maxrss)}, {"sharedMemorySize", 0}, {"unsharedDataSize", 0}, {"unsharedStackSize", 0},
			{"minorPageFault", int64(ru.Minflt)}, {"majorPageFault", int64(ru.Majflt)}, {"swappedOut", 0}, {"fsRead", int64(ru.Inblock)},
			{"fsWrite", int64(ru.Oublock)}, {"ipcSent", 0}, {"ipcReceived", 0}, {"signalsCount", 0},
			{"voluntaryContextSwitches", int64(ru.Nvcsw)}, {"involuntaryContextSwitches", int64(ru.Nivcsw)},
		} {
			_ = o.Set(kv.k, kv.v)
		}
		return o
	})
	cfg := vm.NewObject()
	_ = cfg.Set("target_defaults", vm.NewObject())
	_ = cfg.Set("variables", vm.NewObject())
	set("config", cfg)
	report := vm.NewObject()
	_ = report.Set("getReport", func() map[string]any {
		return map[string]any{"header": map[string]any{"glibcVersionRuntime": "2.36", "nodejsVersion": "v22.23.5"}, "sharedObjects": []any{}}
	})
	set("report", report)
	set("binding", func(name string) goja.Value {
		panic(r.nodeError("ERR_INVALID_MODULE", "No such module: "+name))
	})
}

var errNoSelfKill = errorString("process.kill of the host process by an extension; the host keeps running")

type errorString string

func (e errorString) Error() string { return string(e) }
