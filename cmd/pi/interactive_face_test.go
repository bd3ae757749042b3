package main

import (
	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/engine/interactive"
)

// The interactive mode is written against an interface; the agent must
// keep satisfying it.
var _ interactive.Controller = (*pi.Agent)(nil)
