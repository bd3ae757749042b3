//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package authcmd

// Without termios, login cannot read a key unseen, so it reports that it
// needs an interactive terminal.
func isTerminal(uintptr) bool { return false }

func noEcho(uintptr) func() { return func() {} }
