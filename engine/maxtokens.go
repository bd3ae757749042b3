package engine

import "math"

// Constants of the reference's output-token cap (pi-ai simple-options.js)
// and of its chars-per-token estimate (utils/estimate.js).
const (
	contextSafetyTokens      = 4096
	contextSafetyRatio       = 0.15
	minOutputWithRatioMargin = 32768
	charsPerToken            = 3.5
	estimatedImageChars      = 4800
)

// UsageContextTokens is the context size a usage record implies.
func UsageContextTokens(u Usage) int {
	if u.TotalTokens > 0 {
		return u.TotalTokens
	}
	return u.Input + u.Output + u.CacheRead + u.CacheWrite
}

func estimateChars(n int) int { return int(math.Ceil(float64(n) / charsPerToken)) }

func contentChars(c Contents) int {
	n := 0
	for _, b := range c.Blocks {
		switch b.Type {
		case ContentText:
			n += len([]rune(b.Text))
		case ContentImage:
			n += estimatedImageChars
		case ContentThinking:
			n += len([]rune(b.Thinking))
		case ContentToolCall:
			n += len(b.Name) + len(b.Arguments)
		}
	}
	return n
}

// EstimateMessageTokens estimates one message's tokens at 3.5 characters
// per token (images count 4800 characters).
func EstimateMessageTokens(m *Message) int {
	switch m.Role {
	case RoleSystem:
		n := 0
		for _, s := range m.Sections {
			if s.Value != nil {
				n += len([]rune(*s.Value))
			}
		}
		n += len([]rune(m.Content.Text()))
		for _, t := range m.ToolsAdded {
			n += len(t.Name) + len(t.Description) + len(t.Parameters)
		}
		return estimateChars(n)
	case RoleBashExecution:
		return estimateChars(len(m.Command) + len(m.Output))
	case RoleBranchSummary, RoleCompactionSummary:
		return estimateChars(len(m.Summary))
	}
	return estimateChars(contentChars(m.Content))
}

// EstimateContextTokens estimates the tokens of a request: the usage of
// the last successful assistant message plus an estimate of everything
// after it, or an estimate of every message when no usage is known.
func EstimateContextTokens(msgs []*Message) int {
	last := -1
	for i, m := range msgs {
		if m.Role == RoleAssistant && m.StopReason != StopAborted && m.StopReason != StopError && UsageContextTokens(m.Usage) > 0 {
			last = i
		}
	}
	total := 0
	start := 0
	if last >= 0 {
		total = UsageContextTokens(msgs[last].Usage)
		start = last + 1
	}
	for _, m := range msgs[start:] {
		total += EstimateMessageTokens(m)
	}
	return total
}

// ClampMaxTokens fits the output cap into the context window, leaving a
// margin for the input being counted higher than estimated: the margin is
// max(4096, 15% of the input), and when that leaves less than 32768 the
// 15% part is dropped and the output is capped at 32768. Never below 1.
func ClampMaxTokens(m *Model, inputTokens, maxTokens int) int {
	if m == nil || m.ContextWindow <= 0 {
		return max(1, maxTokens)
	}
	margin := max(contextSafetyTokens, int(math.Ceil(float64(inputTokens)*contextSafetyRatio)))
	room := m.ContextWindow - inputTokens - margin
	if room < minOutputWithRatioMargin {
		room = min(minOutputWithRatioMargin, m.ContextWindow-inputTokens-contextSafetyTokens)
	}
	return min(maxTokens, max(1, room))
}
