package login

import (
	"os/exec"
	"runtime"
)

// OpenBrowser starts the platform's URL opener (open on macOS, the
// url.dll handler on Windows, xdg-open elsewhere) and does not wait for
// it, as the reference does. A missing or failing opener is no error:
// every caller also shows the URL, so it only costs a click.
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
	// The working directory of a removed folder (or a WSL path Windows
	// cannot see) makes some openers fail.
	cmd.Dir = "/"
	if cmd.Start() == nil {
		go func() { _ = cmd.Wait() }()
	}
}
