package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
)

// uiClient is a test double for an RPC client: it reads the bridge's
// records from a pipe on its own goroutine, keeps every line, and answers
// dialog requests through answer (an empty reply means "do not answer").
type uiClient struct {
	bridge *UIBridge
	mu     sync.Mutex
	lines  []string
	reqs   chan map[string]any
	done   chan struct{}
}

func newUIClient(t *testing.T, answer func(req map[string]any) string) *uiClient {
	t.Helper()
	pr, pw := io.Pipe()
	b := NewUIBridge(NewWriter(pw))
	var n atomic.Int64
	b.newID = func() string { return fmt.Sprintf("id-%d", n.Add(1)) }
	c := &uiClient{bridge: b, reqs: make(chan map[string]any, 100), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		lr := NewLineReader(pr)
		for {
			line, err := lr.Next()
			if err != nil {
				return
			}
			c.mu.Lock()
			c.lines = append(c.lines, string(line))
			c.mu.Unlock()
			var req map[string]any
			if err := json.Unmarshal(line, &req); err != nil {
				t.Errorf("bad record %q: %v", line, err)
				continue
			}
			c.reqs <- req
			if answer == nil {
				continue
			}
			if reply := answer(req); reply != "" {
				b.HandleResponse(json.RawMessage(reply))
			}
		}
	}()
	t.Cleanup(func() {
		_ = pw.Close()
		<-c.done
	})
	return c
}

func (c *uiClient) recorded() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.lines...)
}

func reply(id any, rest string) string {
	return fmt.Sprintf(`{"type":"extension_ui_response","id":%q%s}`, id, rest)
}

func TestUIFireAndForgetShapes(t *testing.T) {
	t.Parallel()
	text := "status text"
	cases := []struct {
		name string
		call func(u engine.UI)
		want string
	}{
		{"notify typed", func(u engine.UI) { u.Notify(`results: {"a":"<b>"}`, "warning") },
			`{"type":"extension_ui_request","id":"x","method":"notify","message":"results: {\"a\":\"<b>\"}","notifyType":"warning"}`},
		{"notify plain", func(u engine.UI) { u.Notify("plain info", "") },
			`{"type":"extension_ui_request","id":"x","method":"notify","message":"plain info"}`},
		{"status set", func(u engine.UI) { u.SetStatus("k1", &text) },
			`{"type":"extension_ui_request","id":"x","method":"setStatus","statusKey":"k1","statusText":"status text"}`},
		{"status clear", func(u engine.UI) { u.SetStatus("k1", nil) },
			`{"type":"extension_ui_request","id":"x","method":"setStatus","statusKey":"k1"}`},
		{"widget set", func(u engine.UI) {
			u.SetWidget("w1", []string{"line a", "line b"}, engine.WidgetOptions{Placement: "belowEditor"})
		}, `{"type":"extension_ui_request","id":"x","method":"setWidget","widgetKey":"w1","widgetLines":["line a","line b"],"widgetPlacement":"belowEditor"}`},
		{"widget empty lines", func(u engine.UI) { u.SetWidget("w1", []string{}, engine.WidgetOptions{}) },
			`{"type":"extension_ui_request","id":"x","method":"setWidget","widgetKey":"w1","widgetLines":[]}`},
		{"widget clear", func(u engine.UI) { u.SetWidget("w1", nil, engine.WidgetOptions{}) },
			`{"type":"extension_ui_request","id":"x","method":"setWidget","widgetKey":"w1"}`},
		{"title", func(u engine.UI) { u.SetTitle("pi - test") },
			`{"type":"extension_ui_request","id":"x","method":"setTitle","title":"pi - test"}`},
		{"editor text", func(u engine.UI) { u.SetEditorText("prefill\u2028text") },
			"{\"type\":\"extension_ui_request\",\"id\":\"x\",\"method\":\"set_editor_text\",\"text\":\"prefill\u2028text\"}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			b := NewUIBridge(NewWriter(&buf))
			b.newID = func() string { return "x" }
			c.call(b)
			require.Equal(t, c.want+"\n", buf.String())
			require.Zero(t, b.Pending())
		})
	}
}

func TestUIDefaultIDsAreUUIDv4(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	b := NewUIBridge(NewWriter(&buf))
	b.SetTitle("a")
	b.SetTitle("b")
	var ids []string
	for _, l := range Lines(&buf) {
		var r struct{ ID string }
		require.NoError(t, json.Unmarshal(l, &r))
		require.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, r.ID)
		ids = append(ids, r.ID)
	}
	require.Len(t, ids, 2)
	require.NotEqual(t, ids[0], ids[1])
	require.True(t, b.HasUI())
	require.Equal(t, "rpc", b.Mode())
}

// dialogResult is what one dialog call returned, whatever its kind.
type dialogResult struct {
	value string
	ok    bool
}

func runDialog(ctx context.Context, u engine.UI, method string, o engine.DialogOptions) dialogResult {
	switch method {
	case "select":
		v, ok := u.Select(ctx, "Pick one", []string{"A", "B"}, o)
		return dialogResult{v, ok}
	case "confirm":
		ok := u.Confirm(ctx, "Sure?", "Really do it?", o)
		return dialogResult{"", ok}
	case "input":
		v, ok := u.Input(ctx, "Name?", "placeholder here", o)
		return dialogResult{v, ok}
	case "editor":
		v, ok := u.Editor(ctx, "Edit", "line1\nline2")
		return dialogResult{v, ok}
	}
	panic(method)
}

func TestUIDialogs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		method  string
		timeout int64
		answer  string // the reply's fields after the id
		want    dialogResult
		request string
	}{
		{"select value", "select", 0, `,"value":"B"`, dialogResult{"B", true},
			`{"type":"extension_ui_request","id":"id-1","method":"select","title":"Pick one","options":["A","B"]}`},
		{"select with timeout answered", "select", 60000, `,"value":"A"`, dialogResult{"A", true},
			`{"type":"extension_ui_request","id":"id-1","method":"select","title":"Pick one","options":["A","B"],"timeout":60000}`},
		{"select cancelled", "select", 0, `,"cancelled":true`, dialogResult{}, ""},
		{"select cancelled wins over value", "select", 0, `,"value":"A","cancelled":true`, dialogResult{}, ""},
		{"select cancelled false then value", "select", 0, `,"cancelled":false,"value":"A"`, dialogResult{"A", true}, ""},
		{"select cancelled truthy number", "select", 0, `,"cancelled":1,"value":"A"`, dialogResult{}, ""},
		{"select without value", "select", 0, ``, dialogResult{}, ""},
		{"select wrong kind", "select", 0, `,"confirmed":true`, dialogResult{}, ""},
		{"select null value", "select", 0, `,"value":null`, dialogResult{}, ""},
		{"select number value", "select", 0, `,"value":3`, dialogResult{}, ""},
		{"select empty string", "select", 0, `,"value":""`, dialogResult{"", true}, ""},
		{"confirm true", "confirm", 0, `,"confirmed":true`, dialogResult{"", true},
			`{"type":"extension_ui_request","id":"id-1","method":"confirm","title":"Sure?","message":"Really do it?"}`},
		{"confirm false", "confirm", 0, `,"confirmed":false`, dialogResult{}, ""},
		{"confirm cancelled", "confirm", 0, `,"cancelled":true,"confirmed":true`, dialogResult{}, ""},
		{"confirm wrong kind", "confirm", 0, `,"value":"yes"`, dialogResult{}, ""},
		{"confirm with timeout", "confirm", 5000, `,"confirmed":true`, dialogResult{"", true},
			`{"type":"extension_ui_request","id":"id-1","method":"confirm","title":"Sure?","message":"Really do it?","timeout":5000}`},
		{"input value", "input", 0, `,"value":"text\u2028x"`, dialogResult{"text\u2028x", true},
			`{"type":"extension_ui_request","id":"id-1","method":"input","title":"Name?","placeholder":"placeholder here"}`},
		{"input cancelled", "input", 0, `,"cancelled":true`, dialogResult{}, ""},
		{"editor value", "editor", 0, `,"value":"edited\ntext"`, dialogResult{"edited\ntext", true},
			`{"type":"extension_ui_request","id":"id-1","method":"editor","title":"Edit","prefill":"line1\nline2"}`},
		{"editor cancelled", "editor", 0, `,"cancelled":true`, dialogResult{}, ""},
		{"editor wrong kind", "editor", 0, `,"confirmed":true`, dialogResult{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cl := newUIClient(t, func(req map[string]any) string {
				// An unknown id first: it must be ignored.
				return reply("not-a-real-id", `,"value":"zzz","confirmed":true`)
			})
			// Answer the real id from the test goroutine after the request
			// has been seen, to exercise the cross-goroutine hand-off.
			go func() {
				req := <-cl.reqs
				cl.bridge.HandleResponse(json.RawMessage(reply(req["id"], c.answer)))
			}()
			got := runDialog(context.Background(), cl.bridge, c.method, engine.DialogOptions{TimeoutMs: c.timeout})
			require.Equal(t, c.want, got)
			require.Zero(t, cl.bridge.Pending())
			if c.request != "" {
				require.Equal(t, []string{c.request}, cl.recorded())
			}
		})
	}
}

func TestUIDialogOptionalFieldsOmitted(t *testing.T) {
	t.Parallel()
	cl := newUIClient(t, func(req map[string]any) string { return reply(req["id"], `,"cancelled":true`) })
	_, _ = cl.bridge.Input(context.Background(), "Name?", "", engine.DialogOptions{})
	_, _ = cl.bridge.Editor(context.Background(), "Edit", "")
	_, _ = cl.bridge.Select(context.Background(), "Empty", nil, engine.DialogOptions{})
	require.Equal(t, []string{
		`{"type":"extension_ui_request","id":"id-1","method":"input","title":"Name?"}`,
		`{"type":"extension_ui_request","id":"id-2","method":"editor","title":"Edit"}`,
		`{"type":"extension_ui_request","id":"id-3","method":"select","title":"Empty","options":[]}`,
	}, cl.recorded())
}

func TestUIDialogTimeout(t *testing.T) {
	t.Parallel()
	for _, method := range []string{"select", "confirm", "input"} {
		t.Run(method, func(t *testing.T) {
			t.Parallel()
			cl := newUIClient(t, nil) // never answers
			got := runDialog(context.Background(), cl.bridge, method, engine.DialogOptions{TimeoutMs: 5})
			require.Equal(t, dialogResult{}, got)
			require.Zero(t, cl.bridge.Pending())
			req := <-cl.reqs
			require.EqualValues(t, 5, req["timeout"])
			// A late answer is ignored and does not block.
			cl.bridge.HandleResponse(json.RawMessage(reply(req["id"], `,"value":"A","confirmed":true`)))
			require.Zero(t, cl.bridge.Pending())
		})
	}
}

func TestUIDialogContextCancel(t *testing.T) {
	t.Parallel()
	for _, method := range []string{"select", "confirm", "input"} {
		t.Run(method+" while waiting", func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			cl := newUIClient(t, func(map[string]any) string { cancel(); return "" })
			got := runDialog(ctx, cl.bridge, method, engine.DialogOptions{})
			require.Equal(t, dialogResult{}, got)
			require.Zero(t, cl.bridge.Pending())
			require.Len(t, cl.recorded(), 1)
		})
		t.Run(method+" already cancelled", func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			cl := newUIClient(t, nil)
			got := runDialog(ctx, cl.bridge, method, engine.DialogOptions{TimeoutMs: 1000})
			require.Equal(t, dialogResult{}, got)
			cl.bridge.SetTitle("marker") // flushes the pipe: the marker must be the only record
			<-cl.reqs
			require.Equal(t, []string{`{"type":"extension_ui_request","id":"id-1","method":"setTitle","title":"marker"}`}, cl.recorded())
		})
	}
	t.Run("editor ignores cancellation", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		cl := newUIClient(t, func(req map[string]any) string { return reply(req["id"], `,"value":"kept"`) })
		v, ok := cl.bridge.Editor(ctx, "Edit", "")
		require.True(t, ok)
		require.Equal(t, "kept", v)
	})
}

func TestUIMalformedResponsesIgnored(t *testing.T) {
	t.Parallel()
	cl := newUIClient(t, nil)
	go func() {
		req := <-cl.reqs
		for _, bad := range []string{`not json`, `[]`, `{"type":"extension_ui_response"}`, `{"type":"extension_ui_response","id":7}`, `null`} {
			cl.bridge.HandleResponse(json.RawMessage(bad))
		}
		cl.bridge.HandleResponse(json.RawMessage(reply(req["id"], `,"value":"ok"`)))
	}()
	v, ok := cl.bridge.Input(context.Background(), "t", "", engine.DialogOptions{})
	require.Equal(t, dialogResult{"ok", true}, dialogResult{v, ok})
}

func TestUIConcurrentDialogs(t *testing.T) {
	t.Parallel()
	const n = 32
	// The client collects all requests, then answers them in reverse order
	// with each dialog's own title, so a mix-up of ids shows.
	cl := newUIClient(t, nil)
	go func() {
		var reqs []map[string]any
		for range n {
			reqs = append(reqs, <-cl.reqs)
		}
		for i := len(reqs) - 1; i >= 0; i-- {
			cl.bridge.HandleResponse(json.RawMessage(reply(reqs[i]["id"], fmt.Sprintf(`,"value":%q`, reqs[i]["title"]))))
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			title := fmt.Sprintf("dialog %d", i)
			v, ok := cl.bridge.Input(context.Background(), title, "", engine.DialogOptions{})
			if !ok || v != title {
				errs <- fmt.Errorf("dialog %d got %q %v", i, v, ok)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	require.Zero(t, cl.bridge.Pending())
}

func TestUICancelAll(t *testing.T) {
	t.Parallel()
	cl := newUIClient(t, nil)
	res := make(chan dialogResult, 2)
	go func() { v, ok := cl.bridge.Editor(context.Background(), "e", ""); res <- dialogResult{v, ok} }()
	go func() {
		res <- dialogResult{"", cl.bridge.Confirm(context.Background(), "c", "m", engine.DialogOptions{})}
	}()
	<-cl.reqs
	<-cl.reqs
	cl.bridge.CancelAll()
	require.Equal(t, dialogResult{}, <-res)
	require.Equal(t, dialogResult{}, <-res)
	require.Zero(t, cl.bridge.Pending())
}

func TestUIPromptCallbacks(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var events []string
	cl := newUIClient(t, nil)
	cl.bridge.OnPromptStart = func(kind, title string) {
		mu.Lock()
		events = append(events, "start "+kind+" "+title)
		mu.Unlock()
	}
	cl.bridge.OnPromptEnd = func(kind, title string) {
		mu.Lock()
		events = append(events, "end "+kind+" "+title)
		mu.Unlock()
	}
	// The outer select stays open while a nested confirm is answered; only
	// the outer dialog fires the callbacks.
	go func() {
		byMethod := map[string]map[string]any{}
		for range 2 {
			r := <-cl.reqs
			byMethod[r["method"].(string)] = r
		}
		outer, inner := byMethod["select"], byMethod["confirm"]
		cl.bridge.HandleResponse(json.RawMessage(reply(inner["id"], `,"confirmed":true`)))
		cl.bridge.HandleResponse(json.RawMessage(reply(outer["id"], `,"value":"A"`)))
	}()
	innerDone := make(chan bool)
	started := make(chan struct{})
	go func() {
		<-started
		innerDone <- cl.bridge.Confirm(context.Background(), "inner", "m", engine.DialogOptions{})
	}()
	cl.bridge.OnPromptStart = wrapStart(cl.bridge.OnPromptStart, started)
	v, ok := cl.bridge.Select(context.Background(), "outer", []string{"A"}, engine.DialogOptions{})
	require.True(t, <-innerDone)
	require.Equal(t, dialogResult{"A", true}, dialogResult{v, ok})
	// An already-cancelled dialog still fires both callbacks, as the
	// reference's wrapper runs before the abort check.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = cl.bridge.Input(ctx, "gone", "", engine.DialogOptions{})
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []string{"start select outer", "end select outer", "start input gone", "end input gone"}, events)
}

// wrapStart signals started after the first start callback, so the nested
// dialog opens only once the outer one is showing.
func wrapStart(f func(kind, title string), started chan struct{}) func(kind, title string) {
	var once sync.Once
	return func(kind, title string) {
		f(kind, title)
		once.Do(func() { close(started) })
	}
}
