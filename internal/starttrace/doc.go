// Package starttrace prints how long each start-up step took, to stderr,
// when PI_TRACE_STARTUP is set. It exists to keep the start path
// measurable: the RPC-ready budget is a few milliseconds and each step
// must show its cost. Both the command and the root package mark steps,
// so the clock lives here, shared.
package starttrace
