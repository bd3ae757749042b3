package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// convertMessages turns the transcript into Anthropic messages: tool
// results of one turn grouped into a single user message, thinking replayed
// with its signature, and the cache marker on the last block of the last
// user message.
func convertMessages(req *engine.LLMRequest, o options) []obj {
	m := req.Model
	msgs := llm.ConvertForProvider(m, req.Messages)
	idMap := map[string]string{}
	var out []obj
	for i := 0; i < len(msgs); i++ {
		msg := msgs[i]
		switch msg.Role {
		case engine.RoleUser:
			if u := convertUser(msg); u != nil {
				out = append(out, u)
			}
		case engine.RoleAssistant:
			same := msg.Provider == m.Provider && msg.API == m.API && msg.Model == m.ID
			if a := convertAssistant(msg, same, o, idMap); a != nil {
				out = append(out, a)
			}
		case engine.RoleToolResult:
			// Anthropic rejects images inside error results, so those images
			// follow all results of the turn in the same user message.
			var blocks, trailing []any
			j := i
			for ; j < len(msgs) && msgs[j].Role == engine.RoleToolResult; j++ {
				tr := msgs[j]
				content := tr.Content.Blocks
				if tr.IsError && hasImage(content) {
					trailing = append(trailing, obj{{"type", "text"},
						{"text", "Images from the error result of tool call " + tr.ToolCallID + " (" + tr.ToolName + "):"}})
					for _, b := range content {
						if b.Type == engine.ContentImage {
							trailing = append(trailing, imageBlock(b))
						}
					}
					content = llm.ReplaceImages(content, errorImagePlaceholder)
				}
				id := tr.ToolCallID
				if n, ok := idMap[id]; ok {
					id = n
				}
				blocks = append(blocks, obj{
					{"type", "tool_result"},
					{"tool_use_id", id},
					{"content", toolResultContent(content)},
					{"is_error", tr.IsError},
				})
			}
			i = j - 1
			out = append(out, obj{{"role", "user"}, {"content", append(blocks, trailing...)}})
		}
		// System messages are carried by the system block; other roles have
		// been converted to user messages before the request.
	}
	if o.cacheControl != nil && len(out) > 0 {
		markLast(out[len(out)-1], o.cacheControl)
	}
	return out
}

// markLast puts the cache marker on the last text, image or tool_result
// block of a final user message; string content becomes one text block
// to carry it.
func markLast(msg obj, cc obj) {
	role, _ := msg.get("role")
	if role != "user" {
		return
	}
	content, _ := msg.get("content")
	switch c := content.(type) {
	case string:
		msg.set("content", []any{obj{{"type", "text"}, {"text", c}, {"cache_control", cc}}})
	case []any:
		if len(c) == 0 {
			return
		}
		last, ok := c[len(c)-1].(obj)
		if !ok {
			return
		}
		switch t, _ := last.get("type"); t {
		case "text", "image", "tool_result":
			c[len(c)-1] = append(last, kv{"cache_control", cc})
		}
	}
}

func convertUser(msg *engine.Message) obj {
	if msg.Content.IsString {
		text := msg.Content.Text()
		if strings.TrimSpace(text) == "" {
			return nil
		}
		return obj{{"role", "user"}, {"content", text}}
	}
	var blocks []any
	for _, b := range msg.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			if strings.TrimSpace(b.Text) == "" {
				continue
			}
			blocks = append(blocks, obj{{"type", "text"}, {"text", b.Text}})
		case engine.ContentImage:
			blocks = append(blocks, imageBlock(b))
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	return obj{{"role", "user"}, {"content", blocks}}
}

// convertAssistant replays an assistant message. Thinking without a
// signature (an interrupted stream) cannot be replayed as thinking, so it
// is sent as text unless the model accepts empty signatures.
func convertAssistant(msg *engine.Message, same bool, o options, idMap map[string]string) obj {
	allowEmptySignature := o.compat.allowEmptySignature
	var blocks []any
	for _, b := range msg.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			if strings.TrimSpace(b.Text) == "" {
				continue
			}
			blocks = append(blocks, obj{{"type", "text"}, {"text", b.Text}})
		case engine.ContentThinking:
			if b.Redacted {
				blocks = append(blocks, obj{{"type", "redacted_thinking"}, {"data", b.ThinkingSignature}})
				continue
			}
			hasSig := strings.TrimSpace(b.ThinkingSignature) != ""
			if strings.TrimSpace(b.Thinking) == "" && !hasSig {
				continue
			}
			switch {
			case hasSig:
				blocks = append(blocks, obj{{"type", "thinking"}, {"thinking", b.Thinking}, {"signature", b.ThinkingSignature}})
			case allowEmptySignature:
				blocks = append(blocks, obj{{"type", "thinking"}, {"thinking", b.Thinking}, {"signature", ""}})
			default:
				blocks = append(blocks, obj{{"type", "text"}, {"text", b.Thinking}})
			}
		case engine.ContentToolCall:
			id := b.ID
			if !same {
				if n := normalizeToolCallID(id); n != id {
					idMap[id] = n
					id = n
				}
			}
			input := b.Arguments
			if len(input) == 0 || string(input) == "null" {
				input = json.RawMessage("{}")
			}
			blocks = append(blocks, obj{{"type", "tool_use"}, {"id", id}, {"name", o.wireToolName(b.Name)}, {"input", input}})
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	return obj{{"role", "assistant"}, {"content", blocks}}
}

// toolResultContent is the text of a result joined by newlines, or blocks
// when it holds images (with a placeholder text when it holds only images).
func toolResultContent(content []engine.Content) any {
	if !hasImage(content) {
		parts := make([]string, 0, len(content))
		for _, b := range content {
			parts = append(parts, b.Text)
		}
		return strings.Join(parts, "\n")
	}
	var blocks []any
	hasText := false
	for _, b := range content {
		if b.Type == engine.ContentText {
			hasText = true
			blocks = append(blocks, obj{{"type", "text"}, {"text", b.Text}})
		} else {
			blocks = append(blocks, imageBlock(b))
		}
	}
	if !hasText {
		blocks = append([]any{obj{{"type", "text"}, {"text", seeAttachedImage}}}, blocks...)
	}
	return blocks
}

func imageBlock(b engine.Content) obj {
	return obj{{"type", "image"}, {"source", obj{{"type", "base64"}, {"media_type", b.MimeType}, {"data", b.Data}}}}
}

func hasImage(content []engine.Content) bool {
	for _, b := range content {
		if b.Type == engine.ContentImage {
			return true
		}
	}
	return false
}
