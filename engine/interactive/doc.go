// Package interactive is pi's interactive mode: the terminal UI that
// opens when pi runs in a terminal without -p or --mode.
//
// It is one more face over the agent, like print and RPC mode: it
// subscribes to the agent's events (Controller.Subscribe) and turns them
// into transcript items, and it drives the agent through the operations
// Controller declares (prompt, steer, follow-up, abort, model and thinking
// changes, session replacement, user bash). *pi.Agent implements
// Controller; the package does not import the root package, so tests can
// drive it with a fake.
//
// Threading: one UI goroutine (the tui.Program's) owns every component
// and all UI state. Agent events arrive on the session's goroutines and
// are posted to it; operations that block (a prompt, bash, a session
// switch) run on their own goroutines and post their results back.
package interactive
