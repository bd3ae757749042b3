// Package rpc is pi's JSONL wire layer on stdout: the single writer that
// owns the process's standard output, JSON mode's header-then-events
// stream, and (in a later step) the RPC command loop that reuses it.
//
// Every record is one JavaScript-style JSON object followed by "\n"
// (engine.MarshalJSON keeps the reference's key order and escaping).
// Clients parse stdout line by line, so nothing else may ever write to it:
// TakeOverStdout moves the real stdout aside and points file descriptor 1
// at stderr, so stray prints from libraries or tool code cannot corrupt the
// protocol stream.
package rpc
