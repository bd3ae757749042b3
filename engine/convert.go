package engine

import (
	"strconv"
	"strings"
)

// Prefixes and suffixes that wrap summaries in the LLM transcript. Models
// and extensions match on them, so they are the reference's exact text.
const (
	CompactionSummaryPrefix = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
	CompactionSummarySuffix = "\n</summary>"
	BranchSummaryPrefix     = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
	BranchSummarySuffix     = "</summary>"
)

// ConvertToLLM maps agent messages to the roles a provider understands:
// bash executions (unless excluded), custom messages and summaries become
// user messages; system, user, assistant and toolResult pass through;
// anything else is dropped.
func ConvertToLLM(msgs []*Message) []*Message {
	out := make([]*Message, 0, len(msgs))
	for _, m := range msgs {
		switch m.Role {
		case RoleSystem, RoleUser, RoleAssistant, RoleToolResult:
			out = append(out, m)
		case RoleBashExecution:
			if m.ExcludeFromContext {
				continue
			}
			out = append(out, userText(BashExecutionText(m), m.Timestamp))
		case RoleCustom:
			c := m.Content
			if c.IsString {
				c = Blocks(TextContent(c.Text()))
			}
			out = append(out, &Message{Role: RoleUser, Content: c, Timestamp: m.Timestamp})
		case RoleBranchSummary:
			out = append(out, userText(BranchSummaryPrefix+m.Summary+BranchSummarySuffix, m.Timestamp))
		case RoleCompactionSummary:
			out = append(out, userText(CompactionSummaryPrefix+m.Summary+CompactionSummarySuffix, m.Timestamp))
		}
	}
	return out
}

func userText(s string, ts int64) *Message {
	return &Message{Role: RoleUser, Content: Blocks(TextContent(s)), Timestamp: ts}
}

// BashExecutionText is how a user-run bash command reads to the model.
func BashExecutionText(m *Message) string {
	var b strings.Builder
	b.WriteString("Ran `" + m.Command + "`\n")
	if m.Output != "" {
		b.WriteString("```\n" + m.Output + "\n```")
	} else {
		b.WriteString("(no output)")
	}
	if m.Cancelled {
		b.WriteString("\n\n(command cancelled)")
	} else if m.ExitCode != nil && *m.ExitCode != 0 {
		b.WriteString("\n\nCommand exited with code " + strconv.Itoa(*m.ExitCode))
	}
	if m.Truncated && m.FullOutputPath != "" {
		b.WriteString("\n\n[Output truncated. Full output: " + m.FullOutputPath + "]")
	}
	return b.String()
}
