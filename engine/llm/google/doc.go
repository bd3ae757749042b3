// Package google streams assistant messages from Google's Gemini API (wire
// API "google-generative-ai") and from Vertex AI (wire API
// "google-vertex", with an API key), as the reference does: the same URL,
// headers and request body, key for key, and the same reading of the
// server-sent GenerateContentResponse chunks into the engine's assistant
// events.
//
// The reference goes through Google's JavaScript SDK, which rewrites the
// request on its way out (it reorders the keys of parts and function
// calls, moves the system instruction and tools out of the config); the
// body built here is the one that SDK puts on the wire, so the server sees
// the same bytes. Every failure ends the stream with a message whose
// stopReason is "error" or "aborted", never with a Go error.
package google
