package builtins

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// newGroupAttr starts the shell in a new process group, so that a console
// interrupt meant for pi does not reach it and killGroup can end its tree.
func newGroupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// killGroup ends the process and its descendants. Windows has no process
// groups to signal, so taskkill walks the tree (/T) and forces it (/F);
// when taskkill cannot run, the process itself is killed.
func killGroup(pid int) {
	if err := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run(); err != nil {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
}
