package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// Beta features announced in the anthropic-beta header.
const (
	betaInterleavedThinking   = "interleaved-thinking-2025-05-14"
	betaFineGrainedToolStream = "fine-grained-tool-streaming-2025-05-14"
)

// Texts the reference puts in place of missing or moved content.
const (
	seeAttachedImage      = "(see attached image)"
	errorImagePlaceholder = "(image attached after the tool results)"
)

// options are the derived settings of one request.
type options struct {
	compat          compat
	thinkingEnabled bool
	maxTokens       int
	budget          int    // budget mode
	effort          string // adaptive mode
	cacheControl    obj    // nil when caching is off
	betas           []string
	// oauth is set for a Claude Pro/Max OAuth token (oauth.go).
	oauth bool
}

// resolveOptions computes max_tokens, the thinking settings, the cache
// marker and the beta list the way the reference's simple-stream entry
// point does before it builds the body.
func resolveOptions(req *engine.LLMRequest) options {
	m := req.Model
	o := options{compat: readCompat(m), oauth: isOAuthToken(req.APIKey) && !isCopilot(m)}
	level := req.ThinkingLevel
	o.thinkingEnabled = level != "" && level != engine.ThinkingOff

	base := req.MaxTokens
	if base <= 0 {
		base = clampToContext(req, m.MaxTokens)
	}
	o.maxTokens = base
	if o.thinkingEnabled {
		if o.compat.forceAdaptiveThinking {
			o.effort = effortFor(m, level)
		} else {
			budget := llm.ThinkingBudget(level, req.ThinkingBudgets)
			adjusted := min(base+budget, m.MaxTokens)
			if m.MaxTokens <= 0 {
				adjusted = base + budget
			}
			if adjusted <= budget {
				budget = min(budget, max(0, adjusted-minAnswerTokens))
			}
			o.maxTokens = clampToContext(req, adjusted)
			o.budget = min(budget, max(0, o.maxTokens-minAnswerTokens))
		}
	}

	switch req.ResolvedCacheRetention() {
	case "none":
	case "long":
		o.cacheControl = obj{{"type", "ephemeral"}}
		if o.compat.supportsLongCacheRetention {
			o.cacheControl = append(o.cacheControl, kv{"ttl", "1h"})
		}
	default:
		o.cacheControl = obj{{"type", "ephemeral"}}
	}

	o.betas = betaFeatures(req, o)
	return o
}

// effortFor maps a thinking level to an adaptive-thinking effort: the
// model's thinkingLevelMap entry when it is a string, else the nearest
// effort Anthropic knows.
func effortFor(m *engine.Model, level engine.ThinkingLevel) string {
	if v, ok := llm.ThinkingMapEntry(m, string(level)); ok && v != nil {
		return *v
	}
	return llm.ClaudeEffort(level)
}

// betaFeatures lists the beta features of a request. An anthropic-beta
// header configured on the model or the request replaces the computed
// list, as in the reference.
func betaFeatures(req *engine.LLMRequest, o options) []string {
	configured, found := "", false
	for _, h := range []map[string]string{req.Model.Headers, req.Headers} {
		for k, v := range h {
			if strings.EqualFold(k, "anthropic-beta") {
				configured, found = v, true
			}
		}
	}
	var features []string
	if found {
		features = strings.Split(configured, ",")
	} else {
		if o.oauth {
			features = append(features, betaClaudeCode, betaOAuth)
		}
		if len(req.Tools) > 0 && !o.compat.supportsEagerToolInputStreaming {
			features = append(features, betaFineGrainedToolStream)
		}
		if req.Model.Reasoning && o.thinkingEnabled && !o.compat.forceAdaptiveThinking {
			features = append(features, betaInterleavedThinking)
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range features {
		f = strings.TrimSpace(f)
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}

// buildBody builds the request body in the reference's key order. The
// "betas" member is part of what payload hooks see; it is moved to the
// anthropic-beta header before sending.
func buildBody(req *engine.LLMRequest, o options) obj {
	m := req.Model
	body := obj{
		{"model", m.ID},
		{"messages", convertMessages(req, o)},
		{"max_tokens", o.maxTokens},
		{"stream", true},
	}
	if len(o.betas) > 0 {
		body = append(body, kv{"betas", o.betas})
	}
	var system []obj
	textBlock := func(text string) obj {
		block := obj{{"type", "text"}, {"text", text}}
		if o.cacheControl != nil {
			block = append(block, kv{"cache_control", o.cacheControl})
		}
		return block
	}
	if o.oauth {
		// An OAuth token only serves requests that start as Claude Code.
		system = append(system, textBlock(claudeCodeIdentity))
	}
	if text := llm.SystemText(req); text != "" {
		system = append(system, textBlock(text))
	}
	if len(system) > 0 {
		body = append(body, kv{"system", system})
	}
	// Temperature cannot be combined with extended thinking.
	if req.Temperature != nil && !o.thinkingEnabled && !o.compat.supportsMidConvoEffort && o.compat.supportsTemperature {
		body = append(body, kv{"temperature", *req.Temperature})
	}
	if len(req.Tools) > 0 {
		body = append(body, kv{"tools", convertTools(req.Tools, o)})
	}
	offValue, offPresent := llm.ThinkingMapEntry(m, string(engine.ThinkingOff))
	offIsNull := offPresent && offValue == nil
	switch {
	case m.Reasoning && !o.thinkingEnabled && !offIsNull:
		body = append(body, kv{"thinking", obj{{"type", "disabled"}}})
	case m.Reasoning && o.thinkingEnabled && o.compat.forceAdaptiveThinking:
		body = append(body, kv{"thinking", obj{{"type", "adaptive"}, {"display", "summarized"}}})
		if o.effort != "" {
			body = append(body, kv{"output_config", obj{{"effort", o.effort}}})
		}
	case m.Reasoning && o.thinkingEnabled:
		budget := o.budget
		if budget == 0 {
			budget = 1024
		}
		body = append(body, kv{"thinking", obj{{"type", "enabled"}, {"budget_tokens", budget}, {"display", "summarized"}}})
	}
	return body
}

// convertTools declares the tools with an input_schema reduced to what
// Anthropic accepts at the root: type, properties, required, and the
// additionalProperties and definitions keywords when present. The cache
// marker goes on the last tool.
func convertTools(tools []engine.ToolInfo, o options) []obj {
	out := make([]obj, 0, len(tools))
	for i, t := range tools {
		var schema map[string]json.RawMessage
		if len(t.Parameters) > 0 {
			_ = json.Unmarshal(t.Parameters, &schema)
		}
		input := obj{{"type", "object"}}
		if p, ok := schema["properties"]; ok && string(p) != "null" {
			input = append(input, kv{"properties", p})
		} else {
			input = append(input, kv{"properties", json.RawMessage("{}")})
		}
		if r, ok := schema["required"]; ok && string(r) != "null" {
			input = append(input, kv{"required", r})
		} else {
			input = append(input, kv{"required", json.RawMessage("[]")})
		}
		for _, k := range []string{"additionalProperties", "$defs", "definitions"} {
			if v, ok := schema[k]; ok {
				input = append(input, kv{k, v})
			}
		}
		tool := obj{{"name", o.wireToolName(t.Name)}, {"description", t.Description}}
		if o.compat.supportsEagerToolInputStreaming {
			tool = append(tool, kv{"eager_input_streaming", true})
		}
		tool = append(tool, kv{"input_schema", input})
		if o.cacheControl != nil && o.compat.supportsCacheControlOnTools && i == len(tools)-1 {
			tool = append(tool, kv{"cache_control", o.cacheControl})
		}
		out = append(out, tool)
	}
	return out
}

// normalizeToolCallID makes a tool-call id from another provider fit
// Anthropic's pattern and length limit: every other character becomes an
// underscore (one per UTF-16 unit, as in the reference) and the id is cut
// at 64 characters.
func normalizeToolCallID(id string) string { return llm.SanitizeID(id) }
