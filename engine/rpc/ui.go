package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/pi-go/pi/engine"
)

// UIBridge is engine.UI in RPC mode: every ctx.ui call becomes an
// extension_ui_request record on the protocol stream, and the four dialog
// methods block until the client answers with an extension_ui_response
// carrying the same id (routed here through HandleResponse), the dialog's
// timeout expires, or its context is cancelled.
//
// OnPromptStart and OnPromptEnd, when set, are called around every
// outermost dialog with the dialog kind ("select", "confirm", "input",
// "editor") and its title. The extension host turns them into the
// ui_prompt_start/ui_prompt_end extension events; they are not wire
// records. Nested dialogs (a dialog opened while another is showing) do
// not fire them again, as in the reference. Set them before the first
// dialog; they are called on the dialog's goroutine.
type UIBridge struct {
	OnPromptStart func(kind, title string)
	OnPromptEnd   func(kind, title string)

	w     *Writer
	newID func() string

	mu      sync.Mutex
	pending map[string]chan map[string]json.RawMessage
	depth   int
	active  promptInfo
}

type promptInfo struct{ kind, title string }

var _ engine.UI = (*UIBridge)(nil)

// NewUIBridge returns a bridge writing its requests to w.
func NewUIBridge(w *Writer) *UIBridge {
	return &UIBridge{
		w:       w,
		newID:   uuid.NewString,
		pending: map[string]chan map[string]json.RawMessage{},
	}
}

// HandleResponse takes one extension_ui_response record as the client sent
// it. A reply whose id matches no pending dialog (unknown, already
// answered, timed out or cancelled) is ignored, as is a record that is not
// an object with a string id. It never blocks.
func (b *UIBridge) HandleResponse(raw json.RawMessage) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return
	}
	var id string
	if err := json.Unmarshal(fields["id"], &id); err != nil {
		return
	}
	b.mu.Lock()
	ch, ok := b.pending[id]
	if ok {
		delete(b.pending, id)
	}
	b.mu.Unlock()
	if ok {
		// The channel has room for exactly one reply and only the goroutine
		// that removed the id from the map sends on it.
		ch <- fields
	}
}

// Pending reports how many dialogs are waiting for an answer.
func (b *UIBridge) Pending() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.pending)
}

// CancelAll resolves every waiting dialog with its default value, as if
// the client had cancelled it. The RPC server calls it on shutdown so
// extension code blocked in a dialog can finish.
func (b *UIBridge) CancelAll() {
	b.mu.Lock()
	chans := b.pending
	b.pending = map[string]chan map[string]json.RawMessage{}
	b.mu.Unlock()
	for _, ch := range chans {
		ch <- map[string]json.RawMessage{"cancelled": json.RawMessage("true")}
	}
}

// Select asks the client to choose one of options.
func (b *UIBridge) Select(ctx context.Context, title string, options []string, o engine.DialogOptions) (string, bool) {
	if options == nil {
		options = []string{}
	}
	req := newRecord("select").add("title", title).add("options", options)
	addTimeout(req, o.TimeoutMs)
	reply := b.dialog(ctx, "select", title, req, o.TimeoutMs)
	return stringValue(reply)
}

// Confirm asks a yes/no question; anything but an explicit
// "confirmed":true is false.
func (b *UIBridge) Confirm(ctx context.Context, title, message string, o engine.DialogOptions) bool {
	req := newRecord("confirm").add("title", title).add("message", message)
	addTimeout(req, o.TimeoutMs)
	reply := b.dialog(ctx, "confirm", title, req, o.TimeoutMs)
	if reply == nil || cancelled(reply) {
		return false
	}
	return bytes.Equal(bytes.TrimSpace(reply["confirmed"]), []byte("true"))
}

// Input asks for one line of text. An empty placeholder is omitted.
func (b *UIBridge) Input(ctx context.Context, title, placeholder string, o engine.DialogOptions) (string, bool) {
	req := newRecord("input").add("title", title)
	if placeholder != "" {
		req.add("placeholder", placeholder)
	}
	addTimeout(req, o.TimeoutMs)
	reply := b.dialog(ctx, "input", title, req, o.TimeoutMs)
	return stringValue(reply)
}

// Editor asks for multi-line text. Like the reference it has neither a
// timeout nor cancellation: only the client's answer (or CancelAll)
// resolves it. An empty prefill is omitted.
func (b *UIBridge) Editor(_ context.Context, title, prefill string) (string, bool) {
	req := newRecord("editor").add("title", title)
	if prefill != "" {
		req.add("prefill", prefill)
	}
	reply := b.dialog(context.Background(), "editor", title, req, 0)
	return stringValue(reply)
}

// Notify shows a message; an empty notifyType is omitted (the client
// treats that as "info").
func (b *UIBridge) Notify(message, notifyType string) {
	r := newRecord("notify").add("message", message)
	if notifyType != "" {
		r.add("notifyType", notifyType)
	}
	b.send(r)
}

// SetStatus sets or, with nil text, clears a status entry.
func (b *UIBridge) SetStatus(key string, text *string) {
	r := newRecord("setStatus").add("statusKey", key)
	if text != nil {
		r.add("statusText", *text)
	}
	b.send(r)
}

// SetWidget sets or, with nil lines, clears a widget. An empty (non-nil)
// slice is sent as [] as the reference sends an empty array.
func (b *UIBridge) SetWidget(key string, lines []string, o engine.WidgetOptions) {
	r := newRecord("setWidget").add("widgetKey", key)
	if lines != nil {
		r.add("widgetLines", lines)
	}
	if o.Placement != "" {
		r.add("widgetPlacement", o.Placement)
	}
	b.send(r)
}

// SetTitle sets the client's window title.
func (b *UIBridge) SetTitle(title string) { b.send(newRecord("setTitle").add("title", title)) }

// SetEditorText replaces the client's editor text (pasteToEditor maps here
// too).
func (b *UIBridge) SetEditorText(text string) {
	b.send(newRecord("set_editor_text").add("text", text))
}

// HasUI is true in RPC mode: dialogs reach the client.
func (b *UIBridge) HasUI() bool { return true }

// Mode is "rpc".
func (b *UIBridge) Mode() string { return "rpc" }

// dialog emits req and waits for its answer. It returns nil when the dialog
// resolved with its default: ctx already done (no request is written),
// ctx cancelled or timeout expired while waiting, or the record could not
// be written.
func (b *UIBridge) dialog(ctx context.Context, kind, title string, req *record, timeoutMs int64) map[string]json.RawMessage {
	b.promptStart(kind, title)
	defer b.promptEnd()
	if ctx.Err() != nil {
		return nil
	}
	id := b.newID()
	req.id = id
	ch := make(chan map[string]json.RawMessage, 1)
	b.mu.Lock()
	b.pending[id] = ch
	b.mu.Unlock()
	// The id is registered before the request is written so that an answer
	// arriving right after the write always finds it.
	if err := b.w.WriteRecord(req); err != nil {
		b.forget(id)
		return nil
	}
	var timeout <-chan time.Time
	if timeoutMs != 0 {
		t := time.NewTimer(time.Duration(max(timeoutMs, 0)) * time.Millisecond)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case reply := <-ch:
		return reply
	case <-ctx.Done():
	case <-timeout:
	}
	b.forget(id)
	return nil
}

// forget drops a pending id so a late answer is ignored.
func (b *UIBridge) forget(id string) {
	b.mu.Lock()
	delete(b.pending, id)
	b.mu.Unlock()
}

func (b *UIBridge) send(r *record) {
	r.id = b.newID()
	// Fire-and-forget: a write error is kept by the Writer and reported by
	// the server; the extension has nothing to do about it.
	_ = b.w.WriteRecord(r)
}

func (b *UIBridge) promptStart(kind, title string) {
	b.mu.Lock()
	outer := b.depth == 0
	b.depth++
	if outer {
		b.active = promptInfo{kind, title}
	}
	cb := b.OnPromptStart
	b.mu.Unlock()
	if outer && cb != nil {
		cb(kind, title)
	}
}

func (b *UIBridge) promptEnd() {
	b.mu.Lock()
	b.depth--
	last := b.depth <= 0
	p := b.active
	if last {
		b.depth = 0
		b.active = promptInfo{}
	}
	cb := b.OnPromptEnd
	b.mu.Unlock()
	if last && cb != nil {
		cb(p.kind, p.title)
	}
}

// stringValue reads a select/input/editor answer: a truthy "cancelled"
// wins, then a string "value"; anything else (no value, null, a number, a
// confirm-style reply) is the default.
func stringValue(reply map[string]json.RawMessage) (string, bool) {
	if reply == nil || cancelled(reply) {
		return "", false
	}
	raw, ok := reply["value"]
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// cancelled applies JavaScript truthiness to the reply's "cancelled" key,
// because the reference tests it with a plain `if`.
func cancelled(reply map[string]json.RawMessage) bool {
	raw, ok := reply["cancelled"]
	if !ok {
		return false
	}
	return jsTruthy(raw)
}

func jsTruthy(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	switch raw[0] {
	case 'n', 'f':
		return false // null, false
	case '"':
		return len(raw) > 2
	case '{', '[', 't':
		return true
	default:
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil {
			return false
		}
		return f != 0
	}
}

func addTimeout(r *record, ms int64) {
	if ms != 0 {
		r.add("timeout", ms)
	}
}

// record is one extension_ui_request in the reference's key order:
// type, id, method, then the method's own fields in insertion order.
type record struct {
	id     string
	method string
	keys   []string
	vals   []any
}

func newRecord(method string) *record { return &record{method: method} }

func (r *record) add(k string, v any) *record {
	r.keys = append(r.keys, k)
	r.vals = append(r.vals, v)
	return r
}

// MarshalJSON writes the record with engine.MarshalJSON's escaping.
func (r *record) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"extension_ui_request","id":`)
	for i, v := range append([]any{r.id, r.method}, r.vals...) {
		if i == 1 {
			b.WriteString(`,"method":`)
		} else if i > 1 {
			k, _ := engine.MarshalJSON(r.keys[i-2])
			b.WriteByte(',')
			b.Write(k)
			b.WriteByte(':')
		}
		enc, err := engine.MarshalJSON(v)
		if err != nil {
			return nil, err
		}
		b.Write(enc)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
