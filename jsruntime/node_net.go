package jsruntime

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// netErr describes a failed socket call the way Node's error objects do;
// hostjs/net.js turns it into the Error (message wording included), so the
// Go side only classifies.
type netErr struct {
	code     string
	errno    int
	syscall  string
	address  string
	port     int // -1 when the address is a path; 0 when there is none
	hostname string
	desc     string
	msg      string // a message of our own for errors Node has no errno for
}

func (e *netErr) value(vm *goja.Runtime) goja.Value {
	o := vm.NewObject()
	_ = o.Set("code", e.code)
	if e.errno != 0 {
		_ = o.Set("errno", e.errno)
	}
	_ = o.Set("syscall", e.syscall)
	if e.address != "" {
		_ = o.Set("address", e.address)
		_ = o.Set("port", e.port)
	}
	if e.hostname != "" {
		_ = o.Set("hostname", e.hostname)
	}
	_ = o.Set("desc", e.desc)
	if e.msg != "" {
		_ = o.Set("message", e.msg)
	}
	return o
}

// netErrno gives libuv's name and description of the errors sockets
// report (the descriptions appear in Node's listen messages). A switch,
// not a map, so that nothing is built at start.
func netErrno(e syscall.Errno) (code, desc string, ok bool) {
	switch e {
	case syscall.ECONNREFUSED:
		return "ECONNREFUSED", "connection refused", true
	case syscall.ECONNRESET:
		return "ECONNRESET", "connection reset by peer", true
	case syscall.ECONNABORTED:
		return "ECONNABORTED", "software caused connection abort", true
	case syscall.EADDRINUSE:
		return "EADDRINUSE", "address already in use", true
	case syscall.EADDRNOTAVAIL:
		return "EADDRNOTAVAIL", "address not available", true
	case syscall.EPIPE:
		return "EPIPE", "broken pipe", true
	case syscall.ETIMEDOUT:
		return "ETIMEDOUT", "connection timed out", true
	case syscall.EHOSTUNREACH:
		return "EHOSTUNREACH", "host is unreachable", true
	case syscall.ENETUNREACH:
		return "ENETUNREACH", "network is unreachable", true
	case syscall.ENOENT:
		return "ENOENT", "no such file or directory", true
	case syscall.EACCES:
		return "EACCES", "permission denied", true
	case syscall.EPERM:
		return "EPERM", "operation not permitted", true
	case syscall.EINVAL:
		return "EINVAL", "invalid argument", true
	case syscall.ENOTSOCK:
		return "ENOTSOCK", "socket operation on non-socket", true
	case syscall.ENAMETOOLONG:
		return "ENAMETOOLONG", "name too long", true
	case syscall.ENOTDIR:
		return "ENOTDIR", "not a directory", true
	case syscall.EAFNOSUPPORT:
		return "EAFNOSUPPORT", "address family not supported", true
	}
	return "", "", false
}

// netErrOf classifies a Go socket error. address and port name the peer
// (or the listening address) as Node puts them on the error.
func netErrOf(err error, sys, address string, port int) *netErr {
	e := &netErr{syscall: sys, address: address, port: port}
	var dnsErr *net.DNSError
	var errno syscall.Errno
	switch {
	case errors.As(err, &dnsErr):
		return dnsLookupErr(dnsErr, dnsErr.Name)
	case errors.As(err, &errno):
		if code, desc, ok := netErrno(errno); ok {
			e.code, e.desc = code, desc
		} else {
			e.code, e.desc = "E"+strconv.Itoa(int(errno)), errno.Error()
		}
		e.errno = -int(errno)
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		e.code, e.desc, e.errno = "ETIMEDOUT", "connection timed out", -int(syscall.ETIMEDOUT)
	case errors.Is(err, io.ErrUnexpectedEOF):
		e.code, e.desc, e.errno = "ECONNRESET", "connection reset by peer", -int(syscall.ECONNRESET)
	default:
		e.code, e.msg = "ERR_SOCKET", err.Error()
	}
	return e
}

// dnsLookupErr is getaddrinfo's failure as Node reports it (libuv's EAI
// codes as negative errnos).
func dnsLookupErr(d *net.DNSError, host string) *netErr {
	e := &netErr{syscall: "getaddrinfo", hostname: host}
	switch {
	case d.IsNotFound:
		e.code, e.errno = "ENOTFOUND", -3008
	case d.IsTimeout:
		e.code, e.errno = "EAI_AGAIN", -3001
	default:
		e.code, e.errno = "EAI_FAIL", -3007
	}
	return e
}

// netSock is one connected socket (client, accepted or TLS). Two
// goroutines own the connection, a reader and a writer; everything they
// learn reaches JS through post, on the loop. The loop-side fields are
// touched only on the loop goroutine.
type netSock struct {
	r     *Runtime
	owner string

	// Loop only.
	on   goja.Callable
	hold func(func(*goja.Runtime)) // the loop reservation while ref'd
	gone bool                      // the close event has been delivered
	refd bool

	mu        sync.Mutex
	cond      *sync.Cond
	conn      net.Conn
	cancel    context.CancelFunc // aborts a dial or handshake in progress
	wq        []sockWrite
	writing   bool // the writer goroutine holds a write in progress
	readDone  bool
	writeDone bool
	closed    bool
	started   bool
	noDelay   *bool
	keepAlive *time.Duration // 0 disables; nil leaves Go's default
	closeOnce sync.Once
	gonech    chan struct{} // closed by finish
}

type sockWrite struct {
	b   []byte
	end bool
}

func newSock(r *Runtime) *netSock {
	s := &netSock{r: r, owner: r.loop.owner, gonech: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	s.setRef(true)
	// A runtime that closes (pi exits, extensions reload) takes its
	// sockets with it: nobody is left to read them.
	go func() {
		select {
		case <-r.loop.done:
			s.finish(nil)
		case <-s.gonech:
		}
	}()
	return s
}

// setRef holds or releases the loop reservation (Node's ref/unref): a
// ref'd socket keeps the loop busy until it closes.
func (s *netSock) setRef(on bool) {
	if s.gone || s.refd == on {
		return
	}
	s.refd = on
	if on {
		s.hold = s.r.loop.Reserve()
		return
	}
	s.hold(func(*goja.Runtime) {})
	s.hold = nil
}

// post runs fn on the loop with the socket's event callback, from any
// goroutine; a throw in the callback is reported as the extension's.
func (s *netSock) post(fn func(vm *goja.Runtime, on goja.Callable) error) {
	s.r.loop.enqueue(task{owner: s.owner, event: "net", fn: func(vm *goja.Runtime) {
		if s.on == nil {
			return
		}
		if err := fn(vm, s.on); err != nil {
			panic(err)
		}
	}})
}

// emit posts on(name, args...); []byte arguments become Buffers.
func (s *netSock) emit(name string, args ...any) {
	s.post(func(vm *goja.Runtime, on goja.Callable) error {
		vals := []goja.Value{vm.ToValue(name)}
		for _, a := range args {
			switch x := a.(type) {
			case []byte:
				vals = append(vals, buffer.WrapBytes(vm, x))
			case *netErr:
				if x == nil {
					vals = append(vals, goja.Null())
				} else {
					vals = append(vals, x.value(vm))
				}
			case func(*goja.Runtime) goja.Value:
				vals = append(vals, x(vm))
			default:
				vals = append(vals, vm.ToValue(a))
			}
		}
		_, err := guard(func() (goja.Value, error) { return on(goja.Undefined(), vals...) })
		return err
	})
}

func (s *netSock) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// finish closes the socket once and delivers ("close", err|null), after
// which the loop reservation is released.
func (s *netSock) finish(e *netErr) {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		if s.conn != nil {
			_ = s.conn.Close()
		}
		if s.cancel != nil {
			s.cancel()
		}
		s.cond.Broadcast()
		s.mu.Unlock()
		close(s.gonech)
		s.r.loop.enqueue(task{owner: s.owner, event: "net", fn: func(vm *goja.Runtime) {
			s.setRef(false)
			s.gone = true
			if s.on == nil {
				return
			}
			var ev goja.Value = goja.Null()
			if e != nil {
				ev = e.value(vm)
			}
			if _, err := guard(func() (goja.Value, error) { return s.on(goja.Undefined(), vm.ToValue("close"), ev) }); err != nil {
				panic(err)
			}
		}})
	})
}

// attach makes conn the socket's connection and applies the options set
// while it was connecting. It reports false when the socket was destroyed
// meanwhile (conn is then closed).
func (s *netSock) attach(conn net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_ = conn.Close()
		return false
	}
	s.conn = conn
	s.applyOpts()
	return true
}

// applyOpts runs with mu held.
func (s *netSock) applyOpts() {
	tc, ok := s.conn.(*net.TCPConn)
	if !ok {
		if t, isTLS := s.conn.(*tls.Conn); isTLS {
			tc, ok = t.NetConn().(*net.TCPConn)
		}
	}
	if !ok {
		return
	}
	if s.noDelay != nil {
		_ = tc.SetNoDelay(*s.noDelay)
	}
	if s.keepAlive != nil {
		_ = tc.SetKeepAlive(*s.keepAlive > 0)
		if *s.keepAlive > 0 {
			_ = tc.SetKeepAlivePeriod(*s.keepAlive)
		}
	}
}

// run starts the reader and the writer once the connection is attached
// and JS listens (start).
func (s *netSock) run() {
	s.mu.Lock()
	if s.started || s.conn == nil || s.closed {
		s.mu.Unlock()
		return
	}
	s.started = true
	s.mu.Unlock()
	go s.read()
	go s.write()
}

func (s *netSock) read() {
	buf := make([]byte, 64<<10)
	for {
		n, err := s.conn.Read(buf)
		if n > 0 {
			s.emit("data", append([]byte(nil), buf[:n]...))
		}
		if err == nil {
			continue
		}
		if s.isClosed() {
			return
		}
		if errors.Is(err, io.EOF) {
			s.emit("end")
			s.mu.Lock()
			s.readDone = true
			both := s.writeDone
			s.mu.Unlock()
			if both {
				s.finish(nil)
			}
			return
		}
		s.finish(netErrOf(err, "read", "", 0))
		return
	}
}

func (s *netSock) write() {
	for {
		s.mu.Lock()
		for len(s.wq) == 0 && !s.closed {
			s.cond.Wait()
		}
		if s.closed {
			s.mu.Unlock()
			return
		}
		w := s.wq[0]
		s.wq[0] = sockWrite{}
		s.wq = s.wq[1:]
		s.writing = true
		s.mu.Unlock()
		if w.end {
			var err error
			if cw, ok := s.conn.(interface{ CloseWrite() error }); ok {
				err = cw.CloseWrite()
			}
			s.emit("finish")
			s.mu.Lock()
			s.writeDone = true
			both := s.readDone
			s.mu.Unlock()
			if both || err != nil {
				s.finish(nil)
			}
			return
		}
		_, err := s.conn.Write(w.b)
		s.mu.Lock()
		s.writing = false
		s.mu.Unlock()
		if err != nil {
			if s.isClosed() {
				return
			}
			e := netErrOf(err, "write", "", 0)
			s.emit("written", e)
			s.finish(e)
			return
		}
		s.emit("written", (*netErr)(nil))
	}
}

// handle is the JS face of the socket: write(bytes), end(), destroy(),
// setNoDelay(b), setKeepAlive(b, ms), ref(), unref(), start(onEvent).
func (s *netSock) handle(vm *goja.Runtime) *goja.Object {
	h := vm.NewObject()
	// write reports true when the bytes went to the kernel at once (as
	// libuv's try-write does): JS then calls the write callback on the
	// next tick, before any reply can arrive, as Node does. Otherwise the
	// writer goroutine sends them and posts ("written", err).
	_ = h.Set("write", func(v goja.Value) bool {
		b := bytesOf(vm, v)
		s.mu.Lock()
		defer s.mu.Unlock()
		if len(s.wq) == 0 && !s.writing && !s.closed && s.conn != nil {
			n := tryWrite(s.conn, b)
			if n == len(b) {
				return true
			}
			b = b[n:]
		}
		s.wq = append(s.wq, sockWrite{b: append([]byte{}, b...)})
		s.cond.Signal()
		return false
	})
	_ = h.Set("end", func() {
		s.mu.Lock()
		s.wq = append(s.wq, sockWrite{end: true})
		s.cond.Signal()
		s.mu.Unlock()
	})
	_ = h.Set("destroy", func() { s.finish(nil) })
	_ = h.Set("setNoDelay", func(on bool) {
		s.mu.Lock()
		s.noDelay = &on
		if s.conn != nil {
			s.applyOpts()
		}
		s.mu.Unlock()
	})
	_ = h.Set("setKeepAlive", func(on bool, ms int64) {
		d := time.Duration(0)
		if on {
			d = time.Duration(max(ms, 1000)) * time.Millisecond
		}
		s.mu.Lock()
		s.keepAlive = &d
		if s.conn != nil {
			s.applyOpts()
		}
		s.mu.Unlock()
	})
	_ = h.Set("ref", func() { s.setRef(true) })
	_ = h.Set("unref", func() { s.setRef(false) })
	_ = h.Set("start", func(on goja.Callable) {
		s.on = on
		s.run()
	})
	return h
}

// tryWrite makes one non-blocking write attempt on a plain TCP or Unix
// connection and returns how much went out (0 for TLS, whose records the
// writer goroutine must produce, and on any error, which the writer then
// meets and reports).
func tryWrite(c net.Conn, b []byte) int {
	sc, ok := c.(syscall.Conn)
	if !ok || len(b) == 0 {
		return 0
	}
	if _, isTLS := c.(*tls.Conn); isTLS {
		return 0
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0
	}
	total := 0
	_ = rc.Write(func(fd uintptr) bool {
		for total < len(b) {
			n, err := writeFD(fd, b[total:])
			if n <= 0 || err != nil {
				break
			}
			total += n
		}
		return true
	})
	return total
}

// addrInfo splits a net.Addr into Node's (address, port, family).
func addrInfo(a net.Addr) (string, int, string) {
	switch x := a.(type) {
	case *net.TCPAddr:
		fam := "IPv6"
		ip := x.IP
		if v4 := ip.To4(); v4 != nil {
			fam, ip = "IPv4", v4
		}
		return ip.String(), x.Port, fam
	case *net.UnixAddr:
		return x.Name, -1, ""
	}
	return "", 0, ""
}

// sockAddrs is the object of local and remote addresses JS copies onto
// the Socket.
func sockAddrs(vm *goja.Runtime, c net.Conn) goja.Value {
	o := vm.NewObject()
	la, lp, lf := addrInfo(c.LocalAddr())
	ra, rp, rf := addrInfo(c.RemoteAddr())
	if lf != "" {
		_ = o.Set("localAddress", la)
		_ = o.Set("localPort", lp)
		_ = o.Set("localFamily", lf)
	} else {
		_ = o.Set("localPath", la)
	}
	if rf != "" {
		_ = o.Set("remoteAddress", ra)
		_ = o.Set("remotePort", rp)
		_ = o.Set("remoteFamily", rf)
	}
	return o
}

// dialOpts are connect's options as the Go side uses them.
type dialOpts struct {
	path    string
	host    string
	port    int
	family  int
	timeout time.Duration
	tls     *tlsOpts
}

func (r *Runtime) parseDialOpts(o *goja.Object) dialOpts {
	d := dialOpts{host: "localhost"}
	str := func(k string) string {
		if v := o.Get(k); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
			return v.String()
		}
		return ""
	}
	d.path = str("path")
	if h := str("host"); h != "" {
		d.host = h
	}
	if v := o.Get("port"); v != nil && !goja.IsUndefined(v) {
		d.port = int(v.ToInteger())
	}
	if v := o.Get("family"); v != nil && !goja.IsUndefined(v) {
		d.family = int(v.ToInteger())
	}
	return d
}

// netConnect starts a connection (TCP host/port or Unix path) and returns
// its handle; on receives ("lookup", err, address, family, host),
// ("connect", addrs), ("data", Buffer), ("end"), ("written", err),
// ("finish") and finally ("close", err|null).
func (r *Runtime) netConnect(optsV goja.Value, on goja.Callable) goja.Value {
	opts := r.parseDialOpts(optsV.ToObject(r.vm))
	return r.dialSock(opts, on)
}

func (r *Runtime) dialSock(opts dialOpts, on goja.Callable) goja.Value {
	s := newSock(r)
	s.on = on
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go func() {
		conn, e := s.dial(ctx, opts)
		if e != nil {
			s.finish(e)
			return
		}
		if opts.tls != nil {
			tc, info, e := tlsHandshake(ctx, conn, opts)
			if e != nil {
				_ = conn.Close()
				s.finish(e)
				return
			}
			conn = tc
			if !s.attach(conn) {
				return
			}
			s.emit("connect", func(vm *goja.Runtime) goja.Value { return sockAddrs(vm, conn) })
			s.emit("secure", func(vm *goja.Runtime) goja.Value { return info.value(vm) })
		} else {
			if !s.attach(conn) {
				return
			}
			s.emit("connect", func(vm *goja.Runtime) goja.Value { return sockAddrs(vm, conn) })
		}
		s.run()
	}()
	return s.handle(r.vm)
}

// dial resolves the host (reporting "lookup" as Node does for a name)
// and tries its addresses in order.
func (s *netSock) dial(ctx context.Context, o dialOpts) (net.Conn, *netErr) {
	var d net.Dialer
	if o.path != "" {
		c, err := d.DialContext(ctx, "unix", o.path)
		if err != nil {
			return nil, netErrOf(err, "connect", o.path, -1)
		}
		return c, nil
	}
	ips := []net.IP{net.ParseIP(o.host)}
	if ips[0] == nil {
		network := "ip"
		if o.family == 4 {
			network = "ip4"
		} else if o.family == 6 {
			network = "ip6"
		}
		found, err := net.DefaultResolver.LookupIP(ctx, network, o.host)
		if err != nil || len(found) == 0 {
			e := &netErr{syscall: "getaddrinfo", hostname: o.host, code: "ENOTFOUND", errno: -3008}
			var dnsErr *net.DNSError
			if errors.As(err, &dnsErr) {
				e = dnsLookupErr(dnsErr, o.host)
			}
			s.emit("lookup", e, nil, nil, o.host)
			return nil, e
		}
		ips = found
		fam := 6
		if ips[0].To4() != nil {
			fam = 4
		}
		s.emit("lookup", (*netErr)(nil), ips[0].String(), fam, o.host)
	}
	var last *netErr
	for _, ip := range ips {
		if o.timeout > 0 {
			d.Timeout = o.timeout
		}
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(ip.String(), strconv.Itoa(o.port)))
		if err == nil {
			return c, nil
		}
		addr := ip.String()
		if v4 := ip.To4(); v4 != nil {
			addr = v4.String()
		}
		last = netErrOf(err, "connect", addr, o.port)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, last
}

func loadNet(r *Runtime) (goja.Value, error) {
	prim := r.vm.NewObject()
	_ = prim.Set("connect", r.netConnect)
	_ = prim.Set("listen", r.netListen)
	src, err := hostSource("net")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:net", wrapModule, src, prim)
}
