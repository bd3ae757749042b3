//go:build !windows

package builtins

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// resolveShell picks the shell as the reference does: an explicit path,
// then /bin/bash, then bash on PATH, then sh.
func resolveShell(custom string) (shellCmd, error) {
	if custom != "" {
		if _, err := os.Stat(custom); err != nil {
			return shellCmd{}, fmt.Errorf("Custom shell path not found: %s", custom)
		}
		return shellCmd{path: custom, args: []string{"-c"}}, nil
	}
	if _, err := os.Stat("/bin/bash"); err == nil {
		return shellCmd{path: "/bin/bash", args: []string{"-c"}}, nil
	}
	if p, err := exec.LookPath("bash"); err == nil {
		return shellCmd{path: p, args: []string{"-c"}}, nil
	}
	return shellCmd{path: "sh", args: []string{"-c"}}, nil
}

// errPowerShellWindowsOnly is the powershell tool's answer outside Windows,
// the reference's wording: the tool is listed everywhere, and runs only there.
var errPowerShellWindowsOnly = errors.New("The powershell tool is only available on Windows.")

func resolvePowerShell() (shellCmd, error) { return shellCmd{}, errPowerShellWindowsOnly }
