//go:build linux

package prompts

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// dirBufs holds getdents buffers: 32 KiB lists a folder of a thousand
// skills in one or two calls (os.ReadDir reads 8 KiB at a time).
var dirBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// ReadDir is os.ReadDir (entries sorted by name, "." and ".." left out)
// with a handful of allocations for the whole folder instead of two or
// three per entry: the names share one string and the entries one slice.
// Start-up lists folders of a thousand skills or templates, and every
// fresh page of heap costs a page fault.
func ReadDir(dir string) ([]os.DirEntry, error) {
	list, err := ReadDirEntries(dir)
	if err != nil {
		return nil, err
	}
	ents := make([]dirEnt, len(list))
	out := make([]os.DirEntry, len(list))
	for i, e := range list {
		ents[i] = dirEnt{dir: dir, name: e.Name, typ: e.Type}
		out[i] = &ents[i]
	}
	return out, nil
}

// ReadDirEntries is ReadDir without the os.DirEntry wrapping: a name and a
// type per entry, half the bytes, for walks that only need those.
func ReadDirEntries(dir string) ([]DirEntry, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	pooled := dirBufs.Get().(*[]byte)
	defer dirBufs.Put(pooled)
	buf := *pooled
	// Each batch getdents returns is scanned twice: once to size the names
	// and entries exactly, once to fill them. The names of a batch share
	// one string; a later batch gets a string of its own rather than
	// regrowing (and copying) the first.
	var ents []DirEntry
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			break
		}
		count, size := 0, 0
		forEachDirent(buf[:n], func(name []byte, _ byte) {
			count++
			size += len(name)
		})
		names := make([]byte, 0, size)
		ents = slices.Grow(ents, count)
		forEachDirent(buf[:n], func(name []byte, typ byte) {
			off := len(names)
			names = append(names, name...)
			ents = append(ents, DirEntry{Name: unsafe.String(&names[off], len(name)), Type: direntType(typ)})
		})
	}
	for i := range ents {
		r := &ents[i]
		if r.Type == modeUnknown {
			// The file system did not say (DT_UNKNOWN): ask, as os does.
			st, err := os.Lstat(dir + string(os.PathSeparator) + ents[i].Name)
			if err != nil {
				// Gone or unreadable: neither a file nor a folder.
				ents[i].Type = fs.ModeIrregular
				continue
			}
			ents[i].Type = st.Mode().Type()
		}
	}
	slices.SortFunc(ents, func(a, b DirEntry) int { return strings.Compare(a.Name, b.Name) })
	return ents, nil
}

// forEachDirent calls fn with the name and type of each linux_dirent64
// record in b, leaving out "." and "..".
func forEachDirent(b []byte, fn func(name []byte, typ byte)) {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			return
		}
		typ := b[18]
		name := b[19:reclen]
		if i := slices.Index(name, 0); i >= 0 {
			name = name[:i]
		}
		b = b[reclen:]
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		fn(name, typ)
	}
}

// modeUnknown marks a DT_UNKNOWN entry until it is looked up.
const modeUnknown = fs.ModeIrregular | fs.ModeTemporary

func direntType(t byte) fs.FileMode {
	switch t {
	case syscall.DT_REG:
		return 0
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_SOCK:
		return fs.ModeSocket
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.DT_BLK:
		return fs.ModeDevice
	case syscall.DT_UNKNOWN:
		return modeUnknown
	}
	return fs.ModeIrregular
}

// dirEnt is one entry ReadDir found.
type dirEnt struct {
	dir, name string
	typ       fs.FileMode
}

func (e *dirEnt) Name() string      { return e.name }
func (e *dirEnt) IsDir() bool       { return e.typ.IsDir() }
func (e *dirEnt) Type() fs.FileMode { return e.typ }
func (e *dirEnt) Info() (fs.FileInfo, error) {
	return os.Lstat(e.dir + string(os.PathSeparator) + e.name)
}
func (e *dirEnt) String() string { return fs.FormatDirEntry(e) }
