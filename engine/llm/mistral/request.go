package mistral

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// buildPayload returns the request in the reference's SDK form, before
// the wire mapping: camelCase keys (maxTokens, toolCalls, toolCallId,
// imageUrl, reasoningEffort, promptMode, promptCacheKey) in the order the
// reference builds them. This is the object a before_provider_request
// hook sees; wirePayload then renames the keys for the HTTP body.
func buildPayload(req *engine.LLMRequest) llm.Object {
	m := req.Model
	body := llm.Object{}.
		Set("model", m.ID).
		Set("stream", true).
		Set("messages", convertMessages(req))
	if len(req.Tools) > 0 {
		body = body.Set("tools", convertTools(req.Tools))
	}
	if req.Temperature != nil {
		body = body.Set("temperature", *req.Temperature)
	}
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = m.MaxTokens
	}
	if maxTokens > 0 {
		body = body.Set("maxTokens", maxTokens)
	}
	promptMode, effort := thinkingParams(m, req.ThinkingLevel)
	if promptMode != "" {
		body = body.Set("promptMode", promptMode)
	}
	if effort != "" {
		body = body.Set("reasoningEffort", effort)
	}
	if sid := req.CacheSessionID(); sid != "" {
		body = body.Set("promptCacheKey", sid)
	}
	return body
}

// thinkingParams maps the thinking level as the reference does for
// Mistral: a reasoning model with a thinkingLevelMap gets
// reasoning_effort (the mapped name, "high" when the map has no string for
// the level, and the map's "off" entry when thinking is off); any other
// reasoning model gets prompt_mode "reasoning" while thinking is on.
func thinkingParams(m *engine.Model, level engine.ThinkingLevel) (promptMode, effort string) {
	if !m.Reasoning {
		return "", ""
	}
	on := false
	if level != "" && level != engine.ThinkingOff {
		level = engine.ClampThinkingLevel(m, level)
		on = level != engine.ThinkingOff
	}
	mp, hasMap := levelMap(m)
	if !hasMap {
		if on {
			return "reasoning", ""
		}
		return "", ""
	}
	if on {
		if v := mp[string(level)]; v != nil && *v != "" {
			return "", *v
		}
		return "", "high"
	}
	if v := mp["off"]; v != nil {
		return "", *v
	}
	return "", ""
}

// levelMap reads the model's thinkingLevelMap; ok is false when the model
// has none (an absent map, unlike an empty one, selects prompt_mode).
func levelMap(m *engine.Model) (map[string]*string, bool) {
	raw := strings.TrimSpace(string(m.ThinkingLevelMap))
	if raw == "" || raw == "null" {
		return nil, false
	}
	var mp map[string]*string
	if json.Unmarshal(m.ThinkingLevelMap, &mp) != nil {
		// A map with non-string values still counts as a map; its
		// entries just never name an effort.
		return map[string]*string{}, true
	}
	return mp, true
}

// convertTools declares the tools as functions. Strict (schema
// constrained) tools are opt-in in the reference and off by default for
// every Mistral model, so "strict" is false.
func convertTools(tools []engine.ToolInfo) []llm.Object {
	out := make([]llm.Object, 0, len(tools))
	for _, t := range tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out = append(out, llm.Object{}.Set("type", "function").Set("function", llm.Object{}.
			Set("name", t.Name).Set("description", t.Description).Set("parameters", params).Set("strict", false)))
	}
	return out
}

// convertMessages turns the transcript into Mistral chat messages. The
// caller folds mid-conversation system messages into the prompt, so only
// the leading system prompt is sent.
func convertMessages(req *engine.LLMRequest) []llm.Object {
	m := req.Model
	images := m.SupportsImages()
	out := []llm.Object{}
	if sys := llm.SystemText(req); sys != "" {
		out = append(out, llm.Object{}.Set("role", "system").Set("content", sys))
	}
	var msgs []*engine.Message
	for _, msg := range req.Messages {
		if msg != nil && msg.Role != engine.RoleSystem {
			msgs = append(msgs, msg)
		}
	}
	msgs = normalizeToolCallIDs(m, llm.ConvertForProvider(m, msgs))
	for _, msg := range msgs {
		switch msg.Role {
		case engine.RoleUser:
			if o, ok := userMessage(msg, images); ok {
				out = append(out, o)
			}
		case engine.RoleAssistant:
			if o, ok := assistantMessage(msg); ok {
				out = append(out, o)
			}
		case engine.RoleToolResult:
			out = append(out, toolMessage(msg, images))
		}
	}
	return out
}

func textChunk(s string) llm.Object { return llm.Object{}.Set("type", "text").Set("text", s) }

func imageChunk(c engine.Content) llm.Object {
	return llm.Object{}.Set("type", "image_url").Set("imageUrl", "data:"+c.MimeType+";base64,"+c.Data)
}

func userMessage(msg *engine.Message, images bool) (llm.Object, bool) {
	if msg.Content.IsString {
		return llm.Object{}.Set("role", "user").Set("content", msg.Content.Text()), true
	}
	var parts []llm.Object
	hadImages := false
	for _, b := range msg.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			parts = append(parts, textChunk(b.Text))
		case engine.ContentImage:
			hadImages = true
			if images {
				parts = append(parts, imageChunk(b))
			}
		}
	}
	if len(parts) > 0 {
		return llm.Object{}.Set("role", "user").Set("content", parts), true
	}
	if hadImages && !images {
		return llm.Object{}.Set("role", "user").Set("content", llm.UserImagePlaceholder), true
	}
	return nil, false
}

// assistantMessage replays text and thinking as content chunks (blank ones
// dropped) and tool calls with their arguments as JSON text. A turn with
// neither is not sent.
func assistantMessage(msg *engine.Message) (llm.Object, bool) {
	var parts, calls []llm.Object
	for _, b := range msg.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			if strings.TrimSpace(b.Text) != "" {
				parts = append(parts, textChunk(b.Text))
			}
		case engine.ContentThinking:
			if strings.TrimSpace(b.Thinking) != "" {
				parts = append(parts, llm.Object{}.Set("type", "thinking").Set("thinking", []llm.Object{textChunk(b.Thinking)}))
			}
		case engine.ContentToolCall:
			calls = append(calls, llm.Object{}.Set("id", b.ID).Set("type", "function").
				Set("function", llm.Object{}.Set("name", b.Name).Set("arguments", llm.CompactArgs(b.Arguments))).
				Set("index", 0))
		}
	}
	if len(parts) == 0 && len(calls) == 0 {
		return nil, false
	}
	o := llm.Object{}.Set("role", "assistant").Set("prefix", false)
	if len(parts) > 0 {
		o = o.Set("content", parts)
	}
	if len(calls) > 0 {
		o = o.Set("toolCalls", calls)
	}
	return o, true
}

// toolMessage sends a result as one text chunk (the texts joined, with the
// reference's markers for errors and empty output) followed by its images
// when the model takes them.
func toolMessage(r *engine.Message, images bool) llm.Object {
	var texts []string
	var imgs []llm.Object
	hasImages := false
	for _, b := range r.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			texts = append(texts, b.Text)
		case engine.ContentImage:
			hasImages = true
			if images {
				imgs = append(imgs, imageChunk(b))
			}
		}
	}
	if r.Content.IsString {
		texts = append(texts, r.Content.Text())
	}
	content := append([]llm.Object{textChunk(toolResultText(strings.Join(texts, "\n"), hasImages, images, r.IsError))}, imgs...)
	o := llm.Object{}.Set("role", "tool").Set("toolCallId", r.ToolCallID)
	if r.ToolName != "" {
		o = o.Set("name", r.ToolName)
	}
	return o.Set("content", content)
}

func toolResultText(text string, hasImages, images, isError bool) string {
	prefix := ""
	if isError {
		prefix = "[tool error] "
	}
	if t := strings.TrimSpace(text); t != "" {
		if hasImages && !images {
			t += "\n[tool image omitted: model does not support images]"
		}
		return prefix + t
	}
	switch {
	case hasImages && images:
		return prefix + "(see attached image)"
	case hasImages:
		return prefix + llm.UserImagePlaceholder
	}
	return prefix + "(no tool output)"
}
