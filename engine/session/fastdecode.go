package session

import (
	"github.com/pi-go/pi/internal/jsonx"

	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/pi-go/pi/engine"
)

// longString is the length from which decodeEntry lifts a string literal
// out of a line before encoding/json sees it.
const longString = 256

// The stand-in for lifted literal N is "\u0000pl<nonce>.<N>\u0000": NUL
// can only be written escaped in JSON, and the nonce, drawn per process,
// keeps a line's own text from passing for a stand-in.
var (
	standInNonce    = strconv.FormatUint(rand.Uint64(), 36)
	placeholderJSON = `\u0000pl` + standInNonce + "."
	placeholderText = "\x00pl" + standInNonce + "."
)

// decodeEntry decodes one session line exactly as json.Unmarshal into an
// engine.Entry does, but fast on the lines that matter (tool results and
// messages with long text). encoding/json passes over every byte of a
// value once per nesting level that has its own UnmarshalJSON (entry,
// message, contents, block) plus skips for raw fields, which made a
// 200 MB resume cost seconds of CPU. Here each long string literal is
// replaced by a short stand-in, the small remaining line goes through
// json.Unmarshal (so every rule of the types applies unchanged), and the
// stand-ins found in the result are swapped back for the decoded strings
// (or, inside raw JSON fields, the original literal). Anything unusual (a
// stand-in where it cannot be swapped, text that already looks like one,
// a decode error) decodes the original line the plain way.
func decodeEntry(line []byte) (*engine.Entry, error) {
	short, lits := elideLongStrings(line)
	if lits != nil {
		e := new(engine.Entry)
		if json.Unmarshal(short, e) == nil {
			r := &restorer{lits: lits, done: make([]bool, len(lits))}
			if r.walk(reflect.ValueOf(e).Elem()) && r.complete() {
				return e, nil
			}
		}
	}
	e := new(engine.Entry)
	return e, json.Unmarshal(line, e)
}

// elideLongStrings returns line with every string value of at least
// longString bytes replaced by "\u0000pl<N>\u0000", and the literals
// replaced; lits is nil when there is nothing to replace or the line
// cannot be scanned (the caller then decodes it the plain way).
func elideLongStrings(line []byte) (short []byte, lits [][]byte) {
	last := 0
	for i := 0; i < len(line); i++ {
		q := bytes.IndexByte(line[i:], '"')
		if q < 0 {
			break
		}
		i += q
		end := closingQuote(line, i+1)
		if end < 0 {
			return nil, nil
		}
		end++ // past the closing quote
		if end-i >= longString {
			j := end
			for j < len(line) && (line[j] == ' ' || line[j] == '\t' || line[j] == '\r' || line[j] == '\n') {
				j++
			}
			if j >= len(line) || line[j] != ':' { // a value, not a key
				if short == nil {
					short = make([]byte, 0, 4096)
				}
				short = append(short, line[last:i]...)
				short = append(short, '"')
				short = append(short, placeholderJSON...)
				short = strconv.AppendInt(short, int64(len(lits)), 10)
				short = append(short, `\u0000"`...)
				lits = append(lits, line[i:end])
				last = end
			}
		}
		i = end - 1
	}
	if lits == nil {
		return nil, nil
	}
	return append(short, line[last:]...), lits
}

// closingQuote returns the index of the quote that ends the string whose
// body starts at b[i], or -1: the first quote not escaped by an odd run
// of backslashes.
func closingQuote(b []byte, i int) int {
	for {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		j := i + q
		n := 0
		for k := j - 1; k >= i && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return j
		}
		i = j + 1
	}
}

// restorer swaps stand-ins back in a decoded value.
type restorer struct {
	lits [][]byte
	done []bool
}

func (r *restorer) complete() bool {
	for _, d := range r.done {
		if !d {
			return false
		}
	}
	return true
}

// index parses a decoded stand-in ("\x00pl<N>\x00"), or returns -1.
func (r *restorer) index(s string) int {
	if len(s) < len(placeholderText)+2 || s[:len(placeholderText)] != placeholderText || s[len(s)-1] != 0 {
		return -1
	}
	n, err := strconv.Atoi(s[len(placeholderText) : len(s)-1])
	if err != nil || n < 0 || n >= len(r.lits) {
		return -1
	}
	return n
}

// text decodes literal n as json.Unmarshal would.
func (r *restorer) text(n int) (string, bool) {
	s, ok := unquote(r.lits[n])
	if ok {
		r.done[n] = true
	}
	return s, ok
}

// unquote decodes the JSON string literal lit exactly as encoding/json
// does (invalid UTF-8 and lone surrogates become U+FFFD); ok is false for
// a literal that is not valid JSON (a raw control byte, a bad escape),
// so that the caller decodes the whole line the plain way and reports the
// error encoding/json reports.
func unquote(lit []byte) (string, bool) {
	body := lit[1 : len(lit)-1]
	i := 0
	for i < len(body) {
		c := body[i]
		if c == '\\' || c < 0x20 || c == '"' {
			break
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
			continue
		}
		i++
	}
	if i == len(body) {
		return string(body), true
	}
	// A Builder grown once hands its bytes over as the string without a
	// second copy.
	var out strings.Builder
	out.Grow(len(body))
	out.Write(body[:i])
	for i < len(body) {
		c := body[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '\\' && c != '"' {
			// Copy the run up to the next escape at once when it is
			// plain ASCII, the common case between escapes.
			j := i + 1
			for j < len(body) {
				d := body[j]
				if d < 0x20 || d >= utf8.RuneSelf || d == '\\' || d == '"' {
					break
				}
				j++
			}
			out.Write(body[i:j])
			i = j
			continue
		}
		switch {
		case c == '\\':
			if i+1 >= len(body) {
				return "", false
			}
			switch body[i+1] {
			case '"', '\\', '/':
				out.WriteByte(body[i+1])
			case 'b':
				out.WriteByte('\b')
			case 'f':
				out.WriteByte('\f')
			case 'n':
				out.WriteByte('\n')
			case 'r':
				out.WriteByte('\r')
			case 't':
				out.WriteByte('\t')
			case 'u':
				r1, ok := jsonx.Hex4(body[i+2:])
				if !ok {
					return "", false
				}
				i += 6
				if utf16.IsSurrogate(r1) {
					if len(body) >= i+6 && body[i] == '\\' && body[i+1] == 'u' {
						if r2, ok := jsonx.Hex4(body[i+2:]); ok {
							if d := utf16.DecodeRune(r1, r2); d != unicode.ReplacementChar {
								out.WriteRune(d)
								i += 6
								continue
							}
						}
					}
					r1 = unicode.ReplacementChar
				}
				out.WriteRune(r1)
				continue
			default:
				return "", false
			}
			i += 2
		case c < 0x20 || c == '"':
			return "", false
		case c < utf8.RuneSelf:
			out.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				out.WriteRune(unicode.ReplacementChar)
			} else {
				out.Write(body[i : i+size])
			}
			i += size
		}
	}
	return out.String(), true
}

var rawType = reflect.TypeOf(json.RawMessage(nil))

// walk swaps the stand-ins in v; false means one sits where it cannot be
// swapped (an unexported field, a map key), or a literal failed to decode.
func (r *restorer) walk(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if len(s) < 5 || s[0] != 0 {
			return true
		}
		n := r.index(s)
		if n < 0 {
			return !containsStandIn(s)
		}
		if !v.CanSet() {
			return false
		}
		t, ok := r.text(n)
		if !ok {
			return false
		}
		v.SetString(t)
		return true
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return true
		}
		if v.Kind() == reflect.Interface {
			inner := v.Elem()
			if inner.Kind() == reflect.String {
				if r.index(inner.String()) < 0 {
					return !containsStandIn(inner.String())
				}
				if !v.CanSet() {
					return false
				}
				cp := reflect.New(inner.Type()).Elem()
				cp.Set(inner)
				if !r.walk(cp) {
					return false
				}
				v.Set(cp)
				return true
			}
			if inner.Kind() == reflect.Map || inner.Kind() == reflect.Slice || inner.Kind() == reflect.Pointer {
				return r.walk(inner)
			}
			return true
		}
		return r.walk(v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if !r.walk(v.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := v.Bytes()
			if !bytes.Contains(b, []byte(placeholderJSON)) {
				return true
			}
			if v.Type() != rawType || !v.CanSet() {
				return false
			}
			out, ok := r.restoreRaw(b)
			if !ok {
				return false
			}
			v.SetBytes(out)
			return true
		}
		for i := 0; i < v.Len(); i++ {
			if !r.walk(v.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if !r.walk(v.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if k := it.Key(); k.Kind() == reflect.String && containsStandIn(k.String()) {
				return false
			}
			cp := reflect.New(it.Value().Type()).Elem()
			cp.Set(it.Value())
			if !r.walk(cp) {
				return false
			}
			v.SetMapIndex(it.Key(), cp)
		}
		return true
	}
	return true
}

func containsStandIn(s string) bool {
	return len(s) >= len(placeholderText) && strings.Contains(s, placeholderText)
}

// restoreRaw puts the original literals back into raw JSON.
func (r *restorer) restoreRaw(b []byte) ([]byte, bool) {
	out := make([]byte, 0, len(b)+1024)
	for {
		i := bytes.Index(b, []byte(`"`+placeholderJSON))
		if i < 0 {
			return append(out, b...), true
		}
		rest := b[i+1+len(placeholderJSON):]
		j := bytes.Index(rest, []byte(`\u0000"`))
		if j < 0 {
			return nil, false
		}
		n, err := strconv.Atoi(string(rest[:j]))
		if err != nil || n < 0 || n >= len(r.lits) {
			return nil, false
		}
		if _, valid := unquote(r.lits[n]); !valid {
			return nil, false
		}
		out = append(out, b[:i]...)
		out = append(out, r.lits[n]...)
		r.done[n] = true
		b = rest[j+len(`\u0000"`):]
	}
}
