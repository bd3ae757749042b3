package mcp

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// groupAttr starts a stdio server in a new process group, so that a
// console interrupt meant for pi does not reach it.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// killGroup ends the server and its descendants: Windows has no process
// groups to signal, so taskkill walks the tree; failing that, the process
// itself is killed.
func killGroup(pid int) {
	if exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run() == nil {
		return
	}
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
