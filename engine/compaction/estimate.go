package compaction

import (
	"encoding/json"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/utf16x"
)

// estimatedImageChars is what one image counts for, in characters.
const estimatedImageChars = 4800

// Every length below is in UTF-16 code units (utf16x.Len), as JavaScript
// counts them: that is what the reference's chars/4 heuristic divides.
func ceilDiv4(n int) int { return (n + 3) / 4 }

func contentChars(c engine.Contents) int {
	if c.IsString {
		return utf16x.Len(c.Text())
	}
	n := 0
	for _, b := range c.Blocks {
		switch b.Type {
		case engine.ContentText:
			n += utf16x.Len(b.Text)
		case engine.ContentImage:
			n += estimatedImageChars
		}
	}
	return n
}

// compactJSON re-encodes raw JSON without insignificant whitespace, the
// way JSON.stringify of the parsed value would print it.
func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	b, err := engine.MarshalJSON(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// EstimateTokens estimates one message at four characters per token. It
// overestimates on purpose: compaction would rather start early.
func EstimateTokens(m *engine.Message) int {
	if m == nil {
		return 0
	}
	switch m.Role {
	case engine.RoleSystem:
		n := contentChars(m.Content)
		for _, s := range m.Sections {
			if s.Value != nil {
				n += utf16x.Len(*s.Value)
			}
		}
		if len(m.ToolsAdded) > 0 {
			if b, err := engine.MarshalJSON(m.ToolsAdded); err == nil {
				n += utf16x.Len(string(b))
			}
		}
		return ceilDiv4(n)
	case engine.RoleUser, engine.RoleCustom, engine.RoleToolResult:
		return ceilDiv4(contentChars(m.Content))
	case engine.RoleAssistant:
		n := 0
		for _, b := range m.Content.Blocks {
			switch b.Type {
			case engine.ContentText:
				n += utf16x.Len(b.Text)
			case engine.ContentThinking:
				n += utf16x.Len(b.Thinking)
			case engine.ContentToolCall:
				n += utf16x.Len(b.Name) + utf16x.Len(compactJSON(b.Arguments))
			}
		}
		return ceilDiv4(n)
	case engine.RoleBashExecution:
		return ceilDiv4(utf16x.Len(m.Command) + utf16x.Len(m.Output))
	case engine.RoleBranchSummary, engine.RoleCompactionSummary:
		return ceilDiv4(utf16x.Len(m.Summary))
	}
	return 0
}

// MessagesTokens sums EstimateTokens over msgs.
func MessagesTokens(msgs []*engine.Message) int {
	n := 0
	for _, m := range msgs {
		n += EstimateTokens(m)
	}
	return n
}

// validUsage returns an assistant message's usage when it can be trusted:
// not aborted, not an error, and not all zero.
func validUsage(m *engine.Message) (engine.Usage, bool) {
	if m.Role != engine.RoleAssistant || m.StopReason == engine.StopAborted || m.StopReason == engine.StopError {
		return engine.Usage{}, false
	}
	if engine.UsageContextTokens(m.Usage) <= 0 {
		return engine.Usage{}, false
	}
	return m.Usage, true
}

// ContextTokens estimates a context: the last valid assistant usage plus
// an estimate of the messages after it, or an estimate of everything when
// no usage is known. lastUsage is the index of that message, or -1.
func ContextTokens(msgs []*engine.Message) (tokens, lastUsage int) {
	lastUsage = -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, ok := validUsage(msgs[i]); ok {
			lastUsage = i
			break
		}
	}
	if lastUsage < 0 {
		return MessagesTokens(msgs), -1
	}
	tokens = engine.UsageContextTokens(msgs[lastUsage].Usage)
	for _, m := range msgs[lastUsage+1:] {
		tokens += EstimateTokens(m)
	}
	return tokens, lastUsage
}

// ProjectedTokens estimates the context of a branch. Provider usage is
// trusted only when it was measured after the latest context edit or
// compaction; otherwise every message is estimated, with the system
// messages replayed into one.
func ProjectedTokens(branch []*engine.Entry) int {
	proj := engine.ProjectContext(branch)
	return projectedTokens(proj, branch)
}

func projectedTokens(proj []engine.ContextEntry, branch []*engine.Entry) int {
	msgs := projectionMessages(proj)
	tokens, last := ContextTokens(msgs)
	if last >= 0 {
		usageEntry := ""
		idx := 0
		for _, ce := range proj {
			next := idx + len(ce.Messages)
			if last < next {
				usageEntry = ce.Entry.ID
				break
			}
			idx = next
		}
		usageAt, invalidAt := -1, -1
		for i, e := range branch {
			if e.ID == usageEntry {
				usageAt = i
			}
			if e.Type == engine.EntryContextEdit || e.Type == engine.EntryCompaction {
				invalidAt = i
			}
		}
		if usageAt > invalidAt {
			return tokens
		}
	}
	n := 0
	if sys := CurrentSystemMessage(msgs); sys != nil {
		n = EstimateTokens(sys)
	}
	for _, m := range msgs {
		if m.Role != engine.RoleSystem {
			n += EstimateTokens(m)
		}
	}
	return n
}

func projectionMessages(proj []engine.ContextEntry) []*engine.Message {
	var out []*engine.Message
	for _, ce := range proj {
		out = append(out, ce.Messages...)
	}
	return out
}

// CurrentSystemMessage replays every system message of msgs into one
// (engine.CurrentSystemMessage).
func CurrentSystemMessage(msgs []*engine.Message) *engine.Message {
	return engine.CurrentSystemMessage(msgs)
}

// ShouldCompact applies the threshold rule: compact when the context
// leaves less than reserveTokens of the window free.
func ShouldCompact(contextTokens, contextWindow int, s engine.CompactionSettings) bool {
	return s.Enabled && contextTokens > contextWindow-s.ReserveTokens
}
