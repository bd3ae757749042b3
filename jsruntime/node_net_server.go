package jsruntime

import (
	"net"
	"strconv"
	"sync"

	"github.com/dop251/goja"
)

// netServer is one listening socket; its accept loop posts connections.
type netServer struct {
	r     *Runtime
	owner string
	on    goja.Callable
	hold  func(func(*goja.Runtime))
	gone  bool

	mu     sync.Mutex
	ln     net.Listener
	closed bool
}

func (v *netServer) setRef(on bool) {
	if v.gone || (v.hold != nil) == on {
		return
	}
	if on {
		v.hold = v.r.loop.Reserve()
		return
	}
	v.hold(func(*goja.Runtime) {})
	v.hold = nil
}

func (v *netServer) post(fn func(vm *goja.Runtime) []goja.Value, last bool) {
	v.r.loop.enqueue(task{owner: v.owner, event: "net", fn: func(vm *goja.Runtime) {
		if last {
			v.setRef(false)
			v.gone = true
		}
		args := fn(vm)
		if _, err := guard(func() (goja.Value, error) { return v.on(goja.Undefined(), args...) }); err != nil {
			panic(err)
		}
	}})
}

// netListen listens on opts (port and host, or path) and returns the
// server handle (close, ref, unref); on receives ("listening", address),
// ("connection", socket handle, addrs), ("error", err) and ("close").
func (r *Runtime) netListen(optsV goja.Value, on goja.Callable) goja.Value {
	o := optsV.ToObject(r.vm)
	get := func(k string) string {
		if x := o.Get(k); x != nil && !goja.IsUndefined(x) && !goja.IsNull(x) {
			return x.String()
		}
		return ""
	}
	path, host := get("path"), get("host")
	port := 0
	if x := o.Get("port"); x != nil && !goja.IsUndefined(x) {
		port = int(x.ToInteger())
	}
	v := &netServer{r: r, owner: r.loop.owner, on: on}
	v.setRef(true)
	go func() {
		var ln net.Listener
		var err error
		if path != "" {
			ln, err = net.Listen("unix", path)
		} else {
			ln, err = net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
		}
		if err != nil {
			addr, p := path, -1
			if path == "" {
				addr, p = host, port
				if addr == "" {
					addr = "::"
				}
			}
			e := netErrOf(err, "listen", addr, p)
			v.post(func(vm *goja.Runtime) []goja.Value { return []goja.Value{vm.ToValue("error"), e.value(vm)} }, true)
			return
		}
		v.mu.Lock()
		if v.closed {
			v.mu.Unlock()
			_ = ln.Close()
			v.post(func(vm *goja.Runtime) []goja.Value { return []goja.Value{vm.ToValue("close")} }, true)
			return
		}
		v.ln = ln
		v.mu.Unlock()
		// The listener goes when the runtime does (see newSock).
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			select {
			case <-r.loop.done:
				_ = ln.Close()
			case <-stop:
			}
		}()
		v.post(func(vm *goja.Runtime) []goja.Value {
			a := vm.NewObject()
			addr, p, fam := addrInfo(ln.Addr())
			if fam == "" {
				return []goja.Value{vm.ToValue("listening"), vm.ToValue(addr)}
			}
			_ = a.Set("address", addr)
			_ = a.Set("family", fam)
			_ = a.Set("port", p)
			return []goja.Value{vm.ToValue("listening"), a}
		}, false)
		for {
			c, err := ln.Accept()
			if err != nil {
				break
			}
			v.post(func(vm *goja.Runtime) []goja.Value {
				// The task runs as the server's owner, so the socket is
				// the same extension's.
				s := newSock(r)
				s.attach(c)
				return []goja.Value{vm.ToValue("connection"), s.handle(vm), sockAddrs(vm, c)}
			}, false)
		}
		v.post(func(vm *goja.Runtime) []goja.Value { return []goja.Value{vm.ToValue("close")} }, true)
	}()
	h := r.vm.NewObject()
	_ = h.Set("close", func() {
		v.mu.Lock()
		v.closed = true
		if v.ln != nil {
			_ = v.ln.Close()
		}
		v.mu.Unlock()
	})
	_ = h.Set("ref", func() { v.setRef(true) })
	_ = h.Set("unref", func() { v.setRef(false) })
	return h
}
