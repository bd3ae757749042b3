package rpc

import (
	"fmt"

	"github.com/pi-go/pi/engine"
)

// JSONMode writes `pi --mode json` output: the session header first, then
// every session event as it happens.
type JSONMode struct {
	w *Writer
}

// NewJSONMode returns a JSON-mode printer on w.
func NewJSONMode(w *Writer) *JSONMode { return &JSONMode{w: w} }

// Header writes the session header line. It must be the first record.
func (j *JSONMode) Header(h engine.Header) error {
	if err := j.w.WriteRecord(h); err != nil {
		return fmt.Errorf("json mode header: %w", err)
	}
	return nil
}

// Event writes one session event; it fits Session.Subscribe directly.
// Write errors are kept in the Writer (see Writer.Err) rather than
// returned, because a subscriber has nowhere to return them to.
func (j *JSONMode) Event(e engine.Event) {
	_ = j.w.WriteEvent(e)
}
