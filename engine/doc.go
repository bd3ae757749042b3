// Package engine holds pi's domain types and its agent runtime.
//
// The root package is the vocabulary every other package shares: messages
// and their content blocks, the events a session publishes, session-file
// entries, models and thinking levels. It also declares the small
// interfaces through which the rest of the program plugs in: Tool (built-in
// and extension tools), Provider (one adapter per wire API, in engine/llm),
// Hooks (the extension host) and UI (dialogs, implemented by RPC mode).
//
// Every type that reaches the wire (RPC, JSON mode, session files) marshals
// with the reference implementation's field names and field order, because
// clients compare records key by key. Marshalling goes through the helpers
// in jsonw.go, which write JSON the way JavaScript's JSON.stringify does.
//
// engine never imports jsruntime, builtins, prompts, skills or engine/rpc:
// cmd/pi wires them together.
package engine
