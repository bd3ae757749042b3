//go:build !linux

package prompts

import "os"

// ReadDir is os.ReadDir; the Linux version allocates less.
func ReadDir(dir string) ([]os.DirEntry, error) { return os.ReadDir(dir) }

// ReadDirEntries is ReadDir as names and types.
func ReadDirEntries(dir string) ([]DirEntry, error) {
	ents, err := os.ReadDir(dir)
	out := make([]DirEntry, len(ents))
	for i, e := range ents {
		out[i] = DirEntry{Name: e.Name(), Type: e.Type()}
	}
	return out, err
}
