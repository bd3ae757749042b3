package jsruntime

import (
	"bufio"
	"context"
	"encoding/pem"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// compatWithEnv runs testdata/<name>.js as TestNodeCompat does, with env
// set in process.env first, and compares with testdata/<name>.golden.
// With PI_RECORD_NODE naming a Node 22 binary the golden is recorded
// from Node instead (the same script and env), so it never comes from us.
func compatWithEnv(t *testing.T, name string, env map[string]string) {
	t.Helper()
	script, err := os.ReadFile("testdata/" + name + ".js")
	if err != nil {
		t.Fatal(err)
	}
	if node := os.Getenv("PI_RECORD_NODE"); node != "" {
		cmd := exec.Command(node, "testdata/"+name+".js")
		cmd.Env = os.Environ()
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v", err)
		}
		if err := os.WriteFile("testdata/"+name+".golden", out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	golden, err := os.ReadFile("testdata/" + name + ".golden")
	if err != nil {
		t.Fatal(err)
	}
	var pre strings.Builder
	for k, v := range env {
		pre.WriteString("process.env[" + strconv.Quote(k) + "] = " + strconv.Quote(v) + ";\n")
	}
	got := logOf(t, "export default function () {\n"+pre.String()+string(script)+"\n}\n")
	if got != string(golden) {
		t.Errorf("output differs from Node's\n got:\n%s\nwant:\n%s", got, golden)
	}
}

// TestTLSCompat shakes hands with a local httptest TLS server: trusted
// through ca, untrusted, wrong servername, and rejectUnauthorized false.
func TestTLSCompat(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("hello over tls"))
	}))
	// The rejected handshakes are expected; the server need not log them.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	port := srv.Listener.Addr().(interface{ String() string }).String()
	port = port[strings.LastIndex(port, ":")+1:]
	compatWithEnv(t, "tls_compat", map[string]string{"PI_TLS_PORT": port, "PI_TLS_CA": string(ca)})
}

// fakeDNS answers a fixed zone over UDP on 127.0.0.1 (a.test and its
// neighbours; missing.test is NXDOMAIN, other types of a.test are empty).
func fakeDNS(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	name := func(s string) dnsmessage.Name { return dnsmessage.MustNewName(s) }
	hdr := func(n string, typ dnsmessage.Type) dnsmessage.ResourceHeader {
		return dnsmessage.ResourceHeader{Name: name(n), Type: typ, Class: dnsmessage.ClassINET, TTL: 300}
	}
	caa := []byte{0, 5}
	caa = append(append(caa, "issue"...), "letsencrypt.org"...)
	zone := map[string][]dnsmessage.Resource{
		"a.test.": {
			{Header: hdr("a.test.", dnsmessage.TypeA), Body: &dnsmessage.AResource{A: [4]byte{192, 0, 2, 1}}},
			{Header: hdr("a.test.", dnsmessage.TypeA), Body: &dnsmessage.AResource{A: [4]byte{192, 0, 2, 2}}},
			{Header: hdr("a.test.", dnsmessage.TypeAAAA), Body: &dnsmessage.AAAAResource{AAAA: [16]byte{0x20, 0x01, 0x0d, 0xb8, 15: 1}}},
			{Header: hdr("a.test.", dnsmessage.TypeTXT), Body: &dnsmessage.TXTResource{TXT: []string{"v=spf1", " -all"}}},
			{Header: hdr("a.test.", dnsmessage.TypeTXT), Body: &dnsmessage.TXTResource{TXT: []string{"hello"}}},
			{Header: hdr("a.test.", dnsmessage.TypeMX), Body: &dnsmessage.MXResource{Pref: 10, MX: name("mx1.a.test.")}},
			{Header: hdr("a.test.", dnsmessage.TypeMX), Body: &dnsmessage.MXResource{Pref: 20, MX: name("mx2.a.test.")}},
			{Header: hdr("a.test.", dnsmessage.TypeNS), Body: &dnsmessage.NSResource{NS: name("ns1.a.test.")}},
			{Header: hdr("a.test.", dnsmessage.TypeSOA), Body: &dnsmessage.SOAResource{NS: name("ns1.a.test."), MBox: name("admin.a.test."), Serial: 2024010101, Refresh: 7200, Retry: 3600, Expire: 1209600, MinTTL: 300}},
			{Header: hdr("a.test.", 257), Body: &dnsmessage.UnknownResource{Type: 257, Data: caa}},
		},
		"_sip._tcp.a.test.": {{Header: hdr("_sip._tcp.a.test.", dnsmessage.TypeSRV), Body: &dnsmessage.SRVResource{Priority: 1, Weight: 2, Port: 5060, Target: name("sip.a.test.")}}},
		"www.a.test.": {
			{Header: hdr("www.a.test.", dnsmessage.TypeCNAME), Body: &dnsmessage.CNAMEResource{CNAME: name("a.test.")}},
		},
		"1.2.0.192.in-addr.arpa.": {{Header: hdr("1.2.0.192.in-addr.arpa.", dnsmessage.TypePTR), Body: &dnsmessage.PTRResource{PTR: name("host.a.test.")}}},
	}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var q dnsmessage.Message
			if q.Unpack(buf[:n]) != nil || len(q.Questions) != 1 {
				continue
			}
			qq := q.Questions[0]
			resp := dnsmessage.Message{Header: dnsmessage.Header{ID: q.ID, Response: true, Authoritative: true, RecursionDesired: q.RecursionDesired, RecursionAvailable: true}, Questions: q.Questions}
			key := strings.ToLower(qq.Name.String())
			rrs, ok := zone[key]
			if !ok {
				resp.RCode = dnsmessage.RCodeNameError
			}
			for _, rr := range rrs {
				if rr.Header.Type == qq.Type || qq.Type == dnsmessage.TypeALL || rr.Header.Type == dnsmessage.TypeCNAME {
					resp.Answers = append(resp.Answers, rr)
					if rr.Header.Type == dnsmessage.TypeCNAME && qq.Type != dnsmessage.TypeCNAME {
						for _, t := range zone[strings.ToLower(rr.Body.(*dnsmessage.CNAMEResource).CNAME.String())] {
							if t.Header.Type == qq.Type {
								resp.Answers = append(resp.Answers, t)
							}
						}
					}
				}
			}
			out, err := resp.Pack()
			if err == nil {
				_, _ = pc.WriteTo(out, from)
			}
		}
	}()
	return pc.LocalAddr().String()
}

// TestDNSCompat resolves localhost and literals, and every resolve* form
// against fakeDNS, as Node 22 does.
func TestDNSCompat(t *testing.T) {
	t.Parallel()
	compatWithEnv(t, "dns_compat", map[string]string{"PI_DNS_SERVER": fakeDNS(t)})
}

// TestNetForeignPeer talks to a Go server over a Unix socket, as an
// editor bridge does: lines both ways, the peer closing first, and the
// loop settling once the socket has closed.
func TestNetForeignPeer(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(t.TempDir(), "editor.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer func() { _ = c.Close() }()
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			return
		}
		_, _ = c.Write([]byte("reply to " + line))
	}()
	got := logOf(t, `import * as net from "node:net";
export default function () {
  const c = net.createConnection(`+strconv.Quote(sock)+`);
  c.setEncoding("utf8");
  c.on("connect", () => c.write("get_buffer\n"));
  let buf = "";
  c.on("data", (d) => { buf += d; });
  c.on("end", () => console.log("end", JSON.stringify(buf)));
  c.on("close", (hadErr) => console.log("close", hadErr, c.bytesRead, c.bytesWritten));
}
`)
	if want := "end \"reply to get_buffer\\n\"\nclose false 20 11\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestNetUnrefLetsLoopIdle holds an idle connection open: ref'd it keeps
// the loop busy, unref'd the loop settles while the socket stays open.
func TestNetUnrefLetsLoopIdle(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			// Held open: the test's end closes the listener and the
			// runtime its own ends.
			defer func() { _ = c.Close() }()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	got := logOf(t, `import * as net from "node:net";
export default function () {
  const c = net.connect(`+port+`, "127.0.0.1", () => { console.log("connected"); c.unref(); });
}
`)
	if got != "connected\n" {
		t.Errorf("got %q", got)
	}
	h := runTS(t, map[string]string{"ext.ts": `import * as net from "node:net";
export default function () { net.connect(` + port + `, "127.0.0.1", () => console.log("connected")); }
`})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := h.rt.Loop().WaitIdle(ctx); err == nil {
		t.Errorf("loop went idle with a ref'd socket open")
	}
}

// TestNetBackpressure writes to a peer that starts reading late until
// write() reports false (the kernel's buffers take the first megabytes):
// 'drain' follows, every callback runs in order and every byte arrives.
func TestNetBackpressure(t *testing.T) {
	t.Parallel()
	got := logOf(t, `import * as net from "node:net";
export default function () {
  let total = 0;
  const srv = net.createServer((s) => {
    s.pause();
    let n = 0;
    setTimeout(() => { s.on("data", (d) => { n += d.length; }); s.resume(); }, 50);
    s.on("end", () => { console.log("server got all", n === total); srv.close(); });
  });
  srv.listen(0, "127.0.0.1", () => {
    const c = net.connect(srv.address().port, "127.0.0.1", () => {
      const chunk = Buffer.alloc(1 << 20, 120);
      const order = [];
      let i = 0, ok = true;
      while (ok && i < 512) { const k = i++; total += chunk.length; ok = c.write(chunk, () => order.push(k)); }
      console.log("write reported full", !ok, c.writableLength > 0, c.writableNeedDrain);
      c.once("drain", () => {
        console.log("drain", c.writableLength, order.length === i && order.every((v, j) => v === j));
        c.end();
      });
    });
  });
}
`)
	if want := "write reported full true true true\ndrain 0 true\nserver got all true\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestNodeNotSupported checks that what goja cannot do throws
// ERR_NOT_SUPPORTED instead of answering wrongly.
func TestNodeNotSupported(t *testing.T) {
	t.Parallel()
	got := logOf(t, `import * as v8 from "node:v8";
import * as vm from "node:vm";
import * as tls from "node:tls";
import * as tty from "node:tty";
export default function () {
  for (const [what, f] of [
    ["v8.serialize", () => v8.serialize({})],
    ["v8.setFlagsFromString", () => v8.setFlagsFromString("--expose-gc")],
    ["v8.Serializer", () => new v8.Serializer()],
    ["createCachedData", () => new vm.Script("1").createCachedData()],
    ["tls.createServer", () => tls.createServer()],
    ["tls over socket", () => tls.connect({ socket: {} })],
  ]) {
    try { f(); console.log(what, "returned"); } catch (e) { console.log(what, e.code); }
  }
  try { tls.connect({ port: 1, ca: "not pem" }); } catch (e) { console.log("bad ca", e.code); }
  vm.measureMemory().catch((e) => console.log("measureMemory", e.code));
}
`)
	want := "v8.serialize ERR_NOT_SUPPORTED\nv8.setFlagsFromString ERR_NOT_SUPPORTED\nv8.Serializer ERR_NOT_SUPPORTED\ncreateCachedData ERR_NOT_SUPPORTED\ntls.createServer ERR_NOT_SUPPORTED\ntls over socket ERR_NOT_SUPPORTED\nbad ca ERR_INVALID_ARG_VALUE\nmeasureMemory ERR_NOT_SUPPORTED\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
