//go:build unix

package builtins

import "syscall"

// newGroupAttr starts the shell in a process group of its own, so that
// killGroup reaches everything it spawned.
func newGroupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the whole process group, falling back to the process.
func killGroup(pid int) {
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
