//go:build !linux

package prompts

import "os"

// ReadDir is os.ReadDir; the Linux version allocates less.
func ReadDir(dir string) ([]os.DirEntry, error) { return os.ReadDir(dir) }
