//go:build unix

package mcp

import "syscall"

// groupAttr starts a stdio server in a process group of its own, so that
// killGroup reaches what it spawned.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the server's whole process group.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
