package engine

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/internal/jsonx"
	"github.com/pi-go/pi/internal/utf16x"
)

// The limits of the nested-call record a tool result carries, the
// reference's: arguments over the per-call or the total size are left
// out (their size is kept), calls past the count are dropped, and either
// marks the record incomplete.
const (
	nestedMaxCalls           = 256
	nestedMaxArgBytesPerCall = 8 * 1024
	nestedMaxArgBytesTotal   = 32 * 1024
	nestedMaxErrorChars      = 500
)

// nestedRecorder collects the calls one model-issued tool call makes of
// other tools (at any depth) for the nestedCalls of its result message:
// names, arguments, status, duration and error, never results. It is
// safe for concurrent use, since a script's calls run side by side.
type nestedRecorder struct {
	mu         sync.Mutex
	calls      []*nestedCall
	incomplete bool
	argBytes   int
}

type nestedCall struct {
	id, name   string
	status     string
	args       json.RawMessage
	argsBytes  int
	durationMs int64
	err        string
	started    time.Time
}

// start records a call as it starts; nil when the record is full.
func (r *nestedRecorder) start(id, name string, args json.RawMessage) *nestedCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.calls) >= nestedMaxCalls {
		r.incomplete = true
		return nil
	}
	c := &nestedCall{id: id, name: name, status: "unfinished", started: time.Now()}
	// The size counted is that of the compact JSON, as the reference
	// measures JSON.stringify of the arguments.
	var buf bytes.Buffer
	if json.Compact(&buf, args) == nil && buf.Len() > 0 {
		args = buf.Bytes()
	} else {
		args = json.RawMessage("{}")
	}
	n := len(args)
	if n > nestedMaxArgBytesPerCall || r.argBytes+n > nestedMaxArgBytesTotal {
		c.argsBytes = n
		r.incomplete = true
	} else {
		c.args = args
		r.argBytes += n
	}
	r.calls = append(r.calls, c)
	return c
}

// finish records how a call ended.
func (r *nestedRecorder) finish(c *nestedCall, res ToolResult) {
	if c == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c.status = "ok"
	if res.IsError {
		c.status = "error"
		var texts []string
		for _, b := range res.Content {
			if b.Type == ContentText {
				texts = append(texts, b.Text)
			}
		}
		c.err, _ = utf16x.Cut(strings.Join(texts, "\n"), nestedMaxErrorChars)
	}
	c.durationMs = time.Since(c.started).Round(time.Millisecond).Milliseconds()
}

// snapshot is the record as the result message's nestedCalls, or nil
// when no nested call was made.
func (r *nestedRecorder) snapshot() json.RawMessage {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.calls) == 0 && !r.incomplete {
		return nil
	}
	complete := !r.incomplete
	calls := make([]any, 0, len(r.calls))
	for _, c := range r.calls {
		o := jsonx.Object{}.Set("id", c.id).Set("name", c.name).Set("status", c.status)
		if c.args != nil {
			o = o.Set("arguments", c.args)
		} else {
			o = o.Set("argumentsBytes", c.argsBytes)
		}
		if c.status == "unfinished" {
			complete = false
		} else {
			o = o.Set("durationMs", c.durationMs)
		}
		if c.err != "" {
			o = o.Set("error", c.err)
		}
		calls = append(calls, o)
	}
	b, err := MarshalJSON(jsonx.Object{}.Set("calls", calls).Set("complete", complete))
	if err != nil {
		return nil
	}
	return b
}
