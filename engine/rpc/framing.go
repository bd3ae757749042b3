package rpc

import (
	"bufio"
	"bytes"
	"io"
)

// LineReader splits an RPC input stream into records. Records end at LF
// only: U+2028 and U+2029 are data inside JSON strings, unlike Node's
// readline. One trailing CR is stripped so CRLF clients work. A final line
// without LF is still a record. There is no line-length limit: a client may
// send a prompt with megabytes of pasted text or a large image.
type LineReader struct {
	r   *bufio.Reader
	buf []byte
}

// NewLineReader reads records from r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 64*1024)}
}

// Next returns the next record without its terminator. At the end of the
// stream it returns io.EOF; a non-empty unterminated remainder is returned
// first, with a nil error.
func (l *LineReader) Next() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		l.buf = append(l.buf, chunk...)
		if err == nil {
			line := l.buf[:len(l.buf)-1]
			return trimCR(line), nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if len(l.buf) > 0 {
				line := trimCR(l.buf)
				return line, nil
			}
			return nil, io.EOF
		}
		return nil, err
	}
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// Lines is a convenience for tests: every record of r.
func Lines(r io.Reader) [][]byte {
	lr := NewLineReader(r)
	var out [][]byte
	for {
		b, err := lr.Next()
		if err != nil {
			return out
		}
		out = append(out, bytes.Clone(b))
	}
}
