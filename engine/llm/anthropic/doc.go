// Package anthropic streams assistant messages from the Anthropic Messages
// API (wire API "anthropic-messages"), as the reference does: the same
// request body, key for key, the same headers, and the same reading of the
// server-sent events into the engine's assistant events.
//
// The request is built by hand so that its JSON matches the reference's
// byte for byte (key order included); the SDK's SSE decoder reads the
// response. Every failure ends the stream with a message whose stopReason
// is "error" or "aborted", never with a Go error.
package anthropic
