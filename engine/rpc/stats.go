package rpc

import (
	"context"
	"encoding/json"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
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
	// After a compaction the last usage measured the old context, so
	// the size is unknown until a reply after it reports usage.
	lastCompaction := -1
	for i, e := range branch {
		if e.Type == engine.EntryCompaction {
			lastCompaction = i
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
	// The estimate is the compaction engine's: the newest trusted usage
	// plus an estimate of what came after, or an estimate of everything.
	tokens := compaction.ProjectedTokens(branch)
	pct := float64(tokens) / float64(window) * 100
	return &ContextUsage{Tokens: &tokens, ContextWindow: window, Percent: &pct}
}

func handleGetSessionStats(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, store := s.current()
	return ok(cmd, Stats(store, sess.UsageModel()))
}
