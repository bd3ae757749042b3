package openai

import (
	"encoding/json"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// effortOr is the reference's "map[level] ?? level": a null or missing
// entry falls back to the level's own name.
func effortOr(m *engine.Model, level engine.ThinkingLevel) string {
	if v, _ := llm.ThinkingMapEntry(m, string(level)); v != nil {
		return *v
	}
	return string(level)
}

// offIsNull reports thinkingLevelMap.off set to null: thinking cannot be
// turned off, so no "disabled" parameter is sent.
func offIsNull(m *engine.Model) bool {
	v, present := llm.ThinkingMapEntry(m, "off")
	return present && v == nil
}

// defaultThinkingBudgets are the reference's token budgets per level;
// xhigh and max use high's.
var defaultThinkingBudgets = map[engine.ThinkingLevel]int{
	engine.ThinkingMinimal: 1024, engine.ThinkingLow: 2048, engine.ThinkingMedium: 8192, engine.ThinkingHigh: 16384,
}

// minAnswerTokens is what a thinking budget always leaves for the answer
// under a shared response ceiling.
const minAnswerTokens = 1024

// thinkingBudget is the level's budget, the settings' thinkingBudgets
// before the defaults, capped to leave room for the answer under
// ceiling; 0 means none.
func thinkingBudget(req *engine.LLMRequest, level engine.ThinkingLevel, ceiling int) int {
	if level == engine.ThinkingXHigh || level == engine.ThinkingMax {
		level = engine.ThinkingHigh
	}
	b, ok := req.ThinkingBudgets[level]
	if !ok {
		b = defaultThinkingBudgets[level]
	}
	return max(min(b, max(0, ceiling-minAnswerTokens)), 0)
}

// addThinking adds the reasoning parameters of the model's thinking
// format for the request's level, then the token budget field.
func addThinking(body llm.Object, req *engine.LLMRequest, c compat, ceiling int) llm.Object {
	m := req.Model
	if !m.Reasoning {
		return body
	}
	level := req.ThinkingLevel
	on := level != "" && level != engine.ThinkingOff
	budget := 0
	if on {
		budget = thinkingBudget(req, level, ceiling)
	}
	switch c.ThinkingFormat {
	case "zai":
		if on {
			body = body.Set("thinking", llm.Object{}.Set("type", "enabled").Set("clear_thinking", false))
			if c.SupportsReasoningEffort {
				if v, present := llm.ThinkingMapEntry(m, string(level)); !present {
					body = body.Set("reasoning_effort", string(level))
				} else if v != nil {
					body = body.Set("reasoning_effort", *v)
				}
			}
		} else {
			body = body.Set("thinking", llm.Object{}.Set("type", "disabled"))
		}
	case "qwen":
		body = body.Set("enable_thinking", on)
		if on && c.SupportsReasoningEffort {
			body = body.Set("reasoning_effort", effortOr(m, level))
		}
	case "qwen-chat-template":
		body = body.Set("chat_template_kwargs", llm.Object{}.Set("enable_thinking", on).Set("preserve_thinking", true))
	case "chat-template":
		if v := chatTemplateValues(m, level, c.ChatTemplateKwargs, budget); len(v) > 0 {
			body = body.Set("chat_template_kwargs", v)
		}
	case "baseten":
		if v := chatTemplateValues(m, level, c.ChatTemplateArgs, budget); len(v) > 0 {
			body = body.Set("chat_template_args", v)
		}
		if c.SupportsReasoningEffort {
			key := string(level)
			if !on {
				key = "off"
			}
			if v, present := llm.ThinkingMapEntry(m, key); present && v != nil {
				body = body.Set("reasoning_effort", *v)
			} else if !present && on {
				body = body.Set("reasoning_effort", string(level))
			}
		}
	case "deepseek":
		if on {
			body = body.Set("thinking", llm.Object{}.Set("type", "enabled"))
		} else if !offIsNull(m) {
			body = body.Set("thinking", llm.Object{}.Set("type", "disabled"))
		}
		if on && c.SupportsReasoningEffort {
			body = body.Set("reasoning_effort", effortOr(m, level))
		}
	case "openrouter":
		if on {
			body = body.Set("reasoning", llm.Object{}.Set("effort", effortOr(m, level)))
		} else if !offIsNull(m) {
			body = body.Set("reasoning", llm.Object{}.Set("effort", effortOr(m, "none")))
		}
	case "ant-ling":
		if on {
			if v, _ := llm.ThinkingMapEntry(m, string(level)); v != nil {
				body = body.Set("reasoning", llm.Object{}.Set("effort", *v))
			}
		}
	case "together":
		body = body.Set("reasoning", llm.Object{}.Set("enabled", on))
		if on && c.SupportsReasoningEffort {
			body = body.Set("reasoning_effort", effortOr(m, level))
		}
	case "string-thinking":
		if on {
			body = body.Set("thinking", effortOr(m, level))
		} else if !offIsNull(m) {
			body = body.Set("thinking", offOr(m, "none"))
		}
	default:
		if c.SupportsReasoningEffort {
			if on {
				body = body.Set("reasoning_effort", effortOr(m, level))
			} else if v, _ := llm.ThinkingMapEntry(m, "off"); v != nil {
				body = body.Set("reasoning_effort", *v)
			}
		}
	}
	field := c.ThinkingTokenBudgetField
	if field == "" && c.SupportsThinkingTokenBudget {
		field = "thinking_token_budget"
	}
	if field != "" && budget > 0 {
		body = body.Set(field, budget)
	}
	return body
}

// offOr is "map.off ?? fallback".
func offOr(m *engine.Model, fallback string) string {
	if v, _ := llm.ThinkingMapEntry(m, "off"); v != nil {
		return *v
	}
	return fallback
}

// chatTemplateValues resolves a compat chat-template object: plain values
// pass through; {"$var":"thinking.enabled"} and {"$var":"thinking.budget"}
// become the request's; other objects take the level's mapped name, and
// {"omitWhenOff":true} drops the key when thinking is off.
func chatTemplateValues(m *engine.Model, level engine.ThinkingLevel, raw json.RawMessage, budget int) llm.Object {
	fields := fieldsOf(raw)
	if fields == nil {
		return nil
	}
	on := level != "" && level != engine.ThinkingOff
	var out llm.Object
	for _, f := range fields {
		v := f.Value.(json.RawMessage)
		var spec struct {
			Var         *string `json:"$var"`
			OmitWhenOff bool    `json:"omitWhenOff"`
		}
		if len(v) == 0 || v[0] != '{' || json.Unmarshal(v, &spec) != nil {
			out = out.Set(f.Key, v)
			continue
		}
		if !on && spec.OmitWhenOff {
			continue
		}
		switch {
		case spec.Var != nil && *spec.Var == "thinking.enabled":
			out = out.Set(f.Key, on)
		case spec.Var != nil && *spec.Var == "thinking.budget":
			if budget > 0 {
				out = out.Set(f.Key, budget)
			}
		default:
			key := string(level)
			if !on {
				key = "off"
			}
			mv, present := llm.ThinkingMapEntry(m, key)
			switch {
			case !present && on:
				out = out.Set(f.Key, string(level))
			case present && mv != nil:
				out = out.Set(f.Key, *mv)
			}
		}
	}
	return out
}
