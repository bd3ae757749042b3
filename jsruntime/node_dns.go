package jsruntime

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dop251/goja"
)

// dns.lookup goes through Go's resolver (hosts file, then DNS, as
// getaddrinfo does). The dns.resolve* family, like Node's c-ares, sends
// one question to the configured servers without the hosts file or the
// search list; that needs the answer's rcode and TTLs, which Go's
// resolver does not expose, so those queries are built here (see
// node_dns_wire.go).

// jsField is one key of an object built in order (Node's key order is
// what JSON.stringify of a result shows).
type jsField struct {
	k string
	v any
}

type jsObj []jsField

func toJS(vm *goja.Runtime, v any) goja.Value {
	switch x := v.(type) {
	case jsObj:
		o := vm.NewObject()
		for _, f := range x {
			_ = o.Set(f.k, toJS(vm, f.v))
		}
		return o
	case []any:
		vals := make([]any, len(x))
		for i, e := range x {
			vals[i] = toJS(vm, e)
		}
		return vm.NewArray(vals...)
	case []byte:
		return vm.ToValue(vm.NewArrayBuffer(append([]byte(nil), x...)))
	}
	return vm.ToValue(v)
}

// dnsLookup resolves host for dns.lookup; cb(err, [[address, family]…]).
func (r *Runtime) dnsLookup(host string, family int, cb goja.Callable) {
	done := r.loop.Reserve()
	go func() {
		network := "ip"
		if family == 4 {
			network = "ip4"
		} else if family == 6 {
			network = "ip6"
		}
		ips, err := net.DefaultResolver.LookupIP(context.Background(), network, host)
		done(func(vm *goja.Runtime) {
			if err != nil || len(ips) == 0 {
				e := &netErr{syscall: "getaddrinfo", hostname: host, code: "ENOTFOUND", errno: -3008}
				var d *net.DNSError
				if errors.As(err, &d) {
					e = dnsLookupErr(d, host)
				}
				if _, err := cb(goja.Undefined(), e.value(vm)); err != nil {
					panic(err)
				}
				return
			}
			out := make([]any, len(ips))
			for i, ip := range ips {
				if v4 := ip.To4(); v4 != nil {
					out[i] = []any{v4.String(), 4}
				} else {
					out[i] = []any{ip.String(), 6}
				}
			}
			if _, err := cb(goja.Undefined(), goja.Null(), toJS(vm, out)); err != nil {
				panic(err)
			}
		})
	}()
}

// dnsServers reads the system's name servers (resolv.conf), Node's
// default for dns.getServers().
func dnsServers() []string {
	b, err := os.ReadFile("/etc/resolv.conf")
	var out []string
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[0] == "nameserver" && net.ParseIP(strings.SplitN(f[1], "%", 2)[0]) != nil {
				out = append(out, f[1])
			}
		}
	}
	if len(out) == 0 {
		out = []string{"127.0.0.1"}
	}
	return out
}

// dnsQueryErr is a failed query in c-ares's terms (no errno, as Node).
type dnsQueryErr struct{ code string }

func (e *dnsQueryErr) Error() string { return e.code }

// dnsExchange asks the servers (host:port) one question, trying each in
// turn, tries times, over UDP and again over TCP when the answer was
// truncated.
func dnsExchange(ctx context.Context, servers []string, name string, qt uint16, timeout time.Duration, tries int) (*dnsMsg, error) {
	var idb [2]byte
	_, _ = rand.Read(idb[:])
	id := binary.BigEndian.Uint16(idb[:])
	packed, err := packQuery(id, name, qt)
	if err != nil {
		return nil, &dnsQueryErr{"EBADNAME"}
	}
	var last error = &dnsQueryErr{"ECONNREFUSED"}
	for range max(tries, 1) {
		for _, srv := range servers {
			if ctx.Err() != nil {
				return nil, &dnsQueryErr{"ECANCELLED"}
			}
			m, err := dnsAsk(ctx, "udp", srv, packed, id, timeout)
			if err == nil && m.truncated {
				m, err = dnsAsk(ctx, "tcp", srv, packed, id, timeout)
			}
			if err == nil {
				return m, nil
			}
			last = err
		}
	}
	if ctx.Err() != nil {
		return nil, &dnsQueryErr{"ECANCELLED"}
	}
	return nil, last
}

func dnsAsk(ctx context.Context, network, srv string, packed []byte, id uint16, timeout time.Duration) (*dnsMsg, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, network, srv)
	if err != nil {
		return nil, classifyDNSNet(err)
	}
	defer func() { _ = c.Close() }()
	if dl, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	var buf []byte
	if network == "tcp" {
		msg := make([]byte, 2+len(packed))
		binary.BigEndian.PutUint16(msg, uint16(len(packed)))
		copy(msg[2:], packed)
		if _, err := c.Write(msg); err != nil {
			return nil, classifyDNSNet(err)
		}
		var lb [2]byte
		if _, err := io.ReadFull(c, lb[:]); err != nil {
			return nil, classifyDNSNet(err)
		}
		buf = make([]byte, binary.BigEndian.Uint16(lb[:]))
		if _, err := io.ReadFull(c, buf); err != nil {
			return nil, classifyDNSNet(err)
		}
	} else {
		if _, err := c.Write(packed); err != nil {
			return nil, classifyDNSNet(err)
		}
		buf = make([]byte, 65535)
		for {
			n, err := c.Read(buf)
			if err != nil {
				return nil, classifyDNSNet(err)
			}
			if n >= 2 && binary.BigEndian.Uint16(buf[:2]) == id {
				buf = buf[:n]
				break
			}
		}
	}
	m, err := parseMsg(buf)
	if err != nil || m.id != id || !m.response {
		return nil, &dnsQueryErr{"EBADRESP"}
	}
	return m, nil
}

func classifyDNSNet(err error) error {
	var ne net.Error
	if errors.Is(err, syscall.ECONNREFUSED) {
		return &dnsQueryErr{"ECONNREFUSED"}
	}
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
		return &dnsQueryErr{"ETIMEOUT"}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &dnsQueryErr{"EOF"}
	}
	return &dnsQueryErr{"ECONNREFUSED"}
}

// charString reads one length-prefixed string of RDATA (TXT's chunks,
// NAPTR's fields).
func charString(b []byte) (string, []byte, bool) {
	if len(b) < 1 || len(b) < 1+int(b[0]) {
		return "", nil, false
	}
	return string(b[1 : 1+b[0]]), b[1+b[0]:], true
}

// dnsRecord turns one answer into Node's shape; withType adds
// resolveAny's type key (last, after the record's own fields), ttl the
// TTL where Node reports it. ok is false for a record of another type or
// one that does not parse.
func dnsRecord(rr dnsRR, want uint16, withType, ttl bool) (any, bool) {
	if want != dnsANY && rr.typ != want {
		return nil, false
	}
	rec, ok := dnsFields(rr, withType || ttl)
	if !ok {
		return nil, false
	}
	if withType {
		obj, isObj := rec.(jsObj)
		if !isObj {
			key := "value"
			if rr.typ == dnsTXT {
				key = "entries"
			}
			obj = jsObj{{key, rec}}
		}
		return append(obj, jsField{"type", dnsTypeName(rr.typ)}), true
	}
	return rec, true
}

func dnsFields(rr dnsRR, addrObj bool) (any, bool) {
	d := rr.data
	u16 := func(i int) int { return int(binary.BigEndian.Uint16(d[i:])) }
	switch rr.typ {
	case dnsA, dnsAAAA:
		if (rr.typ == dnsA && len(d) != 4) || (rr.typ == dnsAAAA && len(d) != 16) {
			return nil, false
		}
		ip := net.IP(append([]byte(nil), d...)).String()
		if addrObj {
			return jsObj{{"address", ip}, {"ttl", rr.ttl}}, true
		}
		return ip, true
	case dnsCNAME, dnsNS, dnsPTR:
		n, _, err := rr.name(0)
		return n, err == nil
	case dnsMX:
		if len(d) < 3 {
			return nil, false
		}
		n, _, err := rr.name(2)
		return jsObj{{"exchange", n}, {"priority", u16(0)}}, err == nil
	case dnsSRV:
		if len(d) < 7 {
			return nil, false
		}
		n, _, err := rr.name(6)
		return jsObj{{"name", n}, {"port", u16(4)}, {"priority", u16(0)}, {"weight", u16(2)}}, err == nil
	case dnsTXT:
		var chunks []any
		for rest := d; len(rest) > 0; {
			s, next, ok := charString(rest)
			if !ok {
				return nil, false
			}
			chunks = append(chunks, s)
			rest = next
		}
		return chunks, true
	case dnsSOA:
		ns, next, err := rr.name(0)
		if err != nil {
			return nil, false
		}
		mbox, next, err := rr.name(next)
		if err != nil || len(d) < next+20 {
			return nil, false
		}
		u32 := func(i int) uint32 { return binary.BigEndian.Uint32(d[next+i:]) }
		return jsObj{{"nsname", ns}, {"hostmaster", mbox}, {"serial", u32(0)}, {"refresh", u32(4)}, {"retry", u32(8)}, {"expire", u32(12)}, {"minttl", u32(16)}}, true
	case dnsCAA: // flags, tag length, tag, value
		if len(d) < 2 || len(d) < 2+int(d[1]) {
			return nil, false
		}
		return jsObj{{"critical", int(d[0])}, {string(d[2 : 2+d[1]]), string(d[2+d[1]:])}}, true
	case dnsNAPTR:
		if len(d) < 4 {
			return nil, false
		}
		flags, rest, ok1 := charString(d[4:])
		service, rest, ok2 := charString(rest)
		regexp, rest, ok3 := charString(rest)
		if !ok1 || !ok2 || !ok3 {
			return nil, false
		}
		repl, _, err := rr.name(len(d) - len(rest))
		return jsObj{{"flags", flags}, {"service", service}, {"regexp", regexp}, {"replacement", repl}, {"order", u16(0)}, {"preference", u16(2)}}, err == nil
	case dnsTLSA:
		if len(d) < 3 {
			return nil, false
		}
		return jsObj{{"certUsage", int(d[0])}, {"selector", int(d[1])}, {"match", int(d[2])}, {"data", append([]byte(nil), d[3:]...)}}, true
	}
	return nil, false
}

// dnsResolver is one Resolver's servers and the queries in flight, which
// cancel() fails with ECANCELLED.
type dnsResolver struct {
	mu      sync.Mutex
	servers []string
	timeout time.Duration
	tries   int
	ctx     context.Context
	cancel  context.CancelFunc
}

func newDNSResolver(timeoutMs int64, tries int) *dnsResolver {
	d := &dnsResolver{timeout: 2 * time.Second, tries: 4}
	if timeoutMs > 0 {
		d.timeout = time.Duration(timeoutMs) * time.Millisecond
	}
	if tries > 0 {
		d.tries = tries
	}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	return d
}

func (d *dnsResolver) addrs() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	list := d.servers
	if list == nil {
		list = dnsServers()
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = serverAddr(s)
	}
	return out
}

// serverAddr gives host:port for a server as setServers accepts it
// ("1.2.3.4", "1.2.3.4:53", "::1", "[::1]:53").
func serverAddr(s string) string {
	if host, port, err := net.SplitHostPort(s); err == nil {
		return net.JoinHostPort(host, port)
	}
	return net.JoinHostPort(strings.Trim(s, "[]"), "53")
}

// handle is the Resolver's primitive: query(name, rrtype, ttl, cb),
// reverse(ip, cb), setServers([...]), getServers(), cancel().
func (r *Runtime) dnsHandle(timeoutMs int64, tries int) goja.Value {
	vm := r.vm
	d := newDNSResolver(timeoutMs, tries)
	h := vm.NewObject()
	_ = h.Set("query", func(name, rrtype string, ttl bool, cb goja.Callable) {
		qt, _ := dnsTypeOf(rrtype)
		ctx := d.currentCtx()
		done := r.loop.Reserve()
		go func() {
			m, err := dnsExchange(ctx, d.addrs(), name, qt, d.timeout, d.tries)
			done(func(vm *goja.Runtime) { dnsAnswer(vm, cb, m, err, qt, rrtype == "ANY", ttl) })
		}()
	})
	_ = h.Set("getServers", func() goja.Value {
		d.mu.Lock()
		list := d.servers
		d.mu.Unlock()
		if list == nil {
			list = dnsServers()
		}
		return stringArray(vm, list)
	})
	_ = h.Set("setServers", func(list []string) {
		d.mu.Lock()
		d.servers = append([]string{}, list...)
		d.mu.Unlock()
	})
	_ = h.Set("cancel", func() {
		d.mu.Lock()
		d.cancel()
		d.ctx, d.cancel = context.WithCancel(context.Background())
		d.mu.Unlock()
	})
	return h
}

func (d *dnsResolver) currentCtx() context.Context {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ctx
}

// dnsAnswer calls cb(code|null, records) on the loop.
func dnsAnswer(vm *goja.Runtime, cb goja.Callable, m *dnsMsg, err error, qt uint16, isAny, ttl bool) {
	fail := func(code string) {
		if _, err := cb(goja.Undefined(), vm.ToValue(code)); err != nil {
			panic(err)
		}
	}
	if err != nil {
		var q *dnsQueryErr
		if errors.As(err, &q) {
			fail(q.code)
		} else {
			fail("EBADRESP")
		}
		return
	}
	switch m.rcode {
	case 0:
	case 3:
		fail("ENOTFOUND")
		return
	case 2:
		fail("ESERVFAIL")
		return
	case 5:
		fail("EREFUSED")
		return
	case 1:
		fail("EFORMERR")
		return
	case 4:
		fail("ENOTIMP")
		return
	default:
		fail("EBADRESP")
		return
	}
	var out []any
	answers := m.answers
	if isAny {
		answers = append([]dnsRR(nil), answers...)
		sort.SliceStable(answers, func(i, j int) bool { return dnsAnyRank(answers[i].typ) < dnsAnyRank(answers[j].typ) })
	}
	for _, rr := range answers {
		if rec, ok := dnsRecord(rr, qt, isAny, ttl); ok {
			out = append(out, rec)
		}
	}
	if len(out) == 0 {
		fail("ENODATA")
		return
	}
	var res goja.Value
	if qt == dnsSOA {
		res = toJS(vm, out[0])
	} else {
		res = toJS(vm, out)
	}
	if _, err := cb(goja.Undefined(), goja.Null(), res); err != nil {
		panic(err)
	}
}

// reverseName is the PTR name of an address (in-addr.arpa / ip6.arpa).
func reverseName(s string) (string, error) {
	ip := net.ParseIP(s)
	if ip == nil {
		return "", fmt.Errorf("invalid address %q", s)
	}
	if v4 := ip.To4(); v4 != nil {
		return fmt.Sprintf("%d.%d.%d.%d.in-addr.arpa", v4[3], v4[2], v4[1], v4[0]), nil
	}
	var b strings.Builder
	for i := len(ip) - 1; i >= 0; i-- {
		b.WriteString(strconv.FormatInt(int64(ip[i]&0xf), 16) + "." + strconv.FormatInt(int64(ip[i]>>4), 16) + ".")
	}
	b.WriteString("ip6.arpa")
	return b.String(), nil
}

// lookupService is dns.lookupService: the address's name (reverse
// lookup through Go's resolver) and the port's service name from the
// services file; cb(err, hostname, service).
func (r *Runtime) lookupService(addr string, port int, cb goja.Callable) {
	done := r.loop.Reserve()
	go func() {
		names, err := net.DefaultResolver.LookupAddr(context.Background(), addr)
		svc := serviceName(port)
		done(func(vm *goja.Runtime) {
			if err != nil || len(names) == 0 {
				e := &netErr{syscall: "getnameinfo", code: "ENOTFOUND", errno: -3008, hostname: addr}
				if _, err := cb(goja.Undefined(), e.value(vm)); err != nil {
					panic(err)
				}
				return
			}
			if _, err := cb(goja.Undefined(), goja.Null(), vm.ToValue(strings.TrimSuffix(names[0], ".")), vm.ToValue(svc)); err != nil {
				panic(err)
			}
		})
	}()
}

func serviceName(port int) string {
	b, err := os.ReadFile("/etc/services")
	if err == nil {
		want := strconv.Itoa(port) + "/tcp"
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[1] == want {
				return f[0]
			}
		}
	}
	return strconv.Itoa(port)
}

func loadDNS(r *Runtime) (goja.Value, error) {
	prim := r.vm.NewObject()
	_ = prim.Set("lookup", r.dnsLookup)
	_ = prim.Set("lookupService", r.lookupService)
	_ = prim.Set("resolver", func(timeoutMs int64, tries int) goja.Value { return r.dnsHandle(timeoutMs, tries) })
	_ = prim.Set("reverseName", func(s string) goja.Value {
		n, err := reverseName(s)
		if err != nil {
			return goja.Null()
		}
		return r.vm.ToValue(n)
	})
	src, err := hostSource("dns")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:dns", wrapModule, src, prim)
}
