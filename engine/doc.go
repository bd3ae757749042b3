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
// # Tool arguments
//
// ValidateToolArgs (validate*.go) coerces and checks a tool call's
// arguments against the tool's JSON Schema before the tool runs, with the
// reference's rules and its error text word for word, because the model
// reads that text and retries from it. It is our own code, not a JSON
// Schema library, for three reasons. The messages and their order (one
// per failing keyword, a union blamed on the branch the model most likely
// meant, a dangling $ref failing only where it stands) come from walking
// the schema the way the reference does, which a library's error tree
// does not give; the coercion passes walk the same keywords and $refs. And
// start time: santhosh-tekuri/jsonschema/v6, the candidate, compiles the
// meta-schemas of all its drafts in its init, 9.9 ms and 1.7 MB of heap
// on every start of a hello world, plus golang.org/x/text's message
// catalogs. testdata/validate_golden.json holds the reference's answers
// for every keyword and rule (testdata/validate-golden.mjs records them).
//
// engine never imports jsruntime, builtins, prompts, skills or engine/rpc:
// cmd/pi wires them together.
package engine
