package llm

import (
	"errors"
	"net"
	"net/url"
	"syscall"
)

// NetCause words the deepest cause of a failure to reach a provider as
// Node does ("getaddrinfo ENOTFOUND api.anthropic.com", "connect
// ECONNREFUSED 127.0.0.1:9"), the text the reference's error messages end
// with and its retry patterns read, instead of Go's "Post \"…\": dial tcp
// …: no such host". A cause Node has no word for keeps Go's text, without
// the URL wrapper. Each adapter puts its SDK's prefix ("Connection
// error.", "fetch failed") in front and words a closed socket itself, as
// the SDKs differ there.
func NetCause(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Addr != nil {
		switch {
		case errors.Is(err, syscall.ECONNREFUSED):
			return "connect ECONNREFUSED " + op.Addr.String()
		case op.Op == "dial" && errors.Is(err, syscall.ETIMEDOUT):
			return "connect ETIMEDOUT " + op.Addr.String()
		}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return "getaddrinfo ENOTFOUND " + dns.Name
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}
