package pimessages

import (
	"encoding/json"
	"os"

	"github.com/pi-go/pi/engine"
)

// payload is the request body: {model, context, options}, with options
// that are unset left out as JSON.stringify drops undefined values.
type payload struct {
	Model   string      `json:"model"`
	Context wireContext `json:"context"`
	Options options     `json:"options"`
}

type wireContext struct {
	Messages []json.RawMessage `json:"messages"`
}

// options keeps the reference's key order; maxTokens and toolChoice are
// never set by the coding agent, which passes neither to this API.
type options struct {
	Temperature    *float64 `json:"temperature,omitempty"`
	MaxTokens      int      `json:"maxTokens,omitempty"`
	Reasoning      string   `json:"reasoning,omitempty"`
	CacheRetention string   `json:"cacheRetention,omitempty"`
	SessionID      string   `json:"sessionId,omitempty"`
}

// initialSystem is the leading system message the reference builds from a
// system prompt and tools when the transcript has none: its keys come in
// this order, timestamp last and 0.
type initialSystem struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolsAdded []toolDecl `json:"toolsAdded,omitempty"`
	Timestamp  int64      `json:"timestamp"`
}

type toolDecl struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// buildPayload renders the request body. The transcript goes out as the
// engine serialises it (the reference's shape); a system prompt or tools
// given outside it become a leading system message, as the reference's
// context normalisation does, unless the transcript already starts with one.
func buildPayload(req *engine.LLMRequest) ([]byte, error) {
	msgs := make([]json.RawMessage, 0, len(req.Messages)+1)
	leading := len(req.Messages) > 0 && req.Messages[0] != nil && req.Messages[0].Role == engine.RoleSystem
	if !leading && (req.SystemPrompt != "" || len(req.Tools) > 0) {
		sys := initialSystem{Role: engine.RoleSystem, Content: req.SystemPrompt}
		for _, t := range req.Tools {
			params := t.Parameters
			if len(params) == 0 {
				params = json.RawMessage("{}")
			}
			sys.ToolsAdded = append(sys.ToolsAdded, toolDecl{Name: t.Name, Description: t.Description, Parameters: params})
		}
		b, err := engine.MarshalJSON(sys)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, b)
	}
	for _, m := range req.Messages {
		if m == nil {
			continue
		}
		b, err := engine.MarshalJSON(m)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, b)
	}
	p := payload{
		Model:   req.Model.ID,
		Context: wireContext{Messages: msgs},
		Options: options{
			Temperature:    req.Temperature,
			Reasoning:      reasoning(req.ThinkingLevel),
			CacheRetention: cacheRetention(req.CacheRetention),
			SessionID:      req.SessionID,
		},
	}
	return engine.MarshalJSON(p)
}

// reasoning is the thinking level the request names: the agent passes none
// when thinking is off.
func reasoning(level engine.ThinkingLevel) string {
	if level == "" || level == engine.ThinkingOff {
		return ""
	}
	return string(level)
}

// cacheRetention is the request's own preference; unset, the backend's
// default applies and only the PI_CACHE_RETENTION=long opt-in is passed.
func cacheRetention(set string) string {
	if set != "" {
		return set
	}
	if os.Getenv("PI_CACHE_RETENTION") == "long" {
		return "long"
	}
	return ""
}
