package builtins

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// resolveShell finds bash on Windows in the order docs/windows.md gives:
// shellPath, Git Bash under Program Files (64-bit, then 32-bit), then
// bash.exe on PATH. The legacy WSL launcher (System32\bash.exe) takes the
// command on stdin.
func resolveShell(custom string) (shellCmd, error) {
	if custom != "" {
		if _, err := os.Stat(custom); err != nil {
			return shellCmd{}, fmt.Errorf("Custom shell path not found: %s", custom)
		}
		return bashCmd(custom), nil
	}
	var searched []string
	for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)"} {
		if dir := os.Getenv(env); dir != "" {
			p := dir + `\Git\bin\bash.exe`
			searched = append(searched, p)
			if _, err := os.Stat(p); err == nil {
				return bashCmd(p), nil
			}
		}
	}
	if p, err := exec.LookPath("bash.exe"); err == nil {
		return bashCmd(p), nil
	}
	var b strings.Builder
	b.WriteString("No bash shell found. Any of these fixes it:\n")
	b.WriteString("  1. Install Git for Windows: https://git-scm.com/download/win\n")
	b.WriteString("  2. Put a bash (Cygwin, MSYS2, ...) on PATH\n")
	b.WriteString("  3. Set shellPath in settings.json\n\nSearched Git Bash in:")
	for _, p := range searched {
		b.WriteString("\n  " + p)
	}
	return shellCmd{}, errors.New(b.String())
}

// bashCmd runs bash with -c, or with -s and the command on stdin for the
// legacy WSL launcher.
func bashCmd(path string) shellCmd {
	if isLegacyWSLBash(path) {
		return shellCmd{path: path, args: []string{"-s"}, stdin: true}
	}
	return shellCmd{path: path, args: []string{"-c"}}
}

// isLegacyWSLBash reports whether path is %SystemRoot%\System32 (or
// Sysnative) \bash.exe, the launcher that forwards to WSL.
func isLegacyWSLBash(path string) bool {
	clean := strings.ToLower(filepath.Clean(path))
	root := os.Getenv("SystemRoot")
	if root == "" {
		root = `C:\Windows`
	}
	for _, dir := range []string{"System32", "Sysnative"} {
		if clean == strings.ToLower(filepath.Join(root, dir, "bash.exe")) {
			return true
		}
	}
	return false
}

// powerShellArgs start PowerShell without profiles or prompts, with the
// execution policy relaxed for this process only.
var powerShellArgs = []string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command"}

// resolvePowerShell finds PowerShell in the order docs/windows.md gives:
// pwsh.exe on PATH, PowerShell 7 under Program Files, powershell.exe on
// PATH, then Windows PowerShell under SystemRoot.
func resolvePowerShell() (shellCmd, error) {
	if p, err := exec.LookPath("pwsh.exe"); err == nil {
		return shellCmd{path: p, args: powerShellArgs}, nil
	}
	if dir := os.Getenv("ProgramFiles"); dir != "" {
		p := filepath.Join(dir, "PowerShell", "7", "pwsh.exe")
		if _, err := os.Stat(p); err == nil {
			return shellCmd{path: p, args: powerShellArgs}, nil
		}
	}
	if p, err := exec.LookPath("powershell.exe"); err == nil {
		return shellCmd{path: p, args: powerShellArgs}, nil
	}
	if root := os.Getenv("SystemRoot"); root != "" {
		p := filepath.Join(root, "System32", "WindowsPowerShell", "v1.0", "powershell.exe")
		if _, err := os.Stat(p); err == nil {
			return shellCmd{path: p, args: powerShellArgs}, nil
		}
	}
	return shellCmd{}, errors.New("No PowerShell executable found. Install PowerShell or add powershell.exe/pwsh.exe to PATH.")
}
