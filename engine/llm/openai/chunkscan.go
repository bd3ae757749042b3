package openai

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// scanChunk decodes one streamed chunk in a single pass, without
// reflection, and reports whether it could. It accepts only input whose
// result it knows to be exactly what encoding/json gives (the chunk, and
// the top-level "error" member chunkError reads): valid JSON, keys spelled
// exactly, each key once, and the expected type for every field it keeps.
// Anything else (a key in another case, which encoding/json would match,
// an escaped key, a number where a string belongs, a syntax error) returns
// false and the caller takes the encoding/json path, so the fast path
// never changes a result. A streamed reply is mostly chunks of one short
// delta: encoding/json validated each twice and decoded it twice (once for
// the error check), which was over half of the CPU of a streamed reply.
func scanChunk(data []byte, ch *chunk, topErr *json.RawMessage) bool {
	s := chunkScanner{b: data}
	s.ws()
	if !s.peek('{') {
		return false
	}
	var seen uint8
	ok := s.object(func(key string) bool {
		var bit uint8
		switch key {
		case "id":
			bit = 1
		case "model":
			bit = 2
		case "usage":
			bit = 4
		case "choices":
			bit = 8
		case "error":
			bit = 16
		default:
			return !foldsTo(key, "id", "model", "usage", "choices", "error") && s.skip(0)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		switch bit {
		case 1:
			return s.str(&ch.ID)
		case 2:
			return s.str(&ch.Model)
		case 4:
			return s.raw(&ch.Usage)
		case 8:
			return s.choices(ch)
		default:
			return s.raw(topErr)
		}
	})
	if !ok {
		return false
	}
	s.ws()
	return s.i == len(s.b)
}

// foldsTo reports whether key equals one of names in another letter case,
// which encoding/json would match to that field.
func foldsTo(key string, names ...string) bool {
	// Keys reach here plain ASCII, and every name is lower case: only a
	// key with an upper-case letter can fold to one.
	upper := false
	for i := 0; i < len(key); i++ {
		if c := key[i]; c >= 'A' && c <= 'Z' {
			upper = true
			break
		}
	}
	if !upper {
		return false
	}
	for _, n := range names {
		if len(key) == len(n) && strings.EqualFold(key, n) {
			return true
		}
	}
	return false
}

// maxScanDepth bounds the nesting the scanner follows; deeper values go to
// encoding/json, which has its own limit.
const maxScanDepth = 64

type chunkScanner struct {
	b []byte
	i int
}

func (s *chunkScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *chunkScanner) peek(c byte) bool { return s.i < len(s.b) && s.b[s.i] == c }

// object reads an object at s.i, calling member with each key; member
// reads the value. Keys with escapes or non-ASCII bytes are refused.
func (s *chunkScanner) object(member func(key string) bool) bool {
	s.i++ // '{'
	s.ws()
	if s.peek('}') {
		s.i++
		return true
	}
	for {
		s.ws()
		start, end, plain, ok := s.stringAt()
		if !ok || !plain {
			return false
		}
		s.ws()
		if !s.peek(':') {
			return false
		}
		s.i++
		s.ws()
		// The key is not kept past the call, so no copy is needed.
		if !member(unsafeString(s.b[start:end])) {
			return false
		}
		s.ws()
		if s.peek(',') {
			s.i++
			continue
		}
		if s.peek('}') {
			s.i++
			return true
		}
		return false
	}
}

// stringAt reads a string at s.i and returns the bounds of its contents;
// plain is false when it has an escape or a byte outside ASCII.
func (s *chunkScanner) stringAt() (start, end int, plain, ok bool) {
	if !s.peek('"') {
		return 0, 0, false, false
	}
	s.i++
	start = s.i
	plain = true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			end = s.i
			s.i++
			return start, end, plain, true
		case c < 0x20:
			return 0, 0, false, false
		case c == '\\':
			plain = false
			s.i++
			if s.i >= len(s.b) {
				return 0, 0, false, false
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if s.i+4 >= len(s.b) || !isHex(s.b[s.i+1]) || !isHex(s.b[s.i+2]) || !isHex(s.b[s.i+3]) || !isHex(s.b[s.i+4]) {
					return 0, 0, false, false
				}
				s.i += 5
			default:
				return 0, 0, false, false
			}
		case c >= 0x80:
			plain = false
			s.i++
		default:
			s.i++
		}
	}
	return 0, 0, false, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// str reads a string field (null leaves it as it is, as encoding/json
// does). A string with escapes, or with bytes that are not valid UTF-8,
// is decoded by encoding/json for its exact rules.
func (s *chunkScanner) str(dst *string) bool {
	if s.literal("null") {
		return true
	}
	q := s.i
	start, end, plain, ok := s.stringAt()
	if !ok {
		return false
	}
	if plain || utf8.Valid(s.b[start:end]) && !hasByte(s.b[start:end], '\\') {
		*dst = string(s.b[start:end])
		return true
	}
	return json.Unmarshal(s.b[q:s.i], dst) == nil
}

func hasByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// raw keeps any value's bytes, as a json.RawMessage field does (null
// included).
func (s *chunkScanner) raw(dst *json.RawMessage) bool {
	start := s.i
	if !s.skip(0) {
		return false
	}
	*dst = append(json.RawMessage(nil), s.b[start:s.i]...)
	return true
}

// choices reads the choices array: null leaves it nil, [] is empty.
func (s *chunkScanner) choices(ch *chunk) bool {
	if s.literal("null") {
		ch.Choices = nil
		return true
	}
	if !s.peek('[') {
		return false
	}
	s.i++
	ch.Choices = ch.Choices[:0]
	if ch.Choices == nil {
		ch.Choices = make([]choice, 0, 1)
	}
	s.ws()
	if s.peek(']') {
		s.i++
		return true
	}
	for {
		s.ws()
		ch.Choices = append(ch.Choices, choice{})
		c := &ch.Choices[len(ch.Choices)-1]
		switch {
		case s.literal("null"):
		case s.peek('{'):
			if !s.choice(c) {
				return false
			}
		default:
			return false
		}
		s.ws()
		if s.peek(',') {
			s.i++
			continue
		}
		if s.peek(']') {
			s.i++
			return true
		}
		return false
	}
}

func (s *chunkScanner) choice(c *choice) bool {
	var seen uint8
	return s.object(func(key string) bool {
		var bit uint8
		switch key {
		case "delta":
			bit = 1
		case "finish_reason":
			bit = 2
		case "usage":
			bit = 4
		default:
			return !foldsTo(key, "delta", "finish_reason", "usage") && s.skip(1)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		switch bit {
		case 1:
			if s.literal("null") {
				return true
			}
			return s.peek('{') && s.delta(&c.Delta)
		case 2:
			if s.literal("null") {
				c.FinishReason = nil
				return true
			}
			var r string
			if !s.peek('"') || !s.str(&r) {
				return false
			}
			c.FinishReason = &r
			return true
		default:
			return s.raw(&c.Usage)
		}
	})
}

func (s *chunkScanner) delta(d *delta) bool {
	var seen uint8
	return s.object(func(key string) bool {
		var bit uint8
		var dst *json.RawMessage
		switch key {
		case "content":
			bit, dst = 1, &d.Content
		case "reasoning_content":
			bit, dst = 2, &d.ReasoningContent
		case "reasoning":
			bit, dst = 4, &d.Reasoning
		case "reasoning_text":
			bit, dst = 8, &d.ReasoningText
		case "tool_calls":
			bit, dst = 16, &d.ToolCalls
		default:
			return !foldsTo(key, "content", "reasoning_content", "reasoning", "reasoning_text", "tool_calls") && s.skip(2)
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return s.raw(dst)
	})
}

// literal consumes word when it is next.
func (s *chunkScanner) literal(word string) bool {
	if len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}

// skip validates and passes over one value.
func (s *chunkScanner) skip(depth int) bool {
	if depth > maxScanDepth || s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object(func(string) bool { return s.skip(depth + 1) })
	case c == '[':
		s.i++
		s.ws()
		if s.peek(']') {
			s.i++
			return true
		}
		for {
			s.ws()
			if !s.skip(depth + 1) {
				return false
			}
			s.ws()
			if s.peek(',') {
				s.i++
				continue
			}
			if s.peek(']') {
				s.i++
				return true
			}
			return false
		}
	case c == '"':
		_, _, _, ok := s.stringAt()
		// Invalid UTF-8 inside a skipped or raw string is kept as it is,
		// as encoding/json keeps a RawMessage's bytes.
		return ok
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return false
}

// number passes over a number in JSON's grammar.
func (s *chunkScanner) number() bool {
	if s.peek('-') {
		s.i++
	}
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	switch {
	case s.peek('0'):
		s.i++
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		digits()
	default:
		return false
	}
	if s.peek('.') {
		s.i++
		if digits() == 0 {
			return false
		}
	}
	if s.peek('e') || s.peek('E') {
		s.i++
		if s.peek('+') || s.peek('-') {
			s.i++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// unsafeString views b as a string without copying, for a key that is only
// compared while b is alive and unchanged.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
