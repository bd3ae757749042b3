// Package tui holds end-to-end tests of pi's interactive mode: the built
// binary runs in a pseudo-terminal (creack/pty) whose output feeds a
// terminal emulator (x/vt), against the in-process mock LLM
// (internal/mockllm). Tests type keys and wait for text on the emulated
// screen; waits are bounded, nothing asserts on time.
package tui
