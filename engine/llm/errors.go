package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/utf16x"
)

// MaxErrorBodyChars caps the body part of an error message, as the
// reference does, so a huge HTML error page does not flood the transcript.
const MaxErrorBodyChars = 4000

// Messages the reference uses for failures that are not HTTP errors.
// Clients and the retry logic match on these strings.
const (
	ErrAborted         = "Request was aborted"
	ErrNoFinishReason  = "Stream ended without finish_reason"
	ErrProviderStopErr = "Provider returned an error stop reason"
)

// FormatHTTPError renders a failed HTTP response the way the reference
// does for OpenAI-style APIs: "<status>: <JSON of body.error>" when the body
// is a JSON object whose "error" is a non-empty object (key order kept). A
// body that is not JSON gives "<status> <text>"; JSON without a usable
// "error" object gives the SDK's own wording, e.g. "<status> status code
// (no body)".
func FormatHTTPError(status int, body []byte) string {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return fmt.Sprintf("%d status code (no body)", status)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &top); err != nil {
		if !json.Valid(trimmed) {
			return fmt.Sprintf("%d %s", status, TruncateText(string(body), MaxErrorBodyChars))
		}
		// Valid JSON but not an object (an array, a string): the SDK finds
		// no "error" field.
		return fmt.Sprintf("%d status code (no body)", status)
	}
	errRaw, ok := top["error"]
	if !ok || string(errRaw) == "null" {
		return fmt.Sprintf("%d status code (no body)", status)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, errRaw); err != nil {
		return fmt.Sprintf("%d status code (no body)", status)
	}
	errJSON := compact.Bytes()
	var obj map[string]json.RawMessage
	if json.Unmarshal(errRaw, &obj) == nil && len(obj) > 0 {
		return fmt.Sprintf("%d: %s", status, TruncateText(string(errJSON), MaxErrorBodyChars))
	}
	// "error" is a string, number or empty object: the SDK puts its message
	// (or its JSON) after the status and no body is extracted.
	if msg, ok := obj["message"]; ok {
		var s string
		if json.Unmarshal(msg, &s) == nil {
			return fmt.Sprintf("%d %s", status, s)
		}
	}
	return fmt.Sprintf("%d %s", status, errJSON)
}

// TruncateText cuts an error body as the reference does: past max
// UTF-16 code units (JavaScript's string length) the rest is replaced by
// "... [truncated N chars]", N counted in the same units. A surrogate pair
// at the cut is kept whole, as a Go string cannot hold half of one.
func TruncateText(s string, max int) string {
	kept, dropped, cut := utf16x.Truncate(s, max)
	if !cut {
		return s
	}
	return kept + "... [truncated " + strconv.Itoa(dropped) + " chars]"
}

// FailRequest ends a request that failed before it was sent (no key, no
// provider, a refused credential): it emits the error event and returns
// the error message. errorFirst puts errorMessage where a failure before
// the request puts it in the reference's session lines; an extension's
// complete() failure has the ordinary layout.
func FailRequest(req *engine.LLMRequest, err error, emit func(engine.AssistantEvent), errorFirst bool) *engine.Message {
	msg := &engine.Message{
		Role: engine.RoleAssistant, API: req.Model.API, Provider: req.Model.Provider, Model: req.Model.ID,
		StopReason: engine.StopError, ErrorMessage: err.Error(), Content: engine.Contents{Blocks: []engine.Content{}},
		Timestamp: time.Now().UnixMilli(), ErrorFirst: errorFirst,
	}
	emit(engine.AssistantEvent{Type: "error", Reason: engine.StopError, Partial: msg})
	return msg
}
