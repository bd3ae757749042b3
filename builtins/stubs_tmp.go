package builtins

import "github.com/pi-go/pi/engine"

func NewGrep(cwd string) engine.Tool { return nil }
func NewFind(cwd string) engine.Tool { return nil }
func NewLs(cwd string) engine.Tool   { return nil }
