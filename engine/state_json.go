package engine

import (
	"slices"
	"strconv"

	"github.com/pi-go/pi/internal/jsonx"
)

// MarshalJSON writes the get_state payload (see AppendJSON).
func (st SessionState) MarshalJSON() ([]byte, error) { return st.AppendJSON(nil) }

// AppendJSON writes the get_state payload in its struct's key order with
// plain appends (jsonx.Appender). Through encoding/json every answer paid
// for reflection over the struct and a second validation of the model's
// JSON; a client that polls get_state, or pipelines thousands, pays that
// per command.
func (st SessionState) AppendJSON(dst []byte) ([]byte, error) {
	// The model first, so that the record is sized once: growing it from
	// empty cost more allocations than the reflection it replaces.
	var m []byte
	if st.Model != nil {
		// The builder's encoding is valid and compact already; a model
		// kept as raw JSON is compacted as encoding/json would.
		var err error
		if len(st.Model.Raw) > 0 {
			m, err = jsonx.Marshal(st.Model.Raw)
		} else {
			m, err = st.Model.MarshalJSON()
		}
		if err != nil {
			return nil, err
		}
	}
	b := slices.Grow(dst, len(m)+len(st.SessionFile)+len(st.SessionID)+len(st.SessionName)+256)
	b = append(b, '{')
	if m != nil {
		b = append(b, `"model":`...)
		b = append(b, m...)
		b = append(b, ',')
	}
	b = append(b, `"thinkingLevel":`...)
	b = jsonx.AppendString(b, string(st.ThinkingLevel))
	b = append(b, `,"isStreaming":`...)
	b = strconv.AppendBool(b, st.IsStreaming)
	b = append(b, `,"isCompacting":`...)
	b = strconv.AppendBool(b, st.IsCompacting)
	b = append(b, `,"steeringMode":`...)
	b = jsonx.AppendString(b, st.SteeringMode)
	b = append(b, `,"followUpMode":`...)
	b = jsonx.AppendString(b, st.FollowUpMode)
	if st.SessionFile != "" {
		b = append(b, `,"sessionFile":`...)
		b = jsonx.AppendString(b, st.SessionFile)
	}
	b = append(b, `,"sessionId":`...)
	b = jsonx.AppendString(b, st.SessionID)
	if st.SessionName != "" {
		b = append(b, `,"sessionName":`...)
		b = jsonx.AppendString(b, st.SessionName)
	}
	b = append(b, `,"autoCompactionEnabled":`...)
	b = strconv.AppendBool(b, st.AutoCompactionEnabled)
	b = append(b, `,"messageCount":`...)
	b = strconv.AppendInt(b, int64(st.MessageCount), 10)
	b = append(b, `,"pendingMessageCount":`...)
	b = strconv.AppendInt(b, int64(st.PendingMessageCount), 10)
	return append(b, '}'), nil
}
