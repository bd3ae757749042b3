package jsruntime

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestFetchStreamsBody checks that a response body reaches the extension
// chunk by chunk while the server still holds the connection open: the
// server writes its second chunk only after the client has echoed the
// first one back, so a fetch that buffered the whole body would hang.
func TestFetchStreamsBody(t *testing.T) {
	t.Parallel()
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ack" {
			got <- r.URL.RawQuery
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: one\n\n")
		w.(http.Flusher).Flush()
		ack := <-got
		fmt.Fprintf(w, "data: two after %s\n\n", ack)
	}))
	defer srv.Close()
	h := runTS(t, map[string]string{"ext.ts": `
export default async function () {
  const res = await fetch(globalThis.TEST_URL + "/events");
  console.log(Object.prototype.toString.call(res.body), res.bodyUsed);
  const text = res.body.pipeThrough(new TextDecoderStream());
  let first = true;
  for await (const chunk of text) {
    console.log(JSON.stringify(chunk));
    if (first) { first = false; await fetch(globalThis.TEST_URL + "/ack?seen"); }
  }
  console.log(res.bodyUsed);
  const again = await fetch(globalThis.TEST_URL + "/events");
  const reader = again.body.getReader();
  const { value } = await reader.read();
  console.log(value.constructor.name, value.length);
  await reader.cancel();
  await fetch(globalThis.TEST_URL + "/ack?cancelled");
}`}, func(o *LoadOptions) {
		o.Host.Setup = func(r *Runtime) error { return r.VM().Set("TEST_URL", srv.URL) }
	})
	if len(h.loadErrs) != 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	want := "[object ReadableStream] false\n\"data: one\\n\\n\"\n\"data: two after seen\\n\\n\"\ntrue\nUint8Array 11\n"
	if got := h.stderr.String(); got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}
