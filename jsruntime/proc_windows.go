package jsruntime

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// groupAttr starts a child in a new process group, so that a console
// interrupt meant for pi does not reach it.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// signalGroup ends the child and its descendants: Windows has no signals
// to send, so every signal terminates, through taskkill's tree walk when
// it can run and the process handle otherwise (as Node's kill does).
func signalGroup(pid int, _ syscall.Signal) error {
	if err := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run(); err == nil {
		return nil
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// writeFD writes to a raw socket handle.
func writeFD(fd uintptr, b []byte) (int, error) { return syscall.Write(syscall.Handle(fd), b) }

// signals are the names child_process.kill accepts; Windows knows no
// SIGUSR1 or SIGUSR2.
var signals = map[string]syscall.Signal{"SIGTERM": syscall.SIGTERM, "SIGKILL": syscall.SIGKILL, "SIGINT": syscall.SIGINT, "SIGHUP": syscall.SIGHUP, "SIGQUIT": syscall.SIGQUIT}
