//go:build linux && !(amd64 || arm64)

package prompts

import "golang.org/x/sys/unix"

// fstatatRaw is unix.Fstatat; see sys_fast_linux.go for why it exists.
func fstatatRaw(dirfd int, rel string, st *unix.Stat_t, flags int) error {
	return unix.Fstatat(dirfd, rel, st, flags)
}
