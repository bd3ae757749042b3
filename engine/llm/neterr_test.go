package llm

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNetCause: transport failures are worded as Node words them.
func TestNetCause(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"refused", func() error {
			resp, err := http.Post("http://"+addr+"/v1", "application/json", nil)
			if err == nil {
				resp.Body.Close()
			}
			return err
		}, "connect ECONNREFUSED " + addr},
		// What net/http returns for a host the resolver does not know.
		{"unknown host", func() error {
			return &url.Error{Op: "Post", URL: "https://api.example.invalid/v1", Err: &net.OpError{Op: "dial", Net: "tcp",
				Err: &net.DNSError{Err: "no such host", Name: "api.example.invalid", Server: "10.0.0.53:53", IsNotFound: true}}}
		}, "getaddrinfo ENOTFOUND api.example.invalid"},
		{"other", func() error {
			return &url.Error{Op: "Post", URL: "https://x/v1", Err: errors.New("tls: handshake failure")}
		}, "tls: handshake failure"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.err()
			if err == nil {
				t.Fatal("request succeeded")
			}
			assert.Equal(t, tc.want, NetCause(err))
		})
	}
}
