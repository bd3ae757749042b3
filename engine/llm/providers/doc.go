// Package providers maps a model's wire API to its adapter: the one table
// of every engine/llm package, for the agent and for embedders that run
// engine.RunLoop or a Session themselves.
package providers
