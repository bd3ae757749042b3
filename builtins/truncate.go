package builtins

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/pi-go/pi/internal/jsonx"
	"github.com/pi-go/pi/internal/utf16x"
)

// Limits shared by every tool: whichever is hit first wins.
const (
	DefaultMaxLines = 2000
	DefaultMaxBytes = 51200
	// GrepMaxLineLength is the number of UTF-16 units grep keeps of a line.
	GrepMaxLineLength = 500
)

// Truncation describes what a truncation helper kept. Its JSON form is the
// reference's truncation record, which tools put into their details.
type Truncation struct {
	Content               string
	Truncated             bool
	TruncatedBy           string // "", "lines" or "bytes"
	TotalLines            int
	TotalBytes            int
	OutputLines           int
	OutputBytes           int
	LastLinePartial       bool
	FirstLineExceedsLimit bool
	MaxLines              int
	MaxBytes              int
}

// MarshalJSON writes the record in the reference's key order, with
// truncatedBy null when nothing was cut.
func (t Truncation) MarshalJSON() ([]byte, error) {
	var by any
	if t.TruncatedBy != "" {
		by = t.TruncatedBy
	}
	return marshalOrdered(
		"content", t.Content,
		"truncated", t.Truncated,
		"truncatedBy", by,
		"totalLines", t.TotalLines,
		"totalBytes", t.TotalBytes,
		"outputLines", t.OutputLines,
		"outputBytes", t.OutputBytes,
		"lastLinePartial", t.LastLinePartial,
		"firstLineExceedsLimit", t.FirstLineExceedsLimit,
		"maxLines", t.MaxLines,
		"maxBytes", t.MaxBytes,
	)
}

// TruncateOptions overrides the default limits; zero means the default.
type TruncateOptions struct {
	MaxLines int
	MaxBytes int
}

func (o TruncateOptions) limits() (int, int) {
	ml, mb := o.MaxLines, o.MaxBytes
	if ml <= 0 {
		ml = DefaultMaxLines
	}
	if mb <= 0 {
		mb = DefaultMaxBytes
	}
	return ml, mb
}

// splitLinesForCounting splits on \n; a trailing \n adds no line.
func splitLinesForCounting(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if strings.HasSuffix(s, "\n") {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func untruncated(s string, lines, maxLines, maxBytes int) Truncation {
	return Truncation{Content: s, TotalLines: lines, TotalBytes: len(s), OutputLines: lines,
		OutputBytes: len(s), MaxLines: maxLines, MaxBytes: maxBytes}
}

// TruncateHead keeps whole lines from the start, up to the line and byte
// limits. If the first line alone is over the byte limit nothing is kept
// and FirstLineExceedsLimit is set.
func TruncateHead(s string, opts TruncateOptions) Truncation {
	maxLines, maxBytes := opts.limits()
	lines := splitLinesForCounting(s)
	if len(lines) <= maxLines && len(s) <= maxBytes {
		return untruncated(s, len(lines), maxLines, maxBytes)
	}
	t := Truncation{Truncated: true, TotalLines: len(lines), TotalBytes: len(s), MaxLines: maxLines, MaxBytes: maxBytes}
	if len(lines[0]) > maxBytes {
		t.TruncatedBy = "bytes"
		t.FirstLineExceedsLimit = true
		return t
	}
	return keepHead(t, lines, maxLines, maxBytes)
}

// keepHead fills t with the whole lines from the start that fit both
// limits (the joining newlines count) and says which limit cut them.
func keepHead(t Truncation, lines []string, maxLines, maxBytes int) Truncation {
	n, size := 0, 0
	by := "lines"
	for i := 0; i < len(lines) && i < maxLines; i++ {
		lb := len(lines[i])
		if i > 0 {
			lb++ // the joining newline counts
		}
		if size+lb > maxBytes {
			by = "bytes"
			break
		}
		n++
		size += lb
	}
	if n >= maxLines && size <= maxBytes {
		by = "lines"
	}
	t.Content = strings.Join(lines[:n], "\n")
	t.TruncatedBy = by
	t.OutputLines = n
	t.OutputBytes = len(t.Content)
	return t
}

// TruncateTail keeps whole lines from the end. Only when the last line
// alone is over the byte limit does it keep that line's tail bytes, cut at
// a UTF-8 boundary (LastLinePartial).
func TruncateTail(s string, opts TruncateOptions) Truncation {
	maxLines, maxBytes := opts.limits()
	lines := splitLinesForCounting(s)
	if len(lines) <= maxLines && len(s) <= maxBytes {
		return untruncated(s, len(lines), maxLines, maxBytes)
	}
	t := Truncation{Truncated: true, TotalLines: len(lines), TotalBytes: len(s), MaxLines: maxLines, MaxBytes: maxBytes}
	var kept []string
	size := 0
	by := "lines"
	for i := len(lines) - 1; i >= 0 && len(kept) < maxLines; i-- {
		lb := len(lines[i])
		if len(kept) > 0 {
			lb++
		}
		if size+lb > maxBytes {
			by = "bytes"
			if len(kept) == 0 {
				part := tailBytes(lines[i], maxBytes)
				kept = append(kept, part)
				size = len(part)
				t.LastLinePartial = true
			}
			break
		}
		kept = append(kept, lines[i])
		size += lb
	}
	if len(kept) >= maxLines && size <= maxBytes {
		by = "lines"
	}
	for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
		kept[i], kept[j] = kept[j], kept[i]
	}
	t.Content = strings.Join(kept, "\n")
	t.TruncatedBy = by
	t.OutputLines = len(kept)
	t.OutputBytes = len(t.Content)
	return t
}

// tailBytes returns at most the last max bytes of s, starting on a rune
// boundary.
func tailBytes(s string, max int) string {
	if len(s) <= max {
		return s
	}
	start := len(s) - max
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[start:]
}

// TruncateLine cuts line to maxChars UTF-16 units (never splitting a
// surrogate pair) and appends "... [truncated]"; maxChars <= 0 means
// GrepMaxLineLength. The bool reports whether it cut.
func TruncateLine(line string, maxChars int) (string, bool) {
	if maxChars <= 0 {
		maxChars = GrepMaxLineLength
	}
	if kept, cut := utf16x.Cut(line, maxChars); cut {
		return kept + "... [truncated]", true
	}
	return line, false
}

// FormatSize prints a byte count as the reference does: "512B", "50.0KB",
// "1.5MB".
func FormatSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1024*1024:
		return jsFixed1(float64(n)/1024) + "KB"
	default:
		return jsFixed1(float64(n)/(1024*1024)) + "MB"
	}
}

// jsFixed1 formats like Number.prototype.toFixed(1).
// JavaScript rounds a tie up, where Go's %.1f rounds it to even; sizes
// divided by powers of two are exact in binary, so ties are real here.
func jsFixed1(f float64) string {
	tenths := int64(math.Floor(f*10 + 0.5))
	return fmt.Sprintf("%d.%d", tenths/10, tenths%10)
}

// marshalOrdered writes a JSON object from key/value pairs in order (the
// one ordered-JSON writer, jsonx.Object). Nil values are written as null;
// use omit to drop a key.
func marshalOrdered(kv ...any) ([]byte, error) {
	var o jsonx.Object
	for i := 0; i+1 < len(kv); i += 2 {
		if _, skip := kv[i+1].(omitted); skip {
			continue
		}
		o = o.Set(kv[i].(string), kv[i+1])
	}
	if o == nil {
		return []byte("{}"), nil
	}
	return o.MarshalJSON()
}

// omitted marks a key marshalOrdered leaves out, like an undefined value.
type omitted struct{}

var omit = omitted{}

// mustJSON marshals ordered pairs, for values that cannot fail to encode.
func mustJSON(kv ...any) json.RawMessage {
	b, err := marshalOrdered(kv...)
	if err != nil {
		panic(err)
	}
	return b
}
