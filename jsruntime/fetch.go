package jsruntime

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// fetch performs one HTTP request off the loop and calls cb(err, res) on
// it. It returns a cancel function the JS side calls when the request's
// AbortSignal fires.
func (r *Runtime) fetch(rawURL, method string, headers map[string]string, body goja.Value, cb goja.Callable) func() {
	vm := r.vm
	var payload io.Reader
	if body != nil && !goja.IsUndefined(body) && !goja.IsNull(body) {
		payload = bytes.NewReader(append([]byte(nil), bytesOf(vm, body)...))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := r.loop.Reserve()
	go func() {
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, method, rawURL, payload)
		if err != nil {
			done(func(*goja.Runtime) { _, _ = cb(goja.Undefined(), vm.ToValue(err.Error())) })
			return
		}
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done(func(*goja.Runtime) { _, _ = cb(goja.Undefined(), vm.ToValue(err.Error())) })
			return
		}
		data, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			done(func(*goja.Runtime) { _, _ = cb(goja.Undefined(), vm.ToValue(err.Error())) })
			return
		}
		done(func(vm *goja.Runtime) {
			res := vm.NewObject()
			_ = res.Set("status", resp.StatusCode)
			_ = res.Set("statusText", strings.TrimSpace(strings.TrimPrefix(resp.Status, http.StatusText(0))))
			_ = res.Set("statusText", http.StatusText(resp.StatusCode))
			h := vm.NewObject()
			for k, vs := range resp.Header {
				_ = h.Set(strings.ToLower(k), strings.Join(vs, ", "))
			}
			_ = res.Set("headers", h)
			_ = res.Set("url", resp.Request.URL.String())
			_ = res.Set("body", buffer.WrapBytes(vm, data))
			_, _ = cb(goja.Undefined(), goja.Null(), res)
		})
	}()
	return cancel
}
