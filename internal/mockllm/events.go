package mockllm

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// created is the fixed "created" stamp of every chunk, so streams are
// reproducible.
const created = 1700000000

// splitChunks cuts s into pieces of size characters (code points, as
// Python slices strings).
func splitChunks(s string, size int) []string {
	if s == "" {
		return nil
	}
	if size < 1 {
		size = 1
	}
	r := []rune(s)
	var out []string
	for i := 0; i < len(r); i += size {
		j := min(i+size, len(r))
		out = append(out, string(r[i:j]))
	}
	return out
}

// toolArgs is the argument text the mock streams: a JSON string value is
// sent as is, anything else as Python's json.dumps of it.
func toolArgs(c ToolCall) string {
	if len(c.Arguments) == 0 || string(c.Arguments) == "null" {
		return "{}"
	}
	if c.Arguments[0] == '"' {
		var s string
		if json.Unmarshal(c.Arguments, &s) == nil {
			return s
		}
	}
	return string(pyDumps(raw(c.Arguments), false))
}

func turnSuffix(idx *int) string {
	if idx == nil {
		return "x"
	}
	return strconv.Itoa(*idx)
}

// pyIdx renders a turn index the way the Python f-string does (None for
// fallback turns).
func pyIdx(idx *int) string {
	if idx == nil {
		return "None"
	}
	return strconv.Itoa(*idx)
}

func (t *Turn) finish() string {
	if t.FinishReason != "" {
		return t.FinishReason
	}
	if len(t.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func openAIEvents(t *Turn, idx *int, model string, includeUsage bool) [][]byte {
	cid := "chatcmpl-mock-" + turnSuffix(idx)
	size := t.chunkSize()
	frame := func(choices []any, extra ...kv) []byte {
		o := obj{{"id", cid}, {"object", "chat.completion.chunk"}, {"created", created}, {"model", model}, {"choices", choices}}
		o = append(o, extra...)
		return append(append([]byte("data: "), pyDumps(o, false)...), '\n', '\n')
	}
	delta := func(d obj, finish any) []byte {
		return frame([]any{obj{{"index", 0}, {"delta", d}, {"finish_reason", finish}}})
	}
	out := [][]byte{delta(obj{{"role", "assistant"}, {"content", ""}}, nil)}
	for _, p := range splitChunks(t.Thinking, size) {
		out = append(out, delta(obj{{"reasoning_content", p}}, nil))
	}
	for _, p := range splitChunks(t.Text, size) {
		out = append(out, delta(obj{{"content", p}}, nil))
	}
	for i, c := range t.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_mock_%s_%d", pyIdx(idx), i)
		}
		out = append(out, delta(obj{{"tool_calls", []any{obj{{"index", i}, {"id", id}, {"type", "function"},
			{"function", obj{{"name", c.Name}, {"arguments", ""}}}}}}}, nil))
		for _, p := range splitChunks(toolArgs(c), size) {
			out = append(out, delta(obj{{"tool_calls", []any{obj{{"index", i}, {"function", obj{{"arguments", p}}}}}}}, nil))
		}
	}
	out = append(out, delta(obj{}, t.finish()))
	if includeUsage {
		u := t.usage()
		usage := obj{{"prompt_tokens", u.input + u.cacheRead}, {"completion_tokens", u.output},
			{"total_tokens", u.input + u.cacheRead + u.output}}
		if u.cacheRead != 0 {
			usage = append(usage, kv{"prompt_tokens_details", obj{{"cached_tokens", u.cacheRead}}})
		}
		out = append(out, frame([]any{}, kv{"usage", usage}))
	}
	return append(out, []byte("data: [DONE]\n\n"))
}

var anthropicStop = map[string]string{"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}

func anthropicStopReason(finish string) string {
	if s, ok := anthropicStop[finish]; ok {
		return s
	}
	return finish
}

func anthropicEvents(t *Turn, idx *int, model string) [][]byte {
	size := t.chunkSize()
	u := t.usage()
	ev := func(name string, o obj) []byte {
		b := []byte("event: " + name + "\ndata: ")
		b = append(b, pyDumps(o, false)...)
		return append(b, '\n', '\n')
	}
	out := [][]byte{ev("message_start", obj{{"type", "message_start"}, {"message", obj{
		{"id", "msg_mock_" + turnSuffix(idx)}, {"type", "message"}, {"role", "assistant"}, {"model", model},
		{"content", []any{}}, {"stop_reason", nil}, {"stop_sequence", nil},
		{"usage", obj{{"input_tokens", u.input}, {"cache_creation_input_tokens", u.cacheWrite},
			{"cache_read_input_tokens", u.cacheRead}, {"output_tokens", 1}}},
	}}})}
	index := 0
	blockDelta := func(d obj) []byte {
		return ev("content_block_delta", obj{{"type", "content_block_delta"}, {"index", index}, {"delta", d}})
	}
	stop := func() []byte {
		return ev("content_block_stop", obj{{"type", "content_block_stop"}, {"index", index}})
	}
	start := func(block obj) []byte {
		return ev("content_block_start", obj{{"type", "content_block_start"}, {"index", index}, {"content_block", block}})
	}
	if t.Thinking != "" {
		out = append(out, start(obj{{"type", "thinking"}, {"thinking", ""}, {"signature", ""}}))
		for _, p := range splitChunks(t.Thinking, size) {
			out = append(out, blockDelta(obj{{"type", "thinking_delta"}, {"thinking", p}}))
		}
		out = append(out, blockDelta(obj{{"type", "signature_delta"}, {"signature", "mock-sig-" + pyIdx(idx)}}))
		out = append(out, stop())
		index++
	}
	if t.Text != "" {
		out = append(out, start(obj{{"type", "text"}, {"text", ""}}))
		for _, p := range splitChunks(t.Text, size) {
			out = append(out, blockDelta(obj{{"type", "text_delta"}, {"text", p}}))
		}
		out = append(out, stop())
		index++
	}
	for i, c := range t.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("toolu_mock_%s_%d", pyIdx(idx), i)
		}
		out = append(out, start(obj{{"type", "tool_use"}, {"id", id}, {"name", c.Name}, {"input", obj{}}}))
		for _, p := range splitChunks(toolArgs(c), size) {
			out = append(out, blockDelta(obj{{"type", "input_json_delta"}, {"partial_json", p}}))
		}
		out = append(out, stop())
		index++
	}
	out = append(out, ev("message_delta", obj{{"type", "message_delta"},
		{"delta", obj{{"stop_reason", anthropicStopReason(t.finish())}, {"stop_sequence", nil}}},
		{"usage", obj{{"output_tokens", u.output}}}}))
	return append(out, ev("message_stop", obj{{"type", "message_stop"}}))
}

func openAIWhole(t *Turn, idx *int, model string) []byte {
	var content any
	if t.Text != "" {
		content = t.Text
	}
	msg := obj{{"role", "assistant"}, {"content", content}}
	if t.Thinking != "" {
		msg = append(msg, kv{"reasoning_content", t.Thinking})
	}
	if len(t.ToolCalls) > 0 {
		var calls []any
		for i, c := range t.ToolCalls {
			id := c.ID
			if id == "" {
				id = fmt.Sprintf("call_mock_%s_%d", pyIdx(idx), i)
			}
			calls = append(calls, obj{{"id", id}, {"type", "function"}, {"function", obj{{"name", c.Name}, {"arguments", toolArgs(c)}}}})
		}
		msg = append(msg, kv{"tool_calls", calls})
	}
	u := t.usage()
	return pyDumps(obj{{"id", "chatcmpl-mock-" + turnSuffix(idx)}, {"object", "chat.completion"}, {"created", created},
		{"model", model}, {"choices", []any{obj{{"index", 0}, {"message", msg}, {"finish_reason", t.finish()}}}},
		{"usage", obj{{"prompt_tokens", u.input + u.cacheRead}, {"completion_tokens", u.output},
			{"total_tokens", u.input + u.cacheRead + u.output}}}}, true)
}

func anthropicWhole(t *Turn, idx *int, model string) []byte {
	content := []any{}
	if t.Thinking != "" {
		content = append(content, obj{{"type", "thinking"}, {"thinking", t.Thinking}, {"signature", "mock-sig-" + pyIdx(idx)}})
	}
	if t.Text != "" {
		content = append(content, obj{{"type", "text"}, {"text", t.Text}})
	}
	for i, c := range t.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("toolu_mock_%s_%d", pyIdx(idx), i)
		}
		content = append(content, obj{{"type", "tool_use"}, {"id", id}, {"name", c.Name}, {"input", raw(toolArgs(c))}})
	}
	u := t.usage()
	return pyDumps(obj{{"id", "msg_mock_" + turnSuffix(idx)}, {"type", "message"}, {"role", "assistant"},
		{"model", model}, {"content", content}, {"stop_reason", anthropicStopReason(t.finish())}, {"stop_sequence", nil},
		{"usage", obj{{"input_tokens", u.input}, {"cache_creation_input_tokens", u.cacheWrite},
			{"cache_read_input_tokens", u.cacheRead}, {"output_tokens", u.output}}}}, true)
}

// faultBody is the body of a fault turn: the scripted one, or a default
// error object in the API's shape.
func faultBody(status int, api string, body json.RawMessage) []byte {
	if len(body) > 0 {
		if body[0] == '"' {
			var s string
			if json.Unmarshal(body, &s) == nil {
				return []byte(s)
			}
		}
		return pyDumps(raw(body), true)
	}
	pick := func(m map[int]string, def string) string {
		if s, ok := m[status]; ok {
			return s
		}
		return def
	}
	if api == "anthropic" {
		etype := pick(map[int]string{529: "overloaded_error", 429: "rate_limit_error", 500: "api_error"}, "api_error")
		msg := pick(map[int]string{529: "Overloaded", 429: "Rate limited", 500: "Internal server error"}, "Error")
		return pyDumps(obj{{"type", "error"}, {"error", obj{{"type", etype}, {"message", msg}}}}, true)
	}
	etype := pick(map[int]string{529: "overloaded_error", 429: "rate_limit_exceeded", 500: "server_error"}, "server_error")
	msg := pick(map[int]string{529: "Overloaded", 429: "Rate limit exceeded", 500: "Internal server error"}, "Error")
	return pyDumps(obj{{"error", obj{{"message", msg}, {"type", etype}, {"code", nil}}}}, true)
}
