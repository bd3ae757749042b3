//go:build linux || darwin || freebsd || netbsd || openbsd

package authcmd

import "golang.org/x/sys/unix"

func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
	return err == nil
}

// noEcho turns the terminal's echo off (line editing stays) and returns
// the restore.
func noEcho(fd uintptr) func() {
	old, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
	if err != nil {
		return func() {}
	}
	quiet := *old
	quiet.Lflag &^= unix.ECHO
	quiet.Lflag |= unix.ICANON
	if unix.IoctlSetTermios(int(fd), ioctlSetTermios, &quiet) != nil {
		return func() {}
	}
	return func() { _ = unix.IoctlSetTermios(int(fd), ioctlSetTermios, old) }
}
