package rpc

import (
	"context"
	"encoding/json"
	"math"
	"unicode/utf16"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
)

// SessionStats is the get_session_stats payload in the reference's order.
type SessionStats struct {
	SessionFile       string        `json:"sessionFile,omitempty"`
	SessionID         string        `json:"sessionId"`
	UserMessages      int           `json:"userMessages"`
	AssistantMessages int           `json:"assistantMessages"`
	ToolCalls         int           `json:"toolCalls"`
	ToolResults       int           `json:"toolResults"`
	TotalMessages     int           `json:"totalMessages"`
	Tokens            TokenTotals   `json:"tokens"`
	Cost              float64       `json:"cost"`
	ContextUsage      *ContextUsage `json:"contextUsage,omitempty"`
}

// TokenTotals sums token usage over a session.
type TokenTotals struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	CacheRead  int `json:"cacheRead"`
	CacheWrite int `json:"cacheWrite"`
	Total      int `json:"total"`
}

// ContextUsage is how full the model's context is; Tokens and Percent
// are null after a compaction until a new reply reports usage.
type ContextUsage struct {
	Tokens        *int     `json:"tokens"`
	ContextWindow int      `json:"contextWindow"`
	Percent       *float64 `json:"percent"`
}

func (t *TokenTotals) add(u engine.Usage, cost *float64) {
	t.Input += u.Input
	t.Output += u.Output
	t.CacheRead += u.CacheRead
	t.CacheWrite += u.CacheWrite
	t.Total = t.Input + t.Output + t.CacheRead + t.CacheWrite
	*cost += u.Cost.Total
}

func addRawUsage(t *TokenTotals, raw json.RawMessage, cost *float64) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var u engine.Usage
	if json.Unmarshal(raw, &u) == nil {
		t.add(u, cost)
	}
}

// Stats aggregates every entry of the session file (all branches) the way
// the reference does, plus the context usage of the current branch.
func Stats(store *session.File, model *engine.Model) SessionStats {
	st := SessionStats{SessionFile: store.Path(), SessionID: store.Header().ID}
	for _, e := range store.Entries() {
		switch e.Type {
		case engine.EntryUsage, engine.EntryCompaction, engine.EntryBranchSummary:
			addRawUsage(&st.Tokens, e.Usage, &st.Cost)
		}
		if e.Type != engine.EntryMessage || e.Message == nil {
			continue
		}
		st.TotalMessages++
		m := e.Message
		switch m.Role {
		case engine.RoleUser:
			st.UserMessages++
		case engine.RoleToolResult:
			st.ToolResults++
			addRawUsage(&st.Tokens, m.ToolUsage, &st.Cost)
		case engine.RoleAssistant:
			st.AssistantMessages++
			st.ToolCalls += len(m.ToolCalls())
			st.Tokens.add(m.Usage, &st.Cost)
		}
	}
	st.ContextUsage = contextUsage(store.Branch(), model)
	return st
}

func contextTokens(u engine.Usage) int {
	if u.TotalTokens != 0 {
		return u.TotalTokens
	}
	return u.Input + u.Output + u.CacheRead + u.CacheWrite
}

func validUsage(m *engine.Message) bool {
	return m.Role == engine.RoleAssistant && m.StopReason != engine.StopAborted && m.StopReason != engine.StopError && contextTokens(m.Usage) > 0
}

func contextUsage(branch []*engine.Entry, model *engine.Model) *ContextUsage {
	if model == nil || model.ContextWindow <= 0 {
		return nil
	}
	window := model.ContextWindow
	proj := engine.ProjectContext(branch)
	lastCompaction := -1
	lastInvalidating := -1
	for i, e := range branch {
		if e.Type == engine.EntryCompaction {
			lastCompaction = i
		}
		if e.Type == engine.EntryCompaction || e.Type == engine.EntryContextEdit {
			lastInvalidating = i
		}
	}
	index := map[string]int{}
	for i, e := range branch {
		index[e.ID] = i
	}
	if lastCompaction >= 0 {
		found := false
		for _, pe := range proj {
			for _, m := range pe.Messages {
				if validUsage(m) && index[pe.Entry.ID] > lastCompaction {
					found = true
				}
			}
		}
		if !found {
			return &ContextUsage{ContextWindow: window}
		}
	}
	tokens := -1
	// The newest reply with usage measures everything up to it; later
	// messages are estimated, unless a later edit invalidated it.
	for pi := len(proj) - 1; pi >= 0 && tokens < 0; pi-- {
		pe := proj[pi]
		for mi := len(pe.Messages) - 1; mi >= 0; mi-- {
			if !validUsage(pe.Messages[mi]) {
				continue
			}
			if index[pe.Entry.ID] <= lastInvalidating {
				tokens = -2
				break
			}
			tokens = contextTokens(pe.Messages[mi].Usage)
			for _, m := range pe.Messages[mi+1:] {
				tokens += EstimateTokens(m)
			}
			for _, later := range proj[pi+1:] {
				for _, m := range later.Messages {
					tokens += EstimateTokens(m)
				}
			}
			break
		}
	}
	if tokens < 0 {
		tokens = 0
		var sys *engine.Message
		for _, pe := range proj {
			for _, m := range pe.Messages {
				if m.Role == engine.RoleSystem {
					sys = m
					continue
				}
				tokens += EstimateTokens(m)
			}
		}
		if sys != nil {
			tokens += EstimateTokens(sys)
		}
	}
	pct := float64(tokens) / float64(window) * 100
	return &ContextUsage{Tokens: &tokens, ContextWindow: window, Percent: &pct}
}

// jsLen is a string's length as JavaScript counts it (UTF-16 units).
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// estimatedImageChars is what one image counts for in estimates.
const estimatedImageChars = 4800

func contentChars(c engine.Contents) int {
	if c.IsString {
		return jsLen(c.Text())
	}
	n := 0
	for _, b := range c.Blocks {
		switch b.Type {
		case engine.ContentText:
			n += jsLen(b.Text)
		case engine.ContentImage:
			n += estimatedImageChars
		}
	}
	return n
}

// EstimateTokens is the reference's chars/4 estimate of one message.
func EstimateTokens(m *engine.Message) int {
	chars := 0
	switch m.Role {
	case engine.RoleSystem:
		chars = contentChars(m.Content)
		for _, s := range m.Sections {
			if s.Value != nil {
				chars += jsLen(*s.Value)
			}
		}
		if len(m.ToolsAdded) > 0 {
			if b, err := engine.MarshalJSON(m.ToolsAdded); err == nil {
				chars += jsLen(string(b))
			}
		}
	case engine.RoleUser, engine.RoleCustom, engine.RoleToolResult:
		chars = contentChars(m.Content)
	case engine.RoleAssistant:
		for _, b := range m.Content.Blocks {
			switch b.Type {
			case engine.ContentText:
				chars += jsLen(b.Text)
			case engine.ContentThinking:
				chars += jsLen(b.Thinking)
			case engine.ContentToolCall:
				chars += jsLen(b.Name) + jsLen(string(b.Arguments))
			}
		}
	case engine.RoleBashExecution:
		chars = jsLen(m.Command) + jsLen(m.Output)
	case engine.RoleBranchSummary, engine.RoleCompactionSummary:
		chars = jsLen(m.Summary)
	default:
		return 0
	}
	return int(math.Ceil(float64(chars) / 4))
}

func handleGetSessionStats(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, store := s.current()
	return ok(cmd, Stats(store, sess.Model()))
}
