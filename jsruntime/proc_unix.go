//go:build unix

package jsruntime

import "syscall"

// groupAttr starts a child in a process group of its own, so that kill()
// reaches the shell's children too.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// signalGroup signals the child's whole process group.
func signalGroup(pid int, sig syscall.Signal) error { return syscall.Kill(-pid, sig) }

// writeFD writes to a raw socket descriptor.
func writeFD(fd uintptr, b []byte) (int, error) { return syscall.Write(int(fd), b) }

// signals are the names child_process.kill accepts.
var signals = map[string]syscall.Signal{"SIGTERM": syscall.SIGTERM, "SIGKILL": syscall.SIGKILL, "SIGINT": syscall.SIGINT, "SIGHUP": syscall.SIGHUP, "SIGQUIT": syscall.SIGQUIT, "SIGUSR1": syscall.SIGUSR1, "SIGUSR2": syscall.SIGUSR2}
