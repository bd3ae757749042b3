//go:build unix && !linux

package builtins

import "syscall"

// mmapFlags maps a file privately; MAP_POPULATE is Linux-only.
const mmapFlags = syscall.MAP_PRIVATE
