package builtins

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// structuredOutputMaxBytes bounds structuredContent.output of bash.
const structuredOutputMaxBytes = 1024 * 1024

// outputAccumulator collects streamed command output with bounded memory:
// a decoded rolling tail for display, line and byte counts of the whole
// stream, and a temp file with every raw byte once the output is too big
// to show whole.
type outputAccumulator struct {
	maxLines, maxBytes, maxRolling int
	prefix                         string

	pending            []byte // an incomplete UTF-8 sequence carried over
	raw                [][]byte
	tail               string
	tailAtLineBoundary bool
	totalRaw           int
	totalDecoded       int
	completedLines     int
	totalLines         int
	currentLineBytes   int
	hasOpenLine        bool
	finished           bool

	tempPath string
	tempFile *os.File
	tempErr  error
}

func newOutputAccumulator(prefix string) *outputAccumulator {
	return &outputAccumulator{maxLines: DefaultMaxLines, maxBytes: DefaultMaxBytes,
		maxRolling: 2 * DefaultMaxBytes, prefix: prefix, tailAtLineBoundary: true}
}

func (a *outputAccumulator) append(data []byte) {
	a.totalRaw += len(data)
	a.appendText(a.decode(data, false))
	if a.tempFile != nil || a.shouldUseTempFile() {
		a.ensureTempFile()
		a.writeTemp(data)
	} else if len(data) > 0 {
		a.raw = append(a.raw, data)
	}
}

func (a *outputAccumulator) finish() {
	if a.finished {
		return
	}
	a.finished = true
	a.appendText(a.decode(nil, true))
	if a.shouldUseTempFile() {
		a.ensureTempFile()
	}
}

// decode turns bytes into text like a streaming TextDecoder: invalid
// bytes become U+FFFD and an incomplete trailing sequence waits for the
// next chunk (or becomes U+FFFD at the end).
func (a *outputAccumulator) decode(data []byte, final bool) string {
	b := append(a.pending, data...)
	a.pending = nil
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			if !final && !utf8.FullRune(b) {
				a.pending = append([]byte(nil), b...)
				break
			}
			sb.WriteRune(utf8.RuneError)
			b = b[1:]
			continue
		}
		sb.Write(b[:n])
		b = b[n:]
	}
	return sb.String()
}

func (a *outputAccumulator) appendText(text string) {
	if text == "" {
		return
	}
	a.totalDecoded += len(text)
	a.tail += text
	if len(a.tail) > a.maxRolling*2 {
		start := len(a.tail) - a.maxRolling
		for start < len(a.tail) && !utf8.RuneStart(a.tail[start]) {
			start++
		}
		if start > 0 {
			a.tailAtLineBoundary = a.tail[start-1] == '\n'
		}
		a.tail = a.tail[start:]
	}
	if n := strings.Count(text, "\n"); n == 0 {
		a.currentLineBytes += len(text)
		a.hasOpenLine = true
	} else {
		a.completedLines += n
		rest := text[strings.LastIndexByte(text, '\n')+1:]
		a.currentLineBytes = len(rest)
		a.hasOpenLine = rest != ""
	}
	a.totalLines = a.completedLines
	if a.hasOpenLine {
		a.totalLines++
	}
}

func (a *outputAccumulator) shouldUseTempFile() bool {
	return a.totalRaw > a.maxBytes || a.totalDecoded > a.maxBytes || a.totalLines > a.maxLines
}

// newOutputFile creates <tmpdir>/<prefix>-<16 hex>.log exclusively, mode
// 0600, so nobody else's file or link is ever followed.
func newOutputFile(prefix string) (*os.File, string, error) {
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return nil, "", err
	}
	path := filepath.Join(os.TempDir(), prefix+"-"+hex.EncodeToString(rnd[:])+".log")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	return f, path, err
}

func (a *outputAccumulator) ensureTempFile() {
	if a.tempPath != "" || a.tempErr != nil {
		return
	}
	f, path, err := newOutputFile(a.prefix)
	if err != nil {
		a.tempErr = err
		return
	}
	a.tempFile, a.tempPath = f, path
	for _, c := range a.raw {
		a.writeTemp(c)
	}
	a.raw = nil
}

func (a *outputAccumulator) writeTemp(b []byte) {
	if a.tempFile == nil {
		return
	}
	if _, err := a.tempFile.Write(b); err != nil {
		a.tempErr = err
	}
}

func (a *outputAccumulator) closeTempFile() error {
	if a.tempFile == nil {
		return nil
	}
	err := a.tempFile.Close()
	a.tempFile = nil
	return err
}

// snapshot is the tail-truncated view of everything so far. The
// truncation record describes the whole stream, not only the tail kept in
// memory.
func (a *outputAccumulator) snapshot(persist bool) (Truncation, string) {
	text := a.tail
	if !a.tailAtLineBoundary {
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = text[i+1:]
		}
	}
	t := TruncateTail(text, TruncateOptions{MaxLines: a.maxLines, MaxBytes: a.maxBytes})
	truncated := a.totalLines > a.maxLines || a.totalDecoded > a.maxBytes
	by := ""
	if truncated {
		by = t.TruncatedBy
		if by == "" {
			if a.totalDecoded > a.maxBytes {
				by = "bytes"
			} else {
				by = "lines"
			}
		}
	}
	t.Truncated, t.TruncatedBy = truncated, by
	t.TotalLines, t.TotalBytes = a.totalLines, a.totalDecoded
	if persist && truncated {
		a.ensureTempFile()
	}
	return t, a.tempPath
}

// fullOutput is the whole output, keeping the first and last halves of
// max bytes around an omission marker when it is longer.
func (a *outputAccumulator) fullOutput(max int) (string, bool, error) {
	if a.tempPath == "" {
		var sb strings.Builder
		for _, c := range a.raw {
			sb.Write(c)
		}
		return decodeWhole([]byte(sb.String())), false, nil
	}
	f, err := os.Open(a.tempPath)
	if err != nil {
		return "", false, fmt.Errorf("bash: read full output: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", false, fmt.Errorf("bash: read full output: %w", err)
	}
	size := int(st.Size())
	if size <= max {
		b, err := io.ReadAll(f)
		if err != nil {
			return "", false, fmt.Errorf("bash: read full output: %w", err)
		}
		return decodeWhole(b), false, nil
	}
	headN := max / 2
	tailN := max - headN
	head := make([]byte, headN)
	tail := make([]byte, tailN)
	if _, err := f.ReadAt(head, 0); err != nil {
		return "", false, fmt.Errorf("bash: read full output: %w", err)
	}
	if _, err := f.ReadAt(tail, int64(size-tailN)); err != nil && err != io.EOF {
		return "", false, fmt.Errorf("bash: read full output: %w", err)
	}
	// The head is decoded as a stream, so a sequence cut at its end is
	// dropped; the tail skips continuation bytes at its start.
	d := &outputAccumulator{}
	headText := d.decode(head, false)
	i := 0
	for i < len(tail) && tail[i]&0xc0 == 0x80 {
		i++
	}
	omitted := size - headN - tailN
	return fmt.Sprintf("%s\n\n[... %d bytes omitted ...]\n\n%s", headText, omitted, decodeWhole(tail[i:])), true, nil
}

func decodeWhole(b []byte) string {
	d := &outputAccumulator{}
	return d.decode(b, true)
}
