// Package rpc is pi's JSONL wire layer on stdout: the single writer that
// owns the process's standard output, JSON mode's header-then-events
// stream, and the RPC protocol server (`pi --mode rpc`).
//
// Every record is one JavaScript-style JSON object followed by "\n"
// (engine.MarshalJSON keeps the reference's key order and escaping).
// Clients parse stdout line by line, so nothing else may ever write to it:
// TakeOverStdout moves the real stdout aside and points file descriptor 1
// at stderr, so stray prints from libraries or tool code cannot corrupt the
// protocol stream.
//
// The Server reads records with LineReader, decodes them with Decode and
// answers every command exactly once through the Writer, in the
// reference's response shapes. Commands that wait (prompting, abort, bash,
// compaction, session switches) run concurrently, as the reference's
// handlers do, so their responses may come out of order; everything else is
// answered in arrival order. Every event of the current session is
// forwarded as it happens; while a prompt is being accepted, events are
// held so that its response precedes the run's first event. Session
// switches replace the engine.Session through the Host, which cmd/pi
// implements. Hooks (ExtensionCommands, OnUIResponse, ExportHTML, Compact,
// Sessions) are how other packages plug in without rpc importing them.
package rpc
