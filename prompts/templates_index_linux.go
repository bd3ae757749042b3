//go:build linux

package prompts

import (
	"errors"
	"os"
	"syscall"
)

// readIndexFile maps the index read-only instead of reading it into the
// heap. A warm start with a thousand resources looks at every record, and
// copying a few hundred KiB into fresh heap pages costs a page fault per
// 4 KiB, while the mapped pages are already in the page cache and fault in
// cheaply, several at a time.
//
// The mapping is never unmapped: skills and templates keep strings (names,
// descriptions, bodies) that point into it for the rest of the process.
// That is safe because the index is only ever replaced by a rename (Save),
// never truncated or rewritten in place, so the mapped inode keeps its
// contents. An empty or unmappable file falls back to a plain read.
func readIndexFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size <= 0 || size > 1<<30 || !st.Mode().IsRegular() {
		return os.ReadFile(path)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		if errors.Is(err, syscall.ENODEV) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EINVAL) {
			return os.ReadFile(path)
		}
		return nil, &pathError{Op: "mmap", Path: path, Err: err}
	}
	return data, nil
}
