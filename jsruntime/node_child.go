package jsruntime

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// spawnOpts are the spawn options the Go side needs.
type spawnOpts struct {
	cwd     string
	env     []string
	input   []byte
	timeout time.Duration
}

func (r *Runtime) parseSpawnOpts(v goja.Value) spawnOpts {
	o := spawnOpts{cwd: r.cwd()}
	// Children inherit process.env as the extension sees it (it may have
	// changed it), unless options.env is given.
	envObj, _ := r.vm.Get("process").ToObject(r.vm).Get("env").(*goja.Object)
	obj, ok := v.(*goja.Object)
	if ok {
		if c := obj.Get("cwd"); c != nil && !goja.IsUndefined(c) && !goja.IsNull(c) {
			o.cwd = r.pathArg(c)
		}
		if e, ok := obj.Get("env").(*goja.Object); ok {
			envObj = e
		}
	}
	if envObj != nil {
		o.env = []string{}
		for _, k := range envObj.Keys() {
			if val := envObj.Get(k); val != nil && !goja.IsUndefined(val) {
				o.env = append(o.env, k+"="+val.String())
			}
		}
	}
	if !ok {
		return o
	}
	if in := obj.Get("input"); in != nil && !goja.IsUndefined(in) && !goja.IsNull(in) {
		o.input = bytesOf(r.vm, in)
	}
	if t := obj.Get("timeout"); t != nil && !goja.IsUndefined(t) {
		o.timeout = time.Duration(t.ToInteger()) * time.Millisecond
	}
	return o
}

func (o spawnOpts) command(ctx context.Context, file string, args []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, file, args...)
	cmd.Dir = o.cwd
	if o.env != nil {
		cmd.Env = o.env
	}
	// A process group lets kill() reach the shell's children too.
	cmd.SysProcAttr = groupAttr()
	cmd.Cancel = func() error { return signalGroup(cmd.Process.Pid, syscall.SIGTERM) }
	return cmd
}

// signalName maps a wait status to Node's (code, signal) pair.
func signalName(state *os.ProcessState) (int, string) {
	if state == nil {
		return -1, ""
	}
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		names := map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGKILL: "SIGKILL", syscall.SIGINT: "SIGINT", syscall.SIGHUP: "SIGHUP", syscall.SIGPIPE: "SIGPIPE"}
		if n, ok := names[ws.Signal()]; ok {
			return -1, n
		}
		return -1, ws.Signal().String()
	}
	return state.ExitCode(), ""
}

// spawnAsync starts a process and streams its events to onEvent on the
// loop: ("stdout", Buffer), ("stderr", Buffer), ("error", message) and
// finally ("exit", code, signal). The process holds one reserved callback
// for its lifetime, so the loop stays busy until it exits.
func (r *Runtime) spawnAsync(file string, args []string, optsV goja.Value, onEvent goja.Callable) goja.Value {
	vm := r.vm
	opts := r.parseSpawnOpts(optsV)
	cmd := opts.command(context.Background(), file, args)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	emit := func(args ...any) func(*goja.Runtime) {
		return func(vm *goja.Runtime) {
			vals := make([]goja.Value, len(args))
			for i, a := range args {
				if b, ok := a.([]byte); ok {
					vals[i] = buffer.WrapBytes(vm, b)
				} else {
					vals[i] = vm.ToValue(a)
				}
			}
			if _, err := guard(func() (goja.Value, error) { return onEvent(goja.Undefined(), vals...) }); err != nil {
				panic(err)
			}
		}
	}
	done := r.loop.Reserve()
	handle := vm.NewObject()
	if err := cmd.Start(); err != nil {
		code := "ENOENT"
		if !errors.Is(err, exec.ErrNotFound) && !errors.Is(err, os.ErrNotExist) {
			code = "EACCES"
		}
		done(emit("error", "spawn "+file+" "+code, code))
		_ = handle.Set("pid", goja.Undefined())
		return handle
	}
	_ = handle.Set("pid", cmd.Process.Pid)
	in := make(chan []byte, 64)
	go func() {
		for b := range in {
			if b == nil {
				break
			}
			if _, err := stdin.Write(b); err != nil {
				break
			}
		}
		_ = stdin.Close()
	}()
	var closeOnce sync.Once
	closeIn := func() { closeOnce.Do(func() { close(in) }) }
	_ = handle.Set("write", func(v goja.Value) bool {
		b := append([]byte(nil), bytesOf(vm, v)...)
		select {
		case in <- b:
		default:
			go func() { defer func() { _ = recover() }(); in <- b }()
		}
		return true
	})
	_ = handle.Set("end", func() { closeIn() })
	_ = handle.Set("kill", func(sig goja.Value) bool {
		s := syscall.SIGTERM
		if sig != nil && !goja.IsUndefined(sig) {
			if n, ok := signals[sig.String()]; ok {
				s = n
			} else if n := sig.ToInteger(); n > 0 {
				s = syscall.Signal(n)
			}
		}
		return signalGroup(cmd.Process.Pid, s) == nil
	})
	var wg sync.WaitGroup
	pump := func(name string, rd io.Reader) {
		defer wg.Done()
		buf := make([]byte, 32*1024)
		for {
			n, err := rd.Read(buf)
			if n > 0 {
				r.loop.enqueue(task{fn: emit(name, append([]byte(nil), buf[:n]...))})
			}
			if err != nil {
				return
			}
		}
	}
	wg.Add(2)
	go pump("stdout", stdout)
	go pump("stderr", stderr)
	go func() {
		wg.Wait()
		_ = cmd.Wait()
		closeIn()
		code, sig := signalName(cmd.ProcessState)
		var codeV, sigV any = code, nil
		if sig != "" {
			codeV, sigV = nil, sig
		}
		done(emit("exit", codeV, sigV))
	}()
	return handle
}

// spawnSync runs a process to completion on the loop (it blocks JS, as
// Node's spawnSync does; the watchdog does not apply to Go code).
func (r *Runtime) spawnSync(file string, args []string, optsV goja.Value) goja.Value {
	vm := r.vm
	opts := r.parseSpawnOpts(optsV)
	ctx := context.Background()
	if opts.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.timeout)
		defer cancel()
	}
	cmd := opts.command(ctx, file, args)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if opts.input != nil {
		cmd.Stdin = bytes.NewReader(opts.input)
	}
	res := vm.NewObject()
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		e := r.nodeError("ENOENT", "spawnSync "+file+" ENOENT")
		_ = e.Set("syscall", "spawnSync "+file)
		_ = e.Set("path", file)
		_ = res.Set("error", e)
		_ = res.Set("status", goja.Null())
		_ = res.Set("signal", goja.Null())
		_ = res.Set("stdout", buffer.WrapBytes(vm, nil))
		_ = res.Set("stderr", buffer.WrapBytes(vm, nil))
		return res
	}
	code, sig := signalName(cmd.ProcessState)
	_ = res.Set("pid", cmd.Process.Pid)
	if sig != "" {
		_ = res.Set("status", goja.Null())
		_ = res.Set("signal", sig)
	} else {
		_ = res.Set("status", code)
		_ = res.Set("signal", goja.Null())
	}
	_ = res.Set("stdout", buffer.WrapBytes(vm, out.Bytes()))
	_ = res.Set("stderr", buffer.WrapBytes(vm, errb.Bytes()))
	return res
}

func loadChildProcess(r *Runtime) (goja.Value, error) {
	prim := r.vm.NewObject()
	_ = prim.Set("spawn", r.spawnAsync)
	_ = prim.Set("spawnSync", r.spawnSync)
	src, err := hostSource("child_process")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:child_process", wrapModule, src, prim)
}
