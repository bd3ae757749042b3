package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"syscall"

	"github.com/pi-go/pi/engine/llm"
)

// Error texts of the reference that clients and the retry logic match on.
const (
	// An abort reads differently depending on when it lands: before the
	// request or while streaming, while waiting for the response, or after
	// the stream already ended.
	errAbortedReading = "This operation was aborted"
	errAbortedRequest = "Request aborted"
	errAborted        = "Request was aborted"

	errNoStopReason  = "Anthropic stream ended without a stop reason"
	errNoMessageStop = "Anthropic stream ended before message_stop"
	errRefused       = "The model refused to complete the request"
	errSensitive     = "Provider stopped with: sensitive"
	errStreamCut     = "terminated: other side closed (UND_ERR_SOCKET)"
	errConnection    = "Connection error."
)

// formatHTTPError renders a non-2xx response as the Anthropic SDK does:
// "<status> <message>" where message is the body's top-level "message", or
// the whole JSON body, or the raw text of a body that is not JSON, and
// "<status> status code (no body)" for an empty body.
func formatHTTPError(status int, body []byte) string {
	prefix := itoa(status) + " "
	text := string(body)
	var parsed any
	if err := json.Unmarshal(body, &parsed); err != nil || parsed == nil {
		if text == "" {
			return prefix + "status code (no body)"
		}
		return prefix + text
	}
	if m, ok := parsed.(map[string]any); ok {
		if msg, ok := m["message"]; ok && truthy(msg) {
			if s, ok := msg.(string); ok {
				return prefix + s
			}
			b, _ := json.Marshal(msg)
			return prefix + string(b)
		}
	}
	if !truthy(parsed) {
		return prefix + text
	}
	var compact bytes.Buffer
	if json.Compact(&compact, body) != nil {
		return prefix + text
	}
	return prefix + compact.String()
}

// truthy is JavaScript truthiness of a decoded JSON value.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case float64:
		return x != 0
	}
	return true
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// connectionError words a failure to get a response like the reference:
// "Connection error." followed by the cause, with Node's wording for a
// refused connection so retry patterns match.
func connectionError(err error) error {
	if errors.Is(err, llm.ErrHeadersTimeout) {
		// The SDK's request timeout, which the reference sets to the
		// idle timeout.
		return errors.New("Request timed out.")
	}
	return errors.New(errConnection + ": " + llm.NetCause(err))
}

// streamError words a failure while reading the body. A connection cut
// mid-stream gets Node's text, which the retry logic recognises.
func streamError(err error) error {
	if errors.Is(err, llm.ErrBodyTimeout) {
		return errors.New("terminated: " + llm.ErrBodyTimeout.Error())
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		strings.Contains(err.Error(), "connection reset") {
		return errors.New(errStreamCut)
	}
	return err
}
