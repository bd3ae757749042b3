package jsruntime

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/dop251/goja"
	"github.com/fsnotify/fsnotify"
)

// fsWatch is fs.watch's Go side: __watch(path, recursive, persistent,
// cb(eventType, filename, err)) returns {close, ref, unref}. The fsnotify
// goroutine hands each event to the loop through the funnel; a persistent
// watcher holds a reserved callback, so the loop stays busy until close or
// unref, as a Node watcher keeps the process alive.
func (r *Runtime) fsWatch(call goja.FunctionCall) goja.Value {
	vm := r.vm
	raw := call.Argument(0).String()
	root := r.pathArg(call.Argument(0))
	recursive := call.Argument(1).ToBoolean()
	persistent := call.Argument(2).ToBoolean()
	cb, ok := goja.AssertFunction(call.Argument(3))
	if !ok {
		panic(r.argTypeError("listener", "of type function", call.Argument(3)))
	}
	fi, err := os.Stat(root)
	if err != nil {
		panic(r.watchError(err, raw))
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		panic(r.watchError(err, raw))
	}
	dirs := []string{root}
	if recursive && fi.IsDir() {
		dirs = subdirs(root)
	}
	for _, d := range dirs {
		if err := w.Add(d); err != nil {
			_ = w.Close()
			panic(r.watchError(err, raw))
		}
	}
	// Loop-only state.
	closed := false
	var hold func(func(*goja.Runtime))
	ref := func() {
		if hold == nil && !closed {
			hold = r.loop.Reserve()
		}
	}
	unref := func() {
		if hold != nil {
			h := hold
			hold = nil
			h(func(*goja.Runtime) {})
		}
	}
	if persistent {
		ref()
	}
	wrap := r.asyncWrap()
	deliver := func(typ, name string, err error) {
		r.loop.RunOnLoop(func(*goja.Runtime) {
			if closed {
				return
			}
			wrap(func() {
				var e goja.Value = goja.Undefined()
				if err != nil {
					e = r.jsFSError(toNodeErr(err, "watch", raw))
				}
				if _, err := cb(goja.Undefined(), vm.ToValue(typ), vm.ToValue(name), e); err != nil {
					panic(err)
				}
			})
		})
	}
	go func() {
		for {
			select {
			case <-r.loop.done:
				// The runtime closed with the watcher open.
				_ = w.Close()
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				name := filepath.Base(ev.Name)
				if fi.IsDir() {
					if rel, err := filepath.Rel(root, ev.Name); err == nil {
						name = rel
					}
				}
				if recursive && ev.Has(fsnotify.Create) {
					if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
						_ = w.Add(ev.Name)
					}
				}
				// Node names every creation, removal and rename "rename"
				// and every content or attribute change "change".
				typ := "change"
				if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
					typ = "rename"
				}
				deliver(typ, name, nil)
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				deliver("", "", err)
			}
		}
	}()
	h := vm.NewObject()
	_ = h.Set("close", func() {
		if closed {
			return
		}
		unref()
		closed = true
		_ = w.Close()
	})
	_ = h.Set("ref", ref)
	_ = h.Set("unref", unref)
	return h
}

func subdirs(root string) []string {
	var out []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// watchError is Node's error for a watch that cannot start: its own keys
// are errno, syscall, code, path and filename, in that order.
func (r *Runtime) watchError(err error, raw string) *goja.Object {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		if errors.Is(err, fs.ErrNotExist) {
			errno = syscall.ENOENT
		} else {
			return r.vm.NewGoError(err)
		}
	}
	ne := errnoError(errno, "watch", raw)
	e, _ := r.vm.New(r.vm.Get("Error"), r.vm.ToValue(ne.Error()))
	_ = e.Set("errno", ne.errno)
	_ = e.Set("syscall", "watch")
	_ = e.Set("code", ne.code)
	_ = e.Set("path", raw)
	_ = e.Set("filename", raw)
	return e
}

// fsGlob is fs.globSync's matcher: the paths under cwd that pattern
// matches, relative to cwd (or absolute for an absolute pattern).
func (r *Runtime) fsGlob(cwd, pattern string) []string {
	if filepath.IsAbs(pattern) {
		base, pat := doublestar.SplitPattern(filepath.ToSlash(pattern))
		m, err := doublestar.Glob(os.DirFS(base), pat)
		if err != nil {
			panic(r.vm.NewGoError(err))
		}
		for i := range m {
			m[i] = filepath.Join(base, m[i])
		}
		return m
	}
	m, err := doublestar.Glob(os.DirFS(cwd), filepath.ToSlash(pattern))
	if err != nil {
		panic(r.vm.NewGoError(err))
	}
	for i := range m {
		m[i] = filepath.FromSlash(m[i])
	}
	return m
}
