package mistral

import (
	"strconv"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// toolCallIDLength is the exact length Mistral requires of a tool-call id.
const toolCallIDLength = 9

// alnum keeps only ASCII letters and digits.
func alnum(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// deriveToolCallID maps any id to nine alphanumeric characters: an id that
// already is nine once stripped of other characters is kept (first
// attempt only); anything else is hashed, with the attempt number mixed in
// to resolve collisions.
func deriveToolCallID(id string, attempt int) string {
	norm := alnum(id)
	if attempt == 0 && len(norm) == toolCallIDLength {
		return norm
	}
	seed := norm
	if seed == "" {
		seed = id
	}
	if attempt > 0 {
		seed += ":" + strconv.Itoa(attempt)
	}
	h := alnum(llm.ShortHash(seed))
	if len(h) > toolCallIDLength {
		h = h[:toolCallIDLength]
	}
	return h
}

// idNormalizer hands out Mistral ids for one request, keeping the mapping
// one to one: two different original ids never share a Mistral id.
type idNormalizer struct {
	fwd  map[string]string
	back map[string]string
}

func newIDNormalizer() *idNormalizer {
	return &idNormalizer{fwd: map[string]string{}, back: map[string]string{}}
}

func (n *idNormalizer) id(orig string) string {
	if v, ok := n.fwd[orig]; ok {
		return v
	}
	for attempt := 0; ; attempt++ {
		cand := deriveToolCallID(orig, attempt)
		if owner, ok := n.back[cand]; !ok || owner == orig {
			n.fwd[orig] = cand
			n.back[cand] = orig
			return cand
		}
	}
}

// normalizeToolCallIDs rewrites the ids of tool calls made by another
// model (and of their results) to Mistral's form, as the reference does
// before building a request. Calls this same model made already have
// Mistral ids and are left alone. The input is not modified.
func normalizeToolCallIDs(m *engine.Model, msgs []*engine.Message) []*engine.Message {
	n := newIDNormalizer()
	return llm.RenameToolCallIDs(m, msgs, func(_ *engine.Message, id string) string { return n.id(id) })
}
