package openai

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
	"github.com/pi-go/pi/internal/jsonx"
)

// promptCacheKeyMax is the longest prompt_cache_key OpenAI accepts, in
// characters; the reference cuts the session id to it.
const promptCacheKeyMax = 64

// promptCache returns the prompt_cache_key and prompt_cache_retention to
// send ("" for none). The key, the session id, goes to api.openai.com, or
// anywhere with a long retention the host supports, or whenever the
// model's compat enables it; a request without caching sends neither.
func promptCache(req *engine.LLMRequest, c compat) (key, retention string) {
	r := req.ResolvedCacheRetention()
	long := r == "long" && c.SupportsLongCacheRetention
	sendKey := c.PromptCacheKeyMode == "enabled" ||
		(c.PromptCacheKeyMode == "auto" && (strings.Contains(req.Model.BaseURL, "api.openai.com") || long))
	if id := req.CacheSessionID(); sendKey && id != "" {
		key = id
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
// max tokens, temperature, tools, the thinking parameters, the routing
// preferences, then the model's sampling parameters. It fails only when
// a tool requires strict sampling the model cannot give.
func buildBody(req *engine.LLMRequest, c compat) (llm.Object, error) {
	m := req.Model
	messages := convertMessages(req, c)
	body := llm.Object{}.
		Set("model", m.ID).
		Set("messages", messages).
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
	var tools []llm.Object
	if len(req.Tools) > 0 {
		var err error
		if tools, err = convertTools(req.Tools, c); err != nil {
			return nil, err
		}
		body = body.Set("tools", tools)
		if c.ZaiToolStream {
			body = body.Set("tool_stream", true)
		}
	} else if c.RequiresToolsWithToolHistory && hasToolHistory(req.Messages) {
		body = body.Set("tools", []llm.Object{})
	}
	if cc := cacheControl(req, c); cc != nil {
		applyCacheControl(messages, tools, cc)
	}
	if len(c.VllmPriority) > 0 {
		body = body.Set("priority", c.VllmPriority)
	}
	body = addThinking(body, req, c, maxTokens)
	body = addRouting(body, c)
	return llm.MergeSamplingParams(body, req.Model, req.ThinkingLevel), nil
}

// convertTools declares the tools as functions. With strict mode every
// tool carries "strict", true only for one whose schema could be made
// strict because it asked for JSON-schema sampling.
func convertTools(infos []engine.ToolInfo, c compat) ([]llm.Object, error) {
	tools := make([]llm.Object, 0, len(infos))
	for _, t := range infos {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		strict, err := llm.StrictToolParameters(samplingOf(t), params, c.SupportsStrictMode)
		if err != nil {
			return nil, err
		}
		if strict != nil {
			params = strict
		}
		fn := llm.Object{}.Set("name", t.Name).Set("description", t.Description).Set("parameters", params)
		if c.SupportsStrictMode {
			fn = fn.Set("strict", strict != nil)
		}
		tools = append(tools, llm.Object{}.Set("type", "function").Set("function", fn))
	}
	return tools, nil
}

// preferStrict are the built-in tools that ask for strict JSON-schema
// sampling when the model has it; the reference's ls, grep and find do
// not (a live capture sends them with "strict": false).
var preferStrict = map[string]bool{"read": true, "bash": true, "edit": true, "write": true}

// samplingOf gives a built-in tool outside preferStrict an explicit "no
// constrained sampling", so the shared default does not apply to it.
func samplingOf(t engine.ToolInfo) engine.ToolInfo {
	if !t.OwnSampling && len(t.ConstrainedSampling) == 0 && !preferStrict[t.Name] {
		t.OwnSampling = true
	}
	return t
}

// hasToolHistory reports a tool call or result in the transcript, which
// some proxies accept only with a tools field present.
func hasToolHistory(msgs []*engine.Message) bool {
	for _, m := range msgs {
		if m.Role == engine.RoleToolResult {
			return true
		}
		if m.Role == engine.RoleAssistant && !m.Content.IsString {
			for _, b := range m.Content.Blocks {
				if b.Type == engine.ContentToolCall {
					return true
				}
			}
		}
	}
	return false
}

// addRouting passes the models.json routing preferences through:
// OpenRouter's as "provider", Vercel AI Gateway's "only" and "order" as
// providerOptions.gateway.
func addRouting(body llm.Object, c compat) llm.Object {
	if truthy(c.OpenRouterRouting) {
		body = body.Set("provider", c.OpenRouterRouting)
	}
	if truthy(c.VercelGatewayRouting) {
		if fields := fieldsOf(c.VercelGatewayRouting); fields != nil {
			gw := llm.Object{}
			for _, k := range []string{"only", "order"} {
				for _, f := range fields {
					if f.Key == k && truthy(f.Value.(json.RawMessage)) {
						gw = gw.Set(k, f.Value)
					}
				}
			}
			if len(gw) > 0 {
				body = body.Set("providerOptions", llm.Object{}.Set("gateway", gw))
			}
		}
	}
	return body
}

// truthy is JavaScript's truthiness of a JSON value: absent, null,
// false, "" and any spelling of zero are false.
func truthy(r json.RawMessage) bool {
	switch s := strings.TrimSpace(string(r)); s {
	case "", "null", "false", "0", `""`:
		return false
	}
	var f float64
	if json.Unmarshal(r, &f) == nil && f == 0 {
		return false
	}
	return true
}

// fieldsOf decodes a JSON object into its fields in order, each value
// raw; nil for anything else, not nil for {}.
func fieldsOf(raw json.RawMessage) llm.Object {
	out, err := jsonx.Members(raw)
	if err != nil {
		return nil
	}
	return out
}

// cacheControl is the Anthropic-style marker for models whose compat asks
// for one, with a one-hour ttl under a long retention the host supports.
func cacheControl(req *engine.LLMRequest, c compat) llm.Object {
	r := req.ResolvedCacheRetention()
	if c.CacheControlFormat != "anthropic" || r == "none" {
		return nil
	}
	cc := llm.Object{}.Set("type", "ephemeral")
	if r == "long" && c.SupportsLongCacheRetention {
		cc = cc.Set("ttl", "1h")
	}
	return cc
}

// applyCacheControl marks the system prompt, the last tool and the last
// user, assistant or tool message that has text, as the reference does
// for OpenRouter's Anthropic models.
func applyCacheControl(messages []llm.Object, tools []llm.Object, cc llm.Object) {
	for i, m := range messages {
		if r := roleOf(m); r == "system" || r == "developer" {
			messages[i], _ = markText(m, cc)
			break
		}
	}
	if len(tools) > 0 {
		tools[len(tools)-1] = tools[len(tools)-1].Set("cache_control", cc)
	}
	for i := len(messages) - 1; i >= 0; i-- {
		switch roleOf(messages[i]) {
		case "user", "assistant", "tool":
			if m, ok := markText(messages[i], cc); ok {
				messages[i] = m
				return
			}
		}
	}
}

func roleOf(m llm.Object) string {
	for _, f := range m {
		if f.Key == "role" {
			s, _ := f.Value.(string)
			return s
		}
	}
	return ""
}

// markText puts cc on a message's text: string content becomes one text
// part carrying it, and in a part list the last text part gets it.
func markText(m llm.Object, cc llm.Object) (llm.Object, bool) {
	for i, f := range m {
		if f.Key != "content" {
			continue
		}
		switch v := f.Value.(type) {
		case string:
			if v == "" {
				return m, false
			}
			m[i].Value = []llm.Object{textPart(v).Set("cache_control", cc)}
			return m, true
		case []llm.Object:
			for j := len(v) - 1; j >= 0; j-- {
				if t, _ := v[j][0].Value.(string); v[j][0].Key == "type" && t == "text" {
					v[j] = v[j].Set("cache_control", cc)
					return m, true
				}
			}
		}
		return m, false
	}
	return m, false
}

// bridgeText is the assistant turn the reference inserts where a host
// does not accept a user message right after tool results.
const bridgeText = "I have processed the tool results."

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
	bridge := func() llm.Object { return llm.Object{}.Set("role", "assistant").Set("content", bridgeText) }
	lastRole := ""
	msgs := normalizeToolCallIDs(m, llm.ConvertForProvider(m, req.Messages))
	for i := 0; i < len(msgs); i++ {
		msg := msgs[i]
		if c.RequiresAssistantAfterToolResult && lastRole == engine.RoleToolResult && msg.Role == engine.RoleUser {
			out = append(out, bridge())
		}
		switch msg.Role {
		case engine.RoleUser:
			if msg.Content.IsString {
				out = append(out, llm.Object{}.Set("role", "user").Set("content", msg.Content.Text()))
				break
			}
			parts := userParts(msg.Content.Blocks)
			if len(parts) == 0 {
				continue
			}
			out = append(out, llm.Object{}.Set("role", "user").Set("content", parts))
		case engine.RoleAssistant:
			if o, ok := assistantMessage(m, msg, c); ok {
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
				if m.SupportsImages() {
					images = append(images, imgs...)
				}
			}
			i--
			lastRole = engine.RoleToolResult
			if len(images) > 0 {
				if c.RequiresAssistantAfterToolResult {
					out = append(out, bridge())
				}
				parts := append([]llm.Object{textPart("Attached image(s) from tool result:")}, images...)
				out = append(out, llm.Object{}.Set("role", "user").Set("content", parts))
				lastRole = engine.RoleUser
			}
			continue
		}
		lastRole = msg.Role
	}
	if out == nil {
		out = []llm.Object{}
	}
	return out
}

// toolCallIDMax is the longest tool call id OpenAI accepts.
const toolCallIDMax = 40

var notIDChar = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// normalizeToolCallID rewrites an id another model made so this API
// accepts it: a Responses-style "call|item" id keeps both halves in the
// allowed characters, shortened with a hash past 40 characters, and
// OpenAI's own host gets at most 40 characters.
func normalizeToolCallID(m *engine.Model, id string) string {
	if call, item, ok := strings.Cut(id, "|"); ok {
		call = notIDChar.ReplaceAllString(call, "_")
		item = notIDChar.ReplaceAllString(item, "_")
		combined := call
		if item != "" {
			combined = call + "_" + item
		}
		if len(combined) <= toolCallIDMax {
			return combined
		}
		hash := llm.ShortHash(id)
		hash = hash[:min(8, len(hash))]
		return call[:min(len(call), max(1, toolCallIDMax-len(hash)-1))] + "_" + hash
	}
	if m.Provider == "openai" && len(id) > toolCallIDMax {
		return id[:toolCallIDMax]
	}
	return id
}

// normalizeToolCallIDs applies normalizeToolCallID to the tool calls of
// assistant turns from another model, and to the results that answer
// them.
func normalizeToolCallIDs(m *engine.Model, msgs []*engine.Message) []*engine.Message {
	return llm.RenameToolCallIDs(m, msgs, func(_ *engine.Message, id string) string { return normalizeToolCallID(m, id) })
}

func textPart(s string) llm.Object {
	return llm.Object{}.Set("type", "text").Set("text", s)
}

func imagePart(c engine.Content) llm.Object {
	return llm.Object{}.Set("type", "image_url").
		Set("image_url", llm.Object{}.Set("url", "data:"+c.MimeType+";base64,"+c.Data))
}

// userParts converts a user message's blocks; empty text parts are
// dropped, as the reference does.
func userParts(blocks []engine.Content) []llm.Object {
	var parts []llm.Object
	for _, b := range blocks {
		switch b.Type {
		case engine.ContentText:
			if b.Text != "" {
				parts = append(parts, textPart(b.Text))
			}
		case engine.ContentImage:
			parts = append(parts, imagePart(b))
		}
	}
	return parts
}

// assistantMessage replays an assistant turn: its non-blank text joined
// as one string, thinking in the reasoning field it streamed from (or as
// leading text where the host wants that), and its tool calls. A turn
// with neither content nor calls is left out.
func assistantMessage(m *engine.Model, msg *engine.Message, c compat) (llm.Object, bool) {
	var texts []string
	var thinking []engine.Content
	var calls []llm.Object
	for _, b := range msg.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			if strings.TrimSpace(b.Text) != "" {
				texts = append(texts, b.Text)
			}
		case engine.ContentThinking:
			if strings.TrimSpace(b.Thinking) != "" {
				thinking = append(thinking, b)
			}
		case engine.ContentToolCall:
			calls = append(calls, llm.Object{}.Set("id", b.ID).Set("type", "function").
				Set("function", llm.Object{}.Set("name", b.Name).Set("arguments", llm.CompactArgs(b.Arguments))))
		}
	}
	var content any
	if c.RequiresAssistantAfterToolResult || c.RequiresNonNullAssistantContent {
		content = ""
	}
	text := strings.Join(texts, "")
	if text != "" {
		content = text
	}
	reasoningField, reasoning := "", ""
	if len(thinking) > 0 {
		if c.RequiresThinkingAsText {
			var ts []string
			for _, b := range thinking {
				ts = append(ts, b.Thinking)
			}
			parts := []llm.Object{textPart(strings.Join(ts, "\n\n"))}
			for _, t := range texts {
				parts = append(parts, textPart(t))
			}
			content = parts
		} else {
			sig := thinking[0].ThinkingSignature
			if m.Provider == "opencode-go" && sig == "reasoning" {
				sig = "reasoning_content"
			}
			switch sig {
			case "reasoning_content", "reasoning", "reasoning_text":
				var ts []string
				for _, b := range thinking {
					ts = append(ts, b.Thinking)
				}
				reasoningField, reasoning = sig, strings.Join(ts, "\n")
			}
		}
	}
	hasContent := false
	switch v := content.(type) {
	case string:
		hasContent = v != ""
	case []llm.Object:
		hasContent = len(v) > 0
	}
	if !hasContent && len(calls) == 0 {
		return nil, false
	}
	o := llm.Object{}.Set("role", "assistant").Set("content", content)
	if reasoningField != "" {
		o = o.Set(reasoningField, reasoning)
	}
	if len(calls) > 0 {
		o = o.Set("tool_calls", calls)
	}
	if c.RequiresReasoningContentOnAssistantMessages && m.Reasoning && reasoningField != "reasoning_content" {
		o = o.Set("reasoning_content", "")
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
	if strings.TrimSpace(text) == "" {
		if len(images) > 0 {
			text = "(see attached image)"
		} else {
			text = "(no tool output)"
		}
	}
	return text, images
}
