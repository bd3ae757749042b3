package engine

import (
	"encoding/json"
	"time"
)

// ContextModel is the model a session path implies.
type ContextModel struct {
	Provider string `json:"provider"`
	ModelID  string `json:"modelId"`
}

// SessionContext is what a session branch means to the agent: the
// transcript to send (as AgentMessages, before ConvertToLLM) and the
// model and thinking level in effect at the leaf.
type SessionContext struct {
	Messages      []*Message
	ThinkingLevel ThinkingLevel // "off" when the path never set one
	Model         *ContextModel // nil when the path names no model
}

// ContextEntry is one entry of the context projection with the messages
// it contributes (none for bookkeeping entries).
type ContextEntry struct {
	Entry    *Entry
	Messages []*Message
}

// BuildContext turns a branch (root first, leaf last) into the session
// context, following the reference: the latest compaction replaces what it
// summarised, context edits apply (latest per target), and entries map to
// messages.
func BuildContext(branch []*Entry) SessionContext {
	ctx := SessionContext{ThinkingLevel: ThinkingOff}
	for _, e := range branch {
		switch {
		case e.Type == EntryThinkingLevelChange:
			ctx.ThinkingLevel = ThinkingLevel(e.ThinkingLevel)
		case e.Type == EntryModelChange:
			ctx.Model = &ContextModel{Provider: e.Provider, ModelID: e.ModelID}
		case e.Type == EntryMessage && e.Message != nil && e.Message.Role == RoleAssistant:
			ctx.Model = &ContextModel{Provider: e.Message.Provider, ModelID: e.Message.Model}
		}
	}
	for _, ce := range ProjectContext(branch) {
		ctx.Messages = append(ctx.Messages, ce.Messages...)
	}
	return ctx
}

// ContextEntries returns the compaction-aware entry list of a branch: with
// no compaction the branch itself; otherwise the latest compaction, then
// the entries from its firstKeptEntryId up to it (system messages
// dropped, since the compaction carries its own), then everything after.
func ContextEntries(branch []*Entry) []*Entry {
	idx := -1
	for i, e := range branch {
		if e.Type == EntryCompaction {
			idx = i
		}
	}
	if idx < 0 {
		return branch
	}
	c := branch[idx]
	out := []*Entry{c}
	kept := false
	for _, e := range branch[:idx] {
		if e.ID == c.FirstKeptEntryID {
			kept = true
		}
		if kept && !(e.Type == EntryMessage && e.Message != nil && e.Message.Role == RoleSystem) {
			out = append(out, e)
		}
	}
	return append(out, branch[idx+1:]...)
}

// ProjectContext maps the context entries of a branch to messages,
// keeping which entry each came from (compaction needs the provenance).
func ProjectContext(branch []*Entry) []ContextEntry {
	entries := ContextEntries(branch)
	edits := map[string]*Entry{}
	for _, e := range entries {
		if e.Type == EntryContextEdit {
			edits[e.TargetID] = e
		}
	}
	out := make([]ContextEntry, len(entries))
	for i, e := range entries {
		out[i].Entry = e
		// An older compaction can sit inside the kept range; only the
		// newest one (first) contributes its checkpoint and summary.
		if e.Type == EntryCompaction && i > 0 {
			continue
		}
		out[i].Messages = applyEdit(EntryMessages(e), edits[e.ID])
	}
	return out
}

// EntryMessages returns the messages one entry contributes to the context.
func EntryMessages(e *Entry) []*Message {
	switch e.Type {
	case EntryMessage:
		if e.Message == nil {
			return nil
		}
		return []*Message{e.Message}
	case EntryCustomMessage:
		m := &Message{Role: RoleCustom, CustomType: e.CustomType, Display: e.Display, DisplayOmitted: e.DisplayOmitted,
			Details: e.Details, Timestamp: isoToMillis(e.Timestamp)}
		if e.Content != nil {
			m.Content = *e.Content
		}
		return []*Message{m}
	case EntryBranchSummary:
		if e.Summary == "" {
			return nil
		}
		return []*Message{{Role: RoleBranchSummary, Summary: e.Summary, FromID: e.FromID, Timestamp: isoToMillis(e.Timestamp)}}
	case EntryCompaction:
		s := &Message{Role: RoleCompactionSummary, Summary: e.Summary, TokensBefore: e.TokensBefore, Timestamp: isoToMillis(e.Timestamp)}
		if e.SystemMessage != nil {
			return []*Message{e.SystemMessage, s}
		}
		return []*Message{s}
	}
	return nil
}

// applyEdit applies a context_edit to an entry's messages: a null
// replacement removes them, {content} replaces the content of user,
// assistant, toolResult and custom messages (a string becomes one text
// block for assistant and toolResult). Messages are copied, never mutated.
func applyEdit(msgs []*Message, edit *Entry) []*Message {
	if edit == nil {
		return msgs
	}
	r := edit.Replacement
	if len(r) == 0 || string(r) == "null" {
		return nil
	}
	var rep struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(r, &rep) != nil {
		return msgs
	}
	var content Contents
	if len(rep.Content) > 0 {
		if json.Unmarshal(rep.Content, &content) != nil {
			return msgs
		}
	}
	out := make([]*Message, 0, len(msgs))
	for _, m := range msgs {
		switch m.Role {
		case RoleUser, RoleAssistant, RoleToolResult, RoleCustom:
			c := *m
			c.Content = content
			if (m.Role == RoleAssistant || m.Role == RoleToolResult) && content.IsString {
				c.Content = Blocks(TextContent(content.Text()))
			}
			out = append(out, &c)
		default:
			out = append(out, m)
		}
	}
	return out
}

// isoToMillis converts an entry timestamp to message milliseconds.
func isoToMillis(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}
