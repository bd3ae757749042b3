package google

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// Thought signatures are bytes on Google's side, so only base64 ones are
// replayed.
var base64Signature = regexp.MustCompile(`^[A-Za-z0-9+/]+={0,2}$`)

func validSignature(s string) bool {
	return s != "" && len(s)%4 == 0 && base64Signature.MatchString(s)
}

// replaySignature keeps a signature only for the model that made it.
func replaySignature(same bool, sig string) string {
	if same && validSignature(sig) {
		return sig
	}
	return ""
}

// convertContents turns the transcript into Gemini contents: user turns,
// model turns with their thought signatures, and tool results as function
// responses, those of one batch merged into a single user turn.
func convertContents(req *engine.LLMRequest, vertex bool) []llm.Object {
	m := req.Model
	var msgs []*engine.Message
	for _, msg := range req.Messages {
		// Gemini has no system turns: the leading prompt is the system
		// instruction and later ones are folded into it by the caller.
		if msg != nil && msg.Role != engine.RoleSystem {
			msgs = append(msgs, msg)
		}
	}
	msgs = llm.ConvertForProvider(m, normalizeCallIDs(m, msgs))
	withID := requiresToolCallID(m.ID)
	out := []llm.Object{}
	for _, msg := range msgs {
		switch msg.Role {
		case engine.RoleUser:
			parts := userParts(msg)
			if parts == nil {
				continue
			}
			out = append(out, llm.Object{}.Set("parts", parts).Set("role", "user"))
		case engine.RoleAssistant:
			parts := modelParts(m, msg, withID, vertex)
			if len(parts) == 0 {
				continue
			}
			out = append(out, llm.Object{}.Set("parts", parts).Set("role", "model"))
		case engine.RoleToolResult:
			out = appendToolResult(m, out, msg, withID, vertex)
		}
	}
	return out
}

// normalizeCallIDs fits the tool-call ids of other models' messages to
// what Google accepts, on models that echo ids, and renames the matching
// results.
func normalizeCallIDs(m *engine.Model, msgs []*engine.Message) []*engine.Message {
	if !requiresToolCallID(m.ID) {
		return msgs
	}
	return llm.RenameToolCallIDs(m, msgs, func(_ *engine.Message, id string) string { return llm.SanitizeID(id) })
}

func inlineData(c engine.Content) llm.Object {
	return llm.Object{}.Set("inlineData", llm.Object{}.Set("mimeType", c.MimeType).Set("data", c.Data))
}

// userParts returns the parts of a user message, or nil when it has none
// (an empty block list is skipped, an empty string is not).
func userParts(msg *engine.Message) []llm.Object {
	if msg.Content.IsString {
		return []llm.Object{llm.Object{}.Set("text", msg.Content.Text())}
	}
	var parts []llm.Object
	for _, c := range msg.Content.Blocks {
		switch c.Type {
		case engine.ContentText:
			parts = append(parts, llm.Object{}.Set("text", c.Text))
		case engine.ContentImage:
			parts = append(parts, inlineData(c))
		}
	}
	return parts
}

// modelParts replays an assistant message. Signatures go back only to the
// model that made them; an empty text or thinking part is kept only when
// it carries one, as Gemini needs it echoed.
func modelParts(m *engine.Model, msg *engine.Message, withID, vertex bool) []llm.Object {
	same := msg.Provider == m.Provider && msg.Model == m.ID
	var parts []llm.Object
	for _, b := range msg.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			sig := replaySignature(same, b.TextSignature)
			if strings.TrimSpace(b.Text) == "" && sig == "" {
				continue
			}
			p := llm.Object{}.Set("text", b.Text)
			if sig != "" {
				p = p.Set("thoughtSignature", sig)
			}
			parts = append(parts, p)
		case engine.ContentThinking:
			if !same {
				if strings.TrimSpace(b.Thinking) == "" {
					continue
				}
				parts = append(parts, llm.Object{}.Set("text", b.Thinking))
				continue
			}
			sig := replaySignature(same, b.ThinkingSignature)
			if strings.TrimSpace(b.Thinking) == "" && sig == "" {
				continue
			}
			p := llm.Object{}.Set("text", b.Thinking).Set("thought", true)
			if sig != "" {
				p = p.Set("thoughtSignature", sig)
			}
			parts = append(parts, p)
		case engine.ContentToolCall:
			args := b.Arguments
			if len(args) == 0 || string(args) == "null" {
				args = json.RawMessage("{}")
			}
			call := functionCall(b.Name, args, b.ID, withID, vertex)
			p := llm.Object{}.Set("functionCall", call)
			if sig := replaySignature(same, b.ThoughtSignature); sig != "" {
				p = p.Set("thoughtSignature", sig)
			}
			parts = append(parts, p)
		}
	}
	return parts
}

// appendToolResult adds a tool result as a function response, to the last
// user turn when that already holds function responses (one turn per
// batch). Images go inside the response on models that take them there,
// else in a user turn of their own after it.
func appendToolResult(m *engine.Model, out []llm.Object, msg *engine.Message, withID, vertex bool) []llm.Object {
	var texts []string
	var images []llm.Object
	for _, c := range msg.Content.Blocks {
		switch c.Type {
		case engine.ContentText:
			texts = append(texts, c.Text)
		case engine.ContentImage:
			if m.SupportsImages() {
				images = append(images, inlineData(c))
			}
		}
	}
	if msg.Content.IsString {
		texts = []string{msg.Content.Text()}
	}
	text := strings.Join(texts, "\n")
	value := ""
	switch {
	case strings.TrimSpace(text) != "":
		value = text
	case len(images) > 0:
		value = seeImageText
	}
	key := "output"
	if msg.IsError {
		key = "error"
	}
	inline := multimodalFunctionResponse(m.ID)
	var nested []llm.Object
	if inline {
		nested = images
	}
	resp := functionResponse(msg.ToolName, llm.Object{}.Set(key, value), nested, msg.ToolCallID, withID, vertex)
	part := llm.Object{}.Set("functionResponse", resp)
	if n := len(out); n > 0 && isFunctionResponseTurn(out[n-1]) {
		parts, _ := getKey(out[n-1], "parts")
		out[n-1] = setKey(out[n-1], "parts", append(parts.([]llm.Object), part))
	} else {
		out = append(out, llm.Object{}.Set("parts", []llm.Object{part}).Set("role", "user"))
	}
	if len(images) > 0 && !inline {
		parts := append([]llm.Object{llm.Object{}.Set("text", toolResultImageText)}, images...)
		out = append(out, llm.Object{}.Set("parts", parts).Set("role", "user"))
	}
	return out
}

func isFunctionResponseTurn(turn llm.Object) bool {
	role, _ := getKey(turn, "role")
	if role != "user" {
		return false
	}
	parts, _ := getKey(turn, "parts")
	ps, _ := parts.([]llm.Object)
	for _, p := range ps {
		if _, ok := getKey(p, "functionResponse"); ok {
			return true
		}
	}
	return false
}

// functionCall writes a call in the key order of the SDK's wire
// conversion: args, id, name for the Gemini API; Vertex AI keeps pi's
// name, args, id.
func functionCall(name string, args json.RawMessage, id string, withID, vertex bool) llm.Object {
	if vertex {
		call := llm.Object{}.Set("name", name).Set("args", args)
		if withID {
			call = call.Set("id", id)
		}
		return call
	}
	call := llm.Object{}.Set("args", args)
	if withID {
		call = call.Set("id", id)
	}
	return call.Set("name", name)
}

// functionResponse writes a tool result: name, response, parts, id for
// the Gemini API (pi's order, which that SDK keeps); id, name, parts,
// response for Vertex AI, whose conversion reorders them.
func functionResponse(name string, response llm.Object, parts []llm.Object, id string, withID, vertex bool) llm.Object {
	resp := llm.Object{}
	if vertex {
		if withID {
			resp = resp.Set("id", id)
		}
		resp = resp.Set("name", name)
		if len(parts) > 0 {
			resp = resp.Set("parts", parts)
		}
		return resp.Set("response", response)
	}
	resp = resp.Set("name", name).Set("response", response)
	if len(parts) > 0 {
		resp = resp.Set("parts", parts)
	}
	if withID {
		resp = resp.Set("id", id)
	}
	return resp
}
