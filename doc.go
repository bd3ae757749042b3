// Package pi is the pi coding agent as a Go library: the same assembly the
// `pi` command runs, for programs that embed it.
//
// New builds a complete agent from Options whose zero value is what `pi`
// does in the current directory: the user's settings (global, then the
// trusted project's), models.json and auth.json (stored logins are used
// and refreshed), provider headers, AGENTS.md and SYSTEM.md, skills,
// prompt templates, TypeScript extensions, the built-in tools, compaction
// and retry. Each field overrides one part: the working and agent
// directories, in-memory settings (config.FromMaps), the model, the tool
// list, extra Go tools (NewTool), extension paths, an in-memory or seeded
// session store (session.InMemory, session.InMemoryWith), a UI for the
// extensions' dialogs.
//
//	agent, err := pi.New(ctx, pi.Options{Model: "anthropic/claude-sonnet-4-5"})
//	if err != nil { … }
//	defer agent.Close()
//	for ev, err := range agent.Run(ctx, "Summarise this repository") {
//		…
//	}
//
// The Agent is the session controller every face of pi uses (print, JSON
// and RPC modes; the terminal UI will be one more): it owns the active
// session and replaces it (NewSession, SwitchSession, Fork, Clone,
// Reload), queues messages (Steer, FollowUp), runs user shell commands
// (RunBash), and exports HTML (ExportHTML). Subscribe follows the active
// session across replacements. Session files are listed with
// session.List and session.ListAll.
//
// For a host that keeps its own history, engine.RunLoop runs the agent
// loop statelessly over a message list.
//
// The packages underneath: engine (domain types and the agent loop),
// engine/llm/* (one package per provider wire API), engine/session (the
// JSONL session tree), engine/config (settings, models, credentials),
// engine/compaction, builtins (the built-in tools), prompts and skills
// (system prompt, context files, templates, skills), jsruntime (the
// TypeScript extension host), engine/rpc (the RPC and JSON wire).
package pi
