package openai

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// promptCacheKeyMax is the longest prompt_cache_key OpenAI accepts, in
// characters; the reference cuts the session id to it.
const promptCacheKeyMax = 64

// cacheRetention is the reference's retention preference: "long" only
// when PI_CACHE_RETENTION says so, otherwise "short".
func cacheRetention() string {
	if os.Getenv("PI_CACHE_RETENTION") == "long" {
		return "long"
	}
	return "short"
}

// promptCache returns the prompt_cache_key and prompt_cache_retention to
// send ("" for none). The key, the session id, goes to api.openai.com, or
// anywhere with a long retention the host supports, or whenever the
// model's compat enables it.
func promptCache(req *engine.LLMRequest, c compat) (key, retention string) {
	long := cacheRetention() == "long" && c.SupportsLongCacheRetention
	sendKey := c.PromptCacheKeyMode == "enabled" ||
		(c.PromptCacheKeyMode == "auto" && (strings.Contains(req.Model.BaseURL, "api.openai.com") || long))
	if sendKey && req.SessionID != "" {
		key = req.SessionID
		if r := []rune(key); len(r) > promptCacheKeyMax {
			key = string(r[:promptCacheKeyMax])
		}
	}
	if long {
		retention = "24h"
	}
	return key, retention
}

// buildBody returns the request body with the reference's key order:
// model, messages, stream, prompt cache fields, stream_options, store,
// max tokens, temperature, tools, then the thinking parameters.
func buildBody(req *engine.LLMRequest, c compat) llm.Object {
	m := req.Model
	body := llm.Object{}.
		Set("model", m.ID).
		Set("messages", convertMessages(req, c)).
		Set("stream", true)
	if key, retention := promptCache(req, c); key != "" || retention != "" {
		if key != "" {
			body = body.Set("prompt_cache_key", key)
		}
		if retention != "" {
			body = body.Set("prompt_cache_retention", retention)
		}
	}
	if c.SupportsUsageInStreaming {
		body = body.Set("stream_options", llm.Object{}.Set("include_usage", true))
	}
	if c.SupportsStore {
		body = body.Set("store", false)
	}
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = m.MaxTokens
	}
	if maxTokens > 0 {
		body = body.Set(c.MaxTokensField, maxTokens)
	}
	if req.Temperature != nil {
		body = body.Set("temperature", *req.Temperature)
	}
	if len(req.Tools) > 0 {
		tools := make([]llm.Object, 0, len(req.Tools))
		for _, t := range req.Tools {
			params := t.Parameters
			if len(params) == 0 {
				params = json.RawMessage(`{"type":"object","properties":{}}`)
			}
			tools = append(tools, llm.Object{}.Set("type", "function").Set("function",
				llm.Object{}.Set("name", t.Name).Set("description", t.Description).Set("parameters", params)))
		}
		body = body.Set("tools", tools)
	}
	return llm.MergeSamplingParams(addThinking(body, req, c), req.Model, req.ThinkingLevel)
}

// addThinking adds the reasoning parameters for the request's level.
func addThinking(body llm.Object, req *engine.LLMRequest, c compat) llm.Object {
	m := req.Model
	if !m.Reasoning {
		return body
	}
	level := req.ThinkingLevel
	on := level != "" && level != engine.ThinkingOff
	switch c.ThinkingFormat {
	case "deepseek", "zai":
		if on {
			return body.Set("thinking", llm.Object{}.Set("type", "enabled"))
		}
		return body.Set("thinking", llm.Object{}.Set("type", "disabled"))
	case "qwen":
		return body.Set("enable_thinking", on)
	case "openrouter":
		if on {
			name, ok := engine.MappedThinkingLevel(m, level)
			if ok {
				return body.Set("reasoning", llm.Object{}.Set("effort", name))
			}
			return body
		}
		if off, ok := offValue(m); ok {
			if off == "" {
				off = "none"
			}
			return body.Set("reasoning", llm.Object{}.Set("effort", off))
		}
		return body
	}
	if !c.SupportsReasoningEffort {
		return body
	}
	if on {
		if name, ok := engine.MappedThinkingLevel(m, level); ok {
			return body.Set("reasoning_effort", name)
		}
		return body
	}
	if off, ok := offValue(m); ok && off != "" {
		return body.Set("reasoning_effort", off)
	}
	return body
}

// offValue reads thinkingLevelMap.off: ok is false when the map says null
// (thinking cannot be turned off); "" means the map has no entry.
func offValue(m *engine.Model) (string, bool) {
	if len(m.ThinkingLevelMap) == 0 {
		return "", true
	}
	var mp map[string]*string
	if json.Unmarshal(m.ThinkingLevelMap, &mp) != nil {
		return "", true
	}
	v, present := mp["off"]
	if !present {
		return "", true
	}
	if v == nil {
		return "", false
	}
	return *v, true
}

// convertMessages turns the transcript into chat messages: the system
// prompt first, user content as part arrays, assistant text as a string
// (or null) with tool_calls, and tool results as role "tool".
func convertMessages(req *engine.LLMRequest, c compat) []llm.Object {
	m := req.Model
	var out []llm.Object
	if req.SystemPrompt != "" {
		role := "system"
		if m.Reasoning && c.SupportsDeveloperRole {
			role = "developer"
		}
		out = append(out, llm.Object{}.Set("role", role).Set("content", req.SystemPrompt))
	}
	msgs := llm.ConvertForProvider(m, req.Messages)
	for i := 0; i < len(msgs); i++ {
		msg := msgs[i]
		switch msg.Role {
		case engine.RoleUser:
			if msg.Content.IsString {
				out = append(out, llm.Object{}.Set("role", "user").Set("content", msg.Content.Text()))
				continue
			}
			parts := userParts(msg.Content.Blocks)
			if len(parts) == 0 {
				continue
			}
			out = append(out, llm.Object{}.Set("role", "user").Set("content", parts))
		case engine.RoleAssistant:
			if o, ok := assistantMessage(msg); ok {
				out = append(out, o)
			}
		case engine.RoleToolResult:
			// Consecutive results are sent together, and the images they
			// carry follow them in one user message.
			var images []llm.Object
			for ; i < len(msgs) && msgs[i].Role == engine.RoleToolResult; i++ {
				r := msgs[i]
				text, imgs := toolResultText(r)
				o := llm.Object{}.Set("role", "tool").Set("content", text).Set("tool_call_id", r.ToolCallID)
				if c.RequiresToolResultName && r.ToolName != "" {
					o = o.Set("name", r.ToolName)
				}
				out = append(out, o)
				images = append(images, imgs...)
			}
			i--
			if len(images) > 0 {
				parts := append([]llm.Object{textPart("Attached image(s) from tool result:")}, images...)
				out = append(out, llm.Object{}.Set("role", "user").Set("content", parts))
			}
		}
	}
	if out == nil {
		out = []llm.Object{}
	}
	return out
}

func textPart(s string) llm.Object {
	return llm.Object{}.Set("type", "text").Set("text", s)
}

func imagePart(c engine.Content) llm.Object {
	return llm.Object{}.Set("type", "image_url").
		Set("image_url", llm.Object{}.Set("url", "data:"+c.MimeType+";base64,"+c.Data))
}

func userParts(blocks []engine.Content) []llm.Object {
	var parts []llm.Object
	for _, b := range blocks {
		switch b.Type {
		case engine.ContentText:
			parts = append(parts, textPart(b.Text))
		case engine.ContentImage:
			parts = append(parts, imagePart(b))
		}
	}
	return parts
}

func assistantMessage(msg *engine.Message) (llm.Object, bool) {
	var text strings.Builder
	hasText := false
	var calls []llm.Object
	reasoningField, reasoning := "", ""
	for _, b := range msg.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			if b.Text != "" {
				text.WriteString(b.Text)
				hasText = true
			}
		case engine.ContentThinking:
			// Thinking that came from a reasoning field is replayed in that
			// same field; other thinking is not sent to this API.
			switch b.ThinkingSignature {
			case "reasoning_content", "reasoning", "reasoning_text":
				reasoningField = b.ThinkingSignature
				reasoning += b.Thinking
			}
		case engine.ContentToolCall:
			calls = append(calls, llm.Object{}.Set("id", b.ID).Set("type", "function").
				Set("function", llm.Object{}.Set("name", b.Name).Set("arguments", llm.CompactArgs(b.Arguments))))
		}
	}
	if !hasText && len(calls) == 0 {
		return nil, false
	}
	o := llm.Object{}.Set("role", "assistant")
	if hasText {
		o = o.Set("content", text.String())
	} else {
		o = o.Set("content", nil)
	}
	if reasoningField != "" {
		o = o.Set(reasoningField, reasoning)
	}
	if len(calls) > 0 {
		o = o.Set("tool_calls", calls)
	}
	return o, true
}

// toolResultText joins a result's text with newlines and collects its
// images, with the reference's placeholders for empty output.
func toolResultText(r *engine.Message) (string, []llm.Object) {
	var texts []string
	var images []llm.Object
	for _, b := range r.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			texts = append(texts, b.Text)
		case engine.ContentImage:
			images = append(images, imagePart(b))
		}
	}
	text := strings.Join(texts, "\n")
	if text == "" {
		if len(images) > 0 {
			text = "(see attached image)"
		} else {
			text = "(no tool output)"
		}
	}
	return text, images
}
