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
		w.Header().Add("Set-Cookie", "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT")
		w.Header().Add("Set-Cookie", "b=2")
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
  console.log(Object.prototype.toString.call(res.body), res.bodyUsed, JSON.stringify(res.headers.getSetCookie()));
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
	want := "[object ReadableStream] false [\"a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT\",\"b=2\"]\n\"data: one\\n\\n\"\n\"data: two after seen\\n\\n\"\ntrue\nUint8Array 11\n"
	if got := h.stderr.String(); got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

// TestHTTPClient drives node:http's request and get against a local
// server: method, headers and body go out, status, headers and the body
// (as data events) come back, and a refused connection is an error event
// with Node's code.
func TestHTTPClient(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := make([]byte, 64)
		n, _ := r.Body.Read(body)
		w.Header().Set("X-Method", r.Method)
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Add("Set-Cookie", "b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT")
		w.WriteHeader(201)
		fmt.Fprintf(w, "%s %s %s %q", r.URL.Path, r.URL.RawQuery, r.Header.Get("X-Test"), body[:n])
	}))
	defer srv.Close()
	h := runTS(t, map[string]string{"ext.ts": `
import http from "node:http";
export default async function () {
  const u = new URL(globalThis.TEST_URL);
  await new Promise((resolve) => {
    const req = http.request({ hostname: u.hostname, port: u.port, path: "/p?q=1", method: "POST", headers: { "X-Test": "yes" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => { text += c; });
      res.on("end", () => { console.log(res.statusCode, res.statusMessage, res.headers["x-method"], JSON.stringify(res.headers["set-cookie"]), text); resolve(); });
    });
    req.on("error", (e) => { console.log("error", e.message); resolve(); });
    req.write("body ");
    req.end("text");
  });
  await new Promise((resolve) => {
    http.get(globalThis.TEST_URL + "/g", (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => { console.log(res.statusCode, Buffer.concat(chunks).toString()); resolve(); });
    });
  });
  await new Promise((resolve) => {
    const req = http.get("http://127.0.0.1:1/", () => {});
    req.on("error", (e) => { console.log("refused", e.code); resolve(); });
  });
}`}, func(o *LoadOptions) {
		o.Host.Setup = func(r *Runtime) error { return r.VM().Set("TEST_URL", srv.URL) }
	})
	if len(h.loadErrs) != 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	want := "201 Created POST [\"a=1\",\"b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT\"] /p q=1 yes \"body text\"\n201 /g   \"\"\nrefused ECONNREFUSED\n"
	if got := h.stderr.String(); got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}
