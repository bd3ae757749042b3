//go:build unix && !(linux && (amd64 || arm64))

package prompts

import "syscall"

// openRaw is syscall.Open; see sys_fast_linux.go for why it exists.
func openRaw(path string, flags int) (int, error) { return syscall.Open(path, flags, 0) }
