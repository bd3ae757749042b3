package jsruntime

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// fetchChunk is the most one read of a response body hands to JS: the body
// arrives as a stream of chunks, as Node's fetch delivers it, so a
// server-sent event stream is seen while it is still open.
const fetchChunk = 64 << 10

// fetch performs one HTTP request off the loop and calls cb(err, res) on
// it once the response headers are in. res.read(cb) then reads the next
// chunk of the body (cb(err, chunk) with chunk null at the end) and
// res.cancel() drops the rest. fetch returns a cancel function the JS
// side calls when the request's AbortSignal fires; it also fails a body
// read in progress.
func (r *Runtime) fetch(rawURL, method string, headers map[string]string, body goja.Value, cb goja.Callable) func() {
	vm := r.vm
	var payload io.Reader
	if body != nil && !goja.IsUndefined(body) && !goja.IsNull(body) {
		payload = bytes.NewReader(append([]byte(nil), bytesOf(vm, body)...))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := r.loop.Reserve()
	fail := func(err error) {
		cancel()
		done(func(*goja.Runtime) { _, _ = cb(goja.Undefined(), vm.ToValue(err.Error())) })
	}
	go func() {
		req, err := http.NewRequestWithContext(ctx, method, rawURL, payload)
		if err != nil {
			fail(err)
			return
		}
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fail(err)
			return
		}
		done(func(vm *goja.Runtime) {
			res := vm.NewObject()
			_ = res.Set("status", resp.StatusCode)
			_ = res.Set("statusText", reasonPhrase(resp))
			h := vm.NewObject()
			for k, vs := range resp.Header {
				_ = h.Set(strings.ToLower(k), strings.Join(vs, ", "))
			}
			// Go's client moves these two out of Header; Node's keeps them.
			if len(resp.TransferEncoding) > 0 {
				_ = h.Set("transfer-encoding", strings.Join(resp.TransferEncoding, ", "))
			}
			if resp.Close && resp.Header.Get("Connection") == "" {
				_ = h.Set("connection", "close")
			}
			_ = res.Set("headers", h)
			// Cookies are kept apart too: joined with ", " they cannot be
			// split again (an Expires date holds a comma).
			_ = res.Set("setCookie", resp.Header.Values("Set-Cookie"))
			_ = res.Set("url", resp.Request.URL.String())
			b := &fetchBody{r: r, body: resp.Body, cancel: cancel}
			_ = res.Set("read", b.read)
			_ = res.Set("cancel", b.close)
			_, _ = cb(goja.Undefined(), goja.Null(), res)
		})
	}()
	return cancel
}

// fetchBody is a response body being read by JS, one chunk per call.
type fetchBody struct {
	r      *Runtime
	body   io.ReadCloser
	cancel context.CancelFunc
	mu     sync.Mutex
	closed bool
}

// read reads the next chunk off the loop and calls cb(err, chunk) on it;
// chunk is null once the body has ended, which also closes it.
func (b *fetchBody) read(cb goja.Callable) {
	done := b.r.loop.Reserve()
	go func() {
		buf := make([]byte, fetchChunk)
		n, err := io.ReadAtLeast(b.body, buf, 1)
		if n > 0 {
			done(func(vm *goja.Runtime) { _, _ = cb(goja.Undefined(), goja.Null(), newUint8Array(vm, buf[:n])) })
			return
		}
		b.close()
		done(func(vm *goja.Runtime) {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				_, _ = cb(goja.Undefined(), goja.Null(), goja.Null())
				return
			}
			_, _ = cb(goja.Undefined(), vm.ToValue(err.Error()))
		})
	}()
}

// close drops the rest of the body and releases the connection.
func (b *fetchBody) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	_ = b.body.Close()
	b.cancel()
}

// reasonPhrase is the status line's reason as the server sent it ("404
// Nope" gives "Nope"); Go keeps it in Status.
func reasonPhrase(resp *http.Response) string {
	if _, reason, ok := strings.Cut(resp.Status, " "); ok {
		return reason
	}
	return http.StatusText(resp.StatusCode)
}
