package session

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/pi-go/pi/engine"
)

// msgMeta is what a resumed session keeps in memory of a message entry
// whose body stays in the file: the tree links, and the three message
// fields the branch's state depends on (which messages count, which model
// the branch last used).
type msgMeta struct {
	id, ts                string
	parent                *string
	role, provider, model string
}

// scanMessageLine reads the index fields of a session line that is a
// plain message entry, without decoding its body: one pass over the
// bytes that checks the line is valid JSON exactly as json.Valid does,
// so a line it accepts is one the eager decoder would not have dropped as
// malformed. ok is false for anything else: another entry type, a key
// other than type, id, parentId, timestamp and message (encoding/json
// matches keys case-insensitively and keeps the last of duplicates, and
// fields our types do not know must stay where Entry would put them), a
// field of an unexpected JSON type, an escaped key. The caller then
// decodes the line eagerly, as before.
func scanMessageLine(line []byte) (m msgMeta, ok bool) {
	// The line's object and the message are the first two levels.
	s := scanner{b: line, depth: 2}
	s.ws()
	if !s.eat('{') {
		return m, false
	}
	var seen [5]bool
	s.ws()
	if s.eat('}') {
		return m, false
	}
	for {
		s.ws()
		key, ok := s.key()
		if !ok {
			return m, false
		}
		s.ws()
		if !s.eat(':') {
			return m, false
		}
		s.ws()
		slot := -1
		switch string(key) {
		case "type":
			slot = 0
			t, ok := s.str()
			if !ok || t != engine.EntryMessage {
				return m, false
			}
		case "id":
			slot = 1
			if m.id, ok = s.str(); !ok {
				return m, false
			}
		case "parentId":
			slot = 2
			if s.lit("null") {
				m.parent = nil
			} else {
				p, ok := s.str()
				if !ok {
					return m, false
				}
				m.parent = &p
			}
		case "timestamp":
			slot = 3
			if m.ts, ok = s.str(); !ok {
				return m, false
			}
		case "message":
			slot = 4
			if !s.message(&m) {
				return m, false
			}
		default:
			return m, false
		}
		if seen[slot] {
			return m, false
		}
		seen[slot] = true
		s.ws()
		if s.eat('}') {
			break
		}
		if !s.eat(',') {
			return m, false
		}
	}
	s.ws()
	if s.i != len(s.b) || !seen[0] || !seen[1] || !seen[4] {
		return m, false
	}
	return m, true
}

// maxDepth is encoding/json's nesting limit: a deeper line is invalid to
// json.Valid, so the scanner rejects it too.
const maxDepth = 10000

type scanner struct {
	b     []byte
	i     int
	depth int
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) lit(word string) bool {
	if len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}

// key reads an object key without escapes (an escaped key could spell
// one we look for).
func (s *scanner) key() ([]byte, bool) {
	start := s.i
	if !s.skipString() {
		return nil, false
	}
	k := s.b[start+1 : s.i-1]
	if bytes.IndexByte(k, '\\') >= 0 {
		return nil, false
	}
	return k, true
}

// str reads a string value and decodes it as encoding/json does.
func (s *scanner) str() (string, bool) {
	start := s.i
	if !s.skipString() {
		return "", false
	}
	return unquote(s.b[start:s.i])
}

// message scans the message object, keeping role, provider and model.
func (s *scanner) message(m *msgMeta) bool {
	if !s.eat('{') {
		return false
	}
	var seen [3]bool
	s.ws()
	if s.eat('}') {
		return true
	}
	for {
		s.ws()
		key, ok := s.key()
		if !ok {
			return false
		}
		s.ws()
		if !s.eat(':') {
			return false
		}
		s.ws()
		slot := -1
		var dst *string
		switch string(key) {
		case "role":
			slot, dst = 0, &m.role
		case "provider":
			slot, dst = 1, &m.provider
		case "model":
			slot, dst = 2, &m.model
		default:
			// A key that only folds to one we read would be read by
			// encoding/json in its place.
			if bytes.EqualFold(key, []byte("role")) || bytes.EqualFold(key, []byte("provider")) || bytes.EqualFold(key, []byte("model")) {
				return false
			}
			if !s.value() {
				return false
			}
		}
		if dst != nil {
			if seen[slot] {
				return false
			}
			seen[slot] = true
			v, ok := s.str()
			if !ok {
				return false
			}
			*dst = v
		}
		s.ws()
		if s.eat('}') {
			break
		}
		if !s.eat(',') {
			return false
		}
	}
	if m.role == "hookMessage" {
		m.role = engine.RoleCustom
	}
	return true
}

// value skips one JSON value, checking it.
func (s *scanner) value() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		return s.skipString()
	case c == '{':
		return s.object()
	case c == '[':
		return s.array()
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	return false
}

func (s *scanner) object() bool {
	s.i++
	if s.depth++; s.depth > maxDepth {
		return false
	}
	defer func() { s.depth-- }()
	s.ws()
	if s.eat('}') {
		return true
	}
	for {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != '"' || !s.skipString() {
			return false
		}
		s.ws()
		if !s.eat(':') {
			return false
		}
		s.ws()
		if !s.value() {
			return false
		}
		s.ws()
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

func (s *scanner) array() bool {
	s.i++
	if s.depth++; s.depth > maxDepth {
		return false
	}
	defer func() { s.depth-- }()
	s.ws()
	if s.eat(']') {
		return true
	}
	for {
		s.ws()
		if !s.value() {
			return false
		}
		s.ws()
		if s.eat(']') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

func (s *scanner) digits() int {
	n := 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}

// number checks JSON's number grammar.
func (s *scanner) number() bool {
	s.eat('-')
	switch {
	case s.eat('0'):
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.eat('.') && s.digits() == 0 {
		return false
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if !s.eat('+') {
			s.eat('-')
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special8 flags the bytes of x (8 bytes of a string body, little
// endian) that a string scan stops at: a quote, a backslash, a control
// character. It is the zero-byte test of "Bit Twiddling Hacks": a borrow
// can flag a byte above a real hit, never below it, so the lowest flag is
// exact.
func special8(x uint64) uint64 {
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return ((q-ones)&^q | (b-ones)&^b | (x-ones*0x20)&^x) & highs
}

// skipString moves past the string literal at s.i, checking it as
// json.Valid does: no raw control character, only JSON's escapes. Invalid
// UTF-8 is accepted, as encoding/json accepts it. Ordinary bytes are
// passed eight at a time, up to the next special one: the bodies of tool
// results are most of a session file.
func (s *scanner) skipString() bool {
	b := s.b
	i := s.i
	if i >= len(b) || b[i] != '"' {
		return false
	}
	i++
	for {
		for {
			if i+8 > len(b) {
				for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
					i++
				}
				break
			}
			if m := special8(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(b) {
			return false
		}
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return true
		case c == '\\':
			if i+1 >= len(b) {
				return false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return false
				}
				i += 6
			default:
				return false
			}
		default: // a control character
			return false
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
