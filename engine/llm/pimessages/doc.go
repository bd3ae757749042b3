// Package pimessages is the wire adapter for the "pi-messages" API, the
// protocol of the Radius gateway (and of any backend that speaks it through a
// models.json provider with "api": "pi-messages").
//
// Unlike the other adapters it translates almost nothing: the request is one
// POST of {model, context, options} to {baseUrl}/messages, where context is
// pi's own transcript (its leading system message carries the prompt and the
// tool declarations), and the response is a server-sent-event stream whose
// data lines are pi's own assistant-message events, ending with a "done" or
// "error" event that carries the stop reason, usage and response metadata.
// The adapter checks each event's content index, rebuilds the partial message
// from the events and passes them on.
package pimessages
