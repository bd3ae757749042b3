package compaction

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
	"github.com/pi-go/pi/internal/utf16x"
)

// toolResultMaxChars caps each tool result in a serialised conversation:
// results (file reads, command output) dominate context size, and the
// summary does not need them whole.
const toolResultMaxChars = 2000

// textOf joins the text blocks of c with sep.
func textOf(c engine.Contents, sep string) string {
	if c.IsString {
		return c.Text()
	}
	var parts []string
	for _, b := range c.Blocks {
		if b.Type == engine.ContentText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, sep)
}

// truncateForSummary keeps the first max UTF-16 units of s (never half a
// surrogate pair) and says how many were dropped.
func truncateForSummary(s string, max int) string {
	kept, dropped, cut := utf16x.Truncate(s, max)
	if !cut {
		return s
	}
	return fmt.Sprintf("%s\n\n[... %d more characters truncated]", kept, dropped)
}

// argsText renders tool-call arguments as k=<JSON value> pairs in the
// order the model wrote them.
func argsText(raw json.RawMessage) string {
	var parts []string
	// A broken object shows the members before the break.
	_ = jsonx.EachMember(raw, func(key string, v json.RawMessage) error {
		parts = append(parts, key+"="+jsValue(v))
		return nil
	})
	return strings.Join(parts, ", ")
}

// jsValue prints a JSON value the way JSON.stringify would: compact, key
// order kept, strings re-escaped in JavaScript's style.
func jsValue(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		b, err := engine.MarshalJSON(s)
		if err == nil {
			return string(b)
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return string(v)
	}
	return buf.String()
}

// SerializeConversation renders LLM messages (after engine.ConvertToLLM)
// as labelled plain text, so the summariser reads a transcript instead of
// continuing a conversation. Thinking is left out; tool results are cut to
// 2000 characters.
func SerializeConversation(msgs []*engine.Message) string {
	var parts []string
	for _, m := range msgs {
		switch m.Role {
		case engine.RoleUser:
			if t := textOf(m.Content, ""); t != "" {
				parts = append(parts, "[User]: "+t)
			}
		case engine.RoleAssistant:
			var calls []string
			hasText := false
			for _, b := range m.Content.Blocks {
				switch b.Type {
				case engine.ContentToolCall:
					calls = append(calls, b.Name+"("+argsText(b.Arguments)+")")
				case engine.ContentText:
					hasText = true
				}
			}
			if hasText {
				parts = append(parts, "[Assistant]: "+textOf(m.Content, "\n"))
			}
			if len(calls) > 0 {
				parts = append(parts, "[Assistant tool calls]: "+strings.Join(calls, "; "))
			}
		case engine.RoleToolResult:
			if t := textOf(m.Content, ""); t != "" {
				parts = append(parts, "[Tool result]: "+truncateForSummary(t, toolResultMaxChars))
			}
		}
	}
	return strings.Join(parts, "\n\n")
}
