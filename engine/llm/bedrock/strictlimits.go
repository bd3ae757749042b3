package bedrock

import (
	"strings"
	"sync"
)

// strictLimitMessages are the texts with which Claude rejects a request
// whose strict tools exceed its limits (about 20 strict tools, or 16
// optional or union-typed parameters across them).
var strictLimitMessages = []string{
	"The compiled grammar is too large",
	"Too many strict tools (",
	"Schemas contains too many parameters with union types (",
}

func isStrictToolLimitError(message string) bool {
	for _, m := range strictLimitMessages {
		if strings.Contains(message, m) {
			return true
		}
	}
	return false
}

// maxStrictLimitSessions bounds the set; a forgotten session only pays
// one more rejection.
const maxStrictLimitSessions = 10000

// overStrictLimits holds the sessions whose strict tools were rejected:
// their later requests send preferred-strict tools non-strict at once,
// since the tool set rarely changes and switching back would miss the
// prompt cache.
var overStrictLimits = struct {
	sync.Mutex
	set   map[string]bool
	order []string
}{}

func markStrictLimitsExceeded(sessionID string) {
	if sessionID == "" {
		return
	}
	s := &overStrictLimits
	s.Lock()
	defer s.Unlock()
	if s.set[sessionID] {
		return
	}
	if s.set == nil {
		s.set = map[string]bool{}
	}
	s.set[sessionID] = true
	s.order = append(s.order, sessionID)
	if len(s.order) > maxStrictLimitSessions {
		delete(s.set, s.order[0])
		s.order = s.order[1:]
	}
}

func strictLimitsExceeded(sessionID string) bool {
	if sessionID == "" {
		return false
	}
	s := &overStrictLimits
	s.Lock()
	defer s.Unlock()
	return s.set[sessionID]
}
