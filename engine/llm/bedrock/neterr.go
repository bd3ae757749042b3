package bedrock

import (
	"errors"
	"net"
	"net/url"
	"syscall"
)

// transportError words a failure to reach the endpoint as Node does
// ("connect ECONNREFUSED 127.0.0.1:9"), the text the reference shows and
// its retry logic reads, instead of Go's "Post \"…\": dial tcp …".
func transportError(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" && op.Addr != nil {
		switch {
		case errors.Is(err, syscall.ECONNREFUSED):
			return errors.New("connect ECONNREFUSED " + op.Addr.String())
		case errors.Is(err, syscall.ETIMEDOUT):
			return errors.New("connect ETIMEDOUT " + op.Addr.String())
		}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return errors.New("getaddrinfo ENOTFOUND " + dns.Name)
	}
	if errors.Is(err, syscall.ECONNRESET) {
		return errors.New("read ECONNRESET")
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
