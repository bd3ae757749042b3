package mockllm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// DefaultFallbackText answers every request after the script is used up.
const DefaultFallbackText = "Mock script exhausted."

// Script is the list of turns the server plays, in order.
type Script struct {
	Turns        []Turn
	FallbackText string // DefaultFallbackText when empty
}

// Turn is one scripted reply, fault, hang or disconnect. The JSON form is
// the Python mock's (snake_case keys).
type Turn struct {
	Text      string
	Thinking  string
	ToolCalls []ToolCall
	// ChunkSize is the number of characters per streamed delta (default 8).
	ChunkSize int
	// DelayMs pauses between streamed events (and before a fault).
	DelayMs      int
	Usage        *Usage
	FinishReason string // OpenAI names; mapped for Anthropic

	// Status > 0 makes the turn a fault answered with Body and Headers.
	Status  int
	Body    json.RawMessage // a JSON value; a JSON string is sent as raw text
	Headers map[string]string

	// HangMs holds the request, then drops the connection, or, when the
	// turn also has reply fields, replies normally.
	HangMs int
	// DisconnectAfterChunks, when set, streams that many SSE events and
	// cuts the connection.
	DisconnectAfterChunks *int

	// keys records which JSON keys were present, because the Python mock
	// classifies turns by key presence (an empty "text" still is a reply).
	keys map[string]bool
}

// ToolCall is one scripted tool call. Arguments is a JSON object (its key
// order is kept) or a JSON string holding the raw argument text.
type ToolCall struct {
	Name      string
	Arguments json.RawMessage
	ID        string
}

// Usage overrides the default usage (input 100, output 20, no cache).
type Usage struct {
	Input      *int `json:"input,omitempty"`
	Output     *int `json:"output,omitempty"`
	CacheRead  *int `json:"cache_read,omitempty"`
	CacheWrite *int `json:"cache_write,omitempty"`
}

type usageVals struct{ input, output, cacheRead, cacheWrite int }

func (t *Turn) usage() usageVals {
	u := usageVals{100, 20, 0, 0}
	if t.Usage != nil {
		set := func(dst *int, src *int) {
			if src != nil {
				*dst = *src
			}
		}
		set(&u.input, t.Usage.Input)
		set(&u.output, t.Usage.Output)
		set(&u.cacheRead, t.Usage.CacheRead)
		set(&u.cacheWrite, t.Usage.CacheWrite)
	}
	return u
}

func (t *Turn) has(k string) bool {
	if t.keys != nil {
		return t.keys[k]
	}
	// A turn built in Go: presence means a non-zero value.
	switch k {
	case "status":
		return t.Status > 0
	case "disconnect_after_chunks":
		return t.DisconnectAfterChunks != nil
	case "hang_ms":
		return t.HangMs > 0
	case "text":
		return t.Text != ""
	case "thinking":
		return t.Thinking != ""
	case "tool_calls":
		return t.ToolCalls != nil
	}
	return false
}

// Kind classifies the turn like the Python mock: fault, disconnect, hang
// or reply.
func (t *Turn) Kind() string {
	switch {
	case t.has("status"):
		return "fault"
	case t.has("disconnect_after_chunks"):
		return "disconnect"
	case t.has("hang_ms") && !t.hasReplyFields():
		return "hang"
	}
	return "reply"
}

func (t *Turn) hasReplyFields() bool {
	return t.has("text") || t.has("thinking") || t.has("tool_calls")
}

func (t *Turn) chunkSize() int {
	if t.ChunkSize <= 0 {
		return 8
	}
	return t.ChunkSize
}

// UnmarshalJSON reads the Python mock's turn shape.
func (t *Turn) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("mock turn: %w", err)
	}
	var w struct {
		Text                  *string         `json:"text"`
		Thinking              *string         `json:"thinking"`
		ToolCalls             []ToolCall      `json:"tool_calls"`
		ChunkSize             int             `json:"chunk_size"`
		DelayMs               float64         `json:"delay_ms"`
		Usage                 *Usage          `json:"usage"`
		FinishReason          *string         `json:"finish_reason"`
		Status                int             `json:"status"`
		Body                  json.RawMessage `json:"body"`
		Headers               map[string]any  `json:"headers"`
		HangMs                float64         `json:"hang_ms"`
		DisconnectAfterChunks *int            `json:"disconnect_after_chunks"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("mock turn: %w", err)
	}
	*t = Turn{ToolCalls: w.ToolCalls, ChunkSize: w.ChunkSize, DelayMs: int(w.DelayMs), Usage: w.Usage,
		Status: w.Status, HangMs: int(w.HangMs), DisconnectAfterChunks: w.DisconnectAfterChunks, keys: map[string]bool{}}
	for k := range raw {
		t.keys[k] = true
	}
	if w.Text != nil {
		t.Text = *w.Text
	}
	if w.Thinking != nil {
		t.Thinking = *w.Thinking
	}
	if w.FinishReason != nil {
		t.FinishReason = *w.FinishReason
	}
	if len(w.Body) > 0 && string(w.Body) != "null" {
		t.Body = w.Body
	}
	if len(w.Headers) > 0 {
		t.Headers = map[string]string{}
		for k, v := range w.Headers {
			t.Headers[k] = fmt.Sprint(v)
		}
	}
	return nil
}

// UnmarshalJSON reads a tool call {"name", "arguments", "id"?}.
func (c *ToolCall) UnmarshalJSON(b []byte) error {
	var w struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		ID        string          `json:"id"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("mock tool call: %w", err)
	}
	*c = ToolCall(w)
	return nil
}

// ParseScript reads a script as the Python mock does: a list of turns, an
// object {"turns": [...], "fallback_text": "..."}, or null. The "mock" key
// of a conformance scenario file has this shape.
func ParseScript(data []byte) (Script, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return Script{}, nil
	}
	if data[0] == '[' {
		var turns []Turn
		if err := json.Unmarshal(data, &turns); err != nil {
			return Script{}, fmt.Errorf("mock script: %w", err)
		}
		return Script{Turns: turns}, nil
	}
	var w struct {
		Turns        []Turn  `json:"turns"`
		FallbackText *string `json:"fallback_text"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return Script{}, fmt.Errorf("mock script: %w", err)
	}
	s := Script{Turns: w.Turns}
	if w.FallbackText != nil {
		s.FallbackText = *w.FallbackText
	}
	return s, nil
}

// LoadScript reads a script file.
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, fmt.Errorf("mock script: %w", err)
	}
	return ParseScript(data)
}
