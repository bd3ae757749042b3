// Package builtins implements pi's built-in tools: read, bash, edit, write,
// grep, find and ls, each as an engine.Tool.
//
// The texts a tool returns (results, notices, error strings) and the shapes
// of its details are facts clients and models rely on, so they follow the
// reference byte for byte. Descriptions are our own words. The shared
// helpers (truncation, path resolution, the per-file mutation queue and the
// bash runner) are exported so the RPC layer and the extension API can
// reuse them.
package builtins
