package builtins

import (
	"bytes"
	"io"
	"os"
)

// readForGrep reads the part of the file at abs that ripgrep would search
// (rgTextEnd); when the first 64 KiB hold a NUL byte, the rest is never
// read. Windows has no openat, so files are opened by their full path
// through os. The returned slice is valid until the next call.
func (w *walkWorker) readForGrep(abs, _ string) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if cap(w.buf) < rgChunk {
		w.buf = make([]byte, rgChunk)
	}
	buf := w.buf[:cap(w.buf)]
	n, err := io.ReadFull(f, buf[:rgChunk])
	eof := err == io.EOF || err == io.ErrUnexpectedEOF
	if err != nil && !eof {
		return nil, err
	}
	if bytes.IndexByte(buf[:n], 0) >= 0 {
		return buf[:rgTextEnd(buf[:n])], nil
	}
	if !eof {
		rest, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		data := append(buf[:n:n], rest...)
		if cap(data) <= maxKeptBuf {
			w.buf = data[:cap(data)]
		}
		return data[:rgTextEnd(data)], nil
	}
	data := buf[:n]
	return data[:rgTextEnd(data)], nil
}

// release is a no-op on Windows: nothing is mapped.
func (w *walkWorker) release() { w.mapped = nil }

// openDir and closeDir keep no directory handle on Windows: files are
// opened by their full path.
func (w *walkWorker) openDir(string) { w.dirfd = -1 }

func (w *walkWorker) closeDir() {}
