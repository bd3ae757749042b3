// Package faux is a scripted in-process engine.Provider for agent-loop
// tests. Each request plays the next Turn through llm.Builder, so the
// events have exactly the shapes the real providers emit, and every
// request is recorded for assertions.
package faux
