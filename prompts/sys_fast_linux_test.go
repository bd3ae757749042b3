//go:build linux && (amd64 || arm64)

package prompts

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sys/unix"
)

// TestRawCallsMatchPackages checks that openRaw and fstatatRaw give what
// syscall.Open and unix.Fstatat give, including for paths too long for
// the stack buffer and paths holding a NUL.
func TestRawCallsMatchPackages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f.md")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	long := dir + "/" + strings.Repeat("a/", 300) + "f.md"
	cases := []struct{ name, path string }{
		{"file", file},
		{"missing", filepath.Join(dir, "nope")},
		{"directory", dir},
		{"nul", file + "\x00x"},
		{"long", long},
	}
	dfd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(dfd) })
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fd1, err1 := openRaw(tc.path, syscall.O_RDONLY|syscall.O_CLOEXEC)
			fd2, err2 := syscall.Open(tc.path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
			assert.Equal(t, err2, err1)
			assert.Equal(t, fd2 >= 0, fd1 >= 0)
			for _, fd := range []int{fd1, fd2} {
				if fd >= 0 {
					syscall.Close(fd)
				}
			}
			rel := strings.TrimPrefix(tc.path, dir+"/")
			var st1, st2 unix.Stat_t
			err1 = fstatatRaw(dfd, rel, &st1, unix.AT_SYMLINK_NOFOLLOW)
			err2 = unix.Fstatat(dfd, rel, &st2, unix.AT_SYMLINK_NOFOLLOW)
			assert.Equal(t, err2, err1)
			assert.Equal(t, st2, st1)
		})
	}
}
