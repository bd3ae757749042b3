package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// The httpIdleTimeoutMs setting bounds how long a provider request may
// stay silent: waiting for the response headers, and between two reads
// of the body. The reference gives its HTTP dispatcher the same value as
// headers and body timeout, so a stalled stream fails with a retryable
// error instead of hanging the run.

// DefaultHTTPIdleTimeout is the reference's default (five minutes).
const DefaultHTTPIdleTimeout = 300 * time.Second

// idleTimeout holds the timeout in nanoseconds: 0 until it is set (the
// default applies), negative when disabled.
var idleTimeout atomic.Int64

// SetHTTPIdleTimeout sets the idle timeout of every provider request from
// now on; 0 disables it.
func SetHTTPIdleTimeout(d time.Duration) {
	if d <= 0 {
		d = -1
	}
	idleTimeout.Store(int64(d))
}

// HTTPIdleTimeout returns the idle timeout in effect (0: none).
func HTTPIdleTimeout() time.Duration {
	switch v := idleTimeout.Load(); {
	case v == 0:
		return DefaultHTTPIdleTimeout
	case v < 0:
		return 0
	default:
		return time.Duration(v)
	}
}

// ErrHeadersTimeout is a request whose response headers did not arrive
// within the idle timeout. Adapters word it as their SDK does ("Request
// timed out.").
var ErrHeadersTimeout = errors.New("Headers Timeout Error (UND_ERR_HEADERS_TIMEOUT)")

// ErrBodyTimeout is a response body that stayed silent for the idle
// timeout, in Node's words: with the "terminated: " the adapters put in
// front of a failed body read it reads as the reference's message.
var ErrBodyTimeout = errors.New("Body Timeout Error (UND_ERR_BODY_TIMEOUT)")

// idleTransport applies an idle timeout around another transport.
type idleTransport struct {
	next    http.RoundTripper
	timeout func() time.Duration
}

// IdleTransport wraps rt so that its requests honour the idle timeout.
func IdleTransport(rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	return idleTransport{next: rt, timeout: HTTPIdleTimeout}
}

// HTTPClient is the client for provider requests that bring none: Go's
// default transport with the idle timeout.
var HTTPClient = sync.OnceValue(func() *http.Client {
	return &http.Client{Transport: IdleTransport(http.DefaultTransport)}
})

// RoundTrip sends req, failing with ErrHeadersTimeout when the headers
// take longer than the timeout, and hands back a body whose reads fail
// with ErrBodyTimeout after a silence of that length.
func (t idleTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	d := t.timeout()
	if d <= 0 {
		return t.next.RoundTrip(req)
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(d, func() { cancel(ErrHeadersTimeout) })
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	stopped := timer.Stop()
	if err != nil {
		if !stopped && errors.Is(context.Cause(ctx), ErrHeadersTimeout) {
			err = ErrHeadersTimeout
		}
		cancel(nil)
		return nil, err
	}
	if !stopped {
		// The timer fired just as the headers arrived: the request's
		// context is already cancelled, so the body cannot be read.
		cancel(nil)
		resp.Body.Close()
		return nil, ErrHeadersTimeout
	}
	resp.Body = &idleBody{rc: resp.Body, d: d, ctx: ctx, cancel: cancel}
	return resp, nil
}

// idleBody is a response body watched for silence: each Read must see
// data (or the end) within d, or the request is cancelled and the read
// fails with ErrBodyTimeout.
type idleBody struct {
	rc     io.ReadCloser
	d      time.Duration
	ctx    context.Context
	cancel context.CancelCauseFunc
}

func (b *idleBody) Read(p []byte) (int, error) {
	timer := time.AfterFunc(b.d, func() { b.cancel(ErrBodyTimeout) })
	n, err := b.rc.Read(p)
	if !timer.Stop() && err != nil && errors.Is(context.Cause(b.ctx), ErrBodyTimeout) {
		return n, ErrBodyTimeout
	}
	return n, err
}

func (b *idleBody) Close() error {
	err := b.rc.Close()
	b.cancel(nil)
	return err
}
