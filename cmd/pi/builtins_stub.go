package main

import "github.com/pi-go/pi/engine"

// allToolNames lists every tool name that patterns may expand to.
func allToolNames() []string {
	return []string{"read", "bash", "edit", "write", "grep", "find", "ls"}
}

// toolsByName returns the built-in tools with these names. Until the
// builtins package lands there are none.
func toolsByName(cwd string, names []string) ([]engine.Tool, error) {
	return nil, nil
}
