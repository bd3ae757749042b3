package jsruntime

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// tlsOpts are tls.connect's options as the Go side uses them.
type tlsOpts struct {
	servername string
	ca         [][]byte // PEM; nil means the system roots
	reject     bool     // rejectUnauthorized
	certs      []tls.Certificate
	alpn       []string
	minVersion uint16
	maxVersion uint16
}

// tlsInfo is what the handshake learned: the peer, and whether the chain
// verified (authorizationError is Node's code when it did not).
type tlsInfo struct {
	authorized bool
	authErr    string
	state      tls.ConnectionState
}

func (i *tlsInfo) value(vm *goja.Runtime) goja.Value {
	o := vm.NewObject()
	_ = o.Set("authorized", i.authorized)
	if i.authErr != "" {
		_ = o.Set("authorizationError", i.authErr)
	}
	_ = o.Set("alpnProtocol", i.state.NegotiatedProtocol)
	_ = o.Set("protocol", tlsVersionName(i.state.Version))
	_ = o.Set("cipher", tls.CipherSuiteName(i.state.CipherSuite))
	chain := make([]any, len(i.state.PeerCertificates))
	for k, c := range i.state.PeerCertificates {
		chain[k] = peerCertificate(vm, c)
	}
	_ = o.Set("peerChain", vm.NewArray(chain...))
	return o
}

func tlsVersionName(v uint16) string {
	switch v {
	case tls.VersionTLS13:
		return "TLSv1.3"
	case tls.VersionTLS12:
		return "TLSv1.2"
	case tls.VersionTLS11:
		return "TLSv1.1"
	case tls.VersionTLS10:
		return "TLSv1"
	}
	return "unknown"
}

func tlsVersionOf(name string) (uint16, bool) {
	for _, v := range []uint16{tls.VersionTLS10, tls.VersionTLS11, tls.VersionTLS12, tls.VersionTLS13} {
		if tlsVersionName(v) == name {
			return v, true
		}
	}
	return 0, false
}

// nameObject is an X.509 name as Node's certificate objects spell it.
func nameObject(vm *goja.Runtime, n pkix.Name) goja.Value {
	o := vm.NewObject()
	set := func(k string, vs []string) {
		if len(vs) == 1 {
			_ = o.Set(k, vs[0])
		} else if len(vs) > 1 {
			_ = o.Set(k, stringArray(vm, vs))
		}
	}
	set("C", n.Country)
	set("ST", n.Province)
	set("L", n.Locality)
	set("O", n.Organization)
	set("OU", n.OrganizationalUnit)
	if n.CommonName != "" {
		_ = o.Set("CN", n.CommonName)
	}
	return o
}

// opensslTime is the date format of Node's valid_from and valid_to.
func opensslTime(t time.Time) string {
	return t.UTC().Format("Jan _2 15:04:05 2006 GMT")
}

// opensslIP spells an address as OpenSSL prints a certificate's IP
// names: IPv6 as eight uppercase hex groups, never compressed.
func opensslIP(ip net.IP) string {
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	parts := make([]string, 8)
	for i := range parts {
		parts[i] = fmt.Sprintf("%X", int(ip[2*i])<<8|int(ip[2*i+1]))
	}
	return strings.Join(parts, ":")
}

func colonHex(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("%02X", c)
	}
	return strings.Join(parts, ":")
}

// peerCertificate builds the basic fields of getPeerCertificate().
func peerCertificate(vm *goja.Runtime, c *x509.Certificate) goja.Value {
	o := vm.NewObject()
	_ = o.Set("subject", nameObject(vm, c.Subject))
	_ = o.Set("issuer", nameObject(vm, c.Issuer))
	var alt []string
	for _, d := range c.DNSNames {
		alt = append(alt, "DNS:"+d)
	}
	for _, ip := range c.IPAddresses {
		alt = append(alt, "IP Address:"+opensslIP(ip))
	}
	for _, e := range c.EmailAddresses {
		alt = append(alt, "email:"+e)
	}
	for _, u := range c.URIs {
		alt = append(alt, "URI:"+u.String())
	}
	if len(alt) > 0 {
		_ = o.Set("subjectaltname", strings.Join(alt, ", "))
	}
	_ = o.Set("ca", c.IsCA)
	switch k := c.PublicKey.(type) {
	case *rsa.PublicKey:
		_ = o.Set("bits", k.N.BitLen())
		_ = o.Set("exponent", fmt.Sprintf("0x%x", k.E))
		_ = o.Set("modulus", strings.ToUpper(k.N.Text(16)))
	case *ecdsa.PublicKey:
		_ = o.Set("bits", k.Curve.Params().BitSize)
		_ = o.Set("nistCurve", k.Curve.Params().Name)
	case ed25519.PublicKey:
		_ = o.Set("bits", 256)
	}
	_ = o.Set("valid_from", opensslTime(c.NotBefore))
	_ = o.Set("valid_to", opensslTime(c.NotAfter))
	s1 := sha1.Sum(c.Raw)
	s256 := sha256.Sum256(c.Raw)
	s512 := sha512.Sum512(c.Raw)
	_ = o.Set("fingerprint", colonHex(s1[:]))
	_ = o.Set("fingerprint256", colonHex(s256[:]))
	_ = o.Set("fingerprint512", colonHex(s512[:]))
	_ = o.Set("serialNumber", strings.ToUpper(c.SerialNumber.Text(16)))
	_ = o.Set("raw", buffer.WrapBytes(vm, append([]byte(nil), c.Raw...)))
	return o
}

// verifyErr is a chain that did not verify, as Node's code and message.
type verifyErr struct{ code, msg string }

func (e *verifyErr) Error() string { return e.msg }

// classifyVerify maps Go's verification failure to OpenSSL's code, which
// Node reports (DEPTH_ZERO_SELF_SIGNED_CERT and friends).
func classifyVerify(err error, chain []*x509.Certificate, host string) *verifyErr {
	var ua x509.UnknownAuthorityError
	var ci x509.CertificateInvalidError
	var he x509.HostnameError
	selfSigned := func(c *x509.Certificate) bool {
		return bytes.Equal(c.RawIssuer, c.RawSubject) && c.CheckSignatureFrom(c) == nil
	}
	switch {
	case errors.As(err, &he):
		kind := "Host: " + host + ". is not in the cert's altnames: "
		if net.ParseIP(host) != nil {
			kind = "IP: " + host + " is not in the cert's list: "
		}
		var names []string
		for _, d := range he.Certificate.DNSNames {
			names = append(names, "DNS:"+d)
		}
		for _, ip := range he.Certificate.IPAddresses {
			names = append(names, "IP Address:"+opensslIP(ip))
		}
		return &verifyErr{"ERR_TLS_CERT_ALTNAME_INVALID", "Hostname/IP does not match certificate's altnames: " + kind + strings.Join(names, ", ")}
	case errors.As(err, &ci) && ci.Reason == x509.Expired:
		if time.Now().Before(ci.Cert.NotBefore) {
			return &verifyErr{"CERT_NOT_YET_VALID", "certificate is not yet valid"}
		}
		return &verifyErr{"CERT_HAS_EXPIRED", "certificate has expired"}
	case errors.As(err, &ua) || len(chain) > 0:
		if len(chain) == 1 && selfSigned(chain[0]) {
			return &verifyErr{"DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"}
		}
		if len(chain) > 1 && selfSigned(chain[len(chain)-1]) {
			return &verifyErr{"SELF_SIGNED_CERT_IN_CHAIN", "self-signed certificate in certificate chain"}
		}
		if len(chain) == 1 {
			return &verifyErr{"UNABLE_TO_VERIFY_LEAF_SIGNATURE", "unable to verify the first certificate"}
		}
		return &verifyErr{"UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "unable to get local issuer certificate"}
	}
	return &verifyErr{"UNABLE_TO_VERIFY_LEAF_SIGNATURE", err.Error()}
}

// tlsHandshake runs the client handshake over conn. Verification is ours
// (Go's is off) so that rejectUnauthorized:false still reports whether
// and why the chain failed, as Node's authorized/authorizationError do.
func tlsHandshake(ctx context.Context, conn net.Conn, o dialOpts) (*tls.Conn, *tlsInfo, *netErr) {
	t := o.tls
	info := &tlsInfo{}
	var roots *x509.CertPool
	if t.ca != nil {
		roots = x509.NewCertPool()
		for _, p := range t.ca {
			roots.AppendCertsFromPEM(p)
		}
	} else if sys, err := x509.SystemCertPool(); err == nil {
		roots = sys
	}
	host := t.servername
	if host == "" {
		host = o.host
	}
	cfg := &tls.Config{
		InsecureSkipVerify: true,
		Certificates:       t.certs,
		NextProtos:         t.alpn,
		MinVersion:         t.minVersion,
		MaxVersion:         t.maxVersion,
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				info.authErr = "UNABLE_TO_GET_ISSUER_CERT"
			} else {
				inter := x509.NewCertPool()
				for _, c := range cs.PeerCertificates[1:] {
					inter.AddCert(c)
				}
				_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, DNSName: host})
				if err == nil {
					info.authorized = true
					return nil
				}
				v := classifyVerify(err, cs.PeerCertificates, host)
				info.authErr = v.code
				if t.reject {
					return v
				}
			}
			return nil
		},
	}
	if net.ParseIP(t.servername) == nil {
		cfg.ServerName = t.servername
	}
	tc := tls.Client(conn, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		var v *verifyErr
		if errors.As(err, &v) {
			return nil, nil, &netErr{code: v.code, msg: v.msg}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, nil, &netErr{code: "ECONNRESET", msg: "Client network socket disconnected before secure TLS connection was established"}
		}
		code := "ERR_SSL_HANDSHAKE_FAILURE"
		if strings.Contains(err.Error(), "does not look like a TLS handshake") {
			code = "ERR_SSL_WRONG_VERSION_NUMBER"
		}
		return nil, nil, &netErr{code: code, msg: err.Error()}
	}
	info.state = tc.ConnectionState()
	return tc, info, nil
}

// parseTLSOpts reads tls.connect's options (ca as PEM strings or
// Buffers, one or an array; cert and key likewise).
func (r *Runtime) parseTLSOpts(o *goja.Object) (*tlsOpts, error) {
	vm := r.vm
	t := &tlsOpts{reject: true}
	if v := o.Get("rejectUnauthorized"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
		t.reject = v.ToBoolean()
	}
	if v := o.Get("servername"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
		t.servername = v.String()
	}
	list := func(k string) [][]byte {
		v := o.Get(k)
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
			return nil
		}
		if a, ok := v.(*goja.Object); ok && a.ClassName() == "Array" {
			var out [][]byte
			for _, k := range a.Keys() {
				out = append(out, append([]byte(nil), bytesOf(vm, a.Get(k))...))
			}
			return out
		}
		return [][]byte{append([]byte(nil), bytesOf(vm, v)...)}
	}
	if ca := list("ca"); ca != nil {
		t.ca = ca
		for _, p := range ca {
			if b, _ := pem.Decode(p); b == nil {
				return nil, errors.New("the ca option holds no PEM certificate")
			}
		}
	}
	certs, keys := list("cert"), list("key")
	if len(certs) > 0 {
		if len(keys) != len(certs) {
			return nil, errors.New("cert and key must be given together")
		}
		for i := range certs {
			c, err := tls.X509KeyPair(certs[i], keys[i])
			if err != nil {
				return nil, fmt.Errorf("client certificate: %w", err)
			}
			t.certs = append(t.certs, c)
		}
	}
	if v := o.Get("ALPNProtocols"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
		if a, ok := v.(*goja.Object); ok {
			for _, k := range a.Keys() {
				t.alpn = append(t.alpn, string(bytesOf(vm, a.Get(k))))
			}
		}
	}
	for _, kv := range []struct {
		k   string
		dst *uint16
	}{{"minVersion", &t.minVersion}, {"maxVersion", &t.maxVersion}} {
		k, dst := kv.k, kv.dst
		if v := o.Get(k); v != nil && !goja.IsUndefined(v) {
			ver, ok := tlsVersionOf(v.String())
			if !ok {
				return nil, fmt.Errorf("unknown TLS version %q for %s", v.String(), k)
			}
			*dst = ver
		}
	}
	return t, nil
}

// tlsConnect is net's connect with a handshake after the dial; the handle
// also reports ("secure", info) before any data.
func (r *Runtime) tlsConnect(optsV goja.Value, on goja.Callable) goja.Value {
	o := optsV.ToObject(r.vm)
	opts := r.parseDialOpts(o)
	t, err := r.parseTLSOpts(o)
	if err != nil {
		panic(r.nodeError("ERR_INVALID_ARG_VALUE", err.Error()))
	}
	opts.tls = t
	return r.dialSock(opts, on)
}

// systemRootsPEM reads the system bundle for tls.rootCertificates (on
// first use only: it is a large file).
func systemRootsPEM() []string {
	for _, p := range []string{"/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem", "/etc/ssl/ca-bundle.pem"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var out []string
		for {
			var blk *pem.Block
			blk, b = pem.Decode(b)
			if blk == nil {
				break
			}
			if blk.Type == "CERTIFICATE" {
				out = append(out, strings.TrimSpace(string(pem.EncodeToMemory(blk))))
			}
		}
		return out
	}
	return []string{}
}

func loadTLS(r *Runtime) (goja.Value, error) {
	prim := r.vm.NewObject()
	_ = prim.Set("connect", r.tlsConnect)
	_ = prim.Set("rootCertificates", func() goja.Value { return stringArray(r.vm, systemRootsPEM()) })
	src, err := hostSource("tls")
	if err != nil {
		return nil, err
	}
	return r.evalCommonJS("node:tls", wrapModule, src, prim)
}
