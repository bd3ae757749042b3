package mcp

import (
	"os"

	"golang.org/x/term"
)

// isTerminal reports a reader that is a terminal (not /dev/null, which
// is a character device too).
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
