package mcp

import (
	"os"
	"os/exec"
	"runtime"

	"golang.org/x/term"
)

// OpenBrowser starts the platform's URL opener without waiting for it;
// the URL is printed too, so a missing opener only costs a click.
func OpenBrowser(url string) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	cmd.Dir = "/"
	if cmd.Start() == nil {
		go func() { _ = cmd.Wait() }()
	}
}

// isTerminal reports a reader that is a terminal (not /dev/null, which
// is a character device too).
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
