package bedrock

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// Texts and names the reference puts on the wire.
const (
	emptyTextPlaceholder  = "<empty>"
	errorImagePlaceholder = "(image attached after the tool results)"
	betaInterleaved       = "interleaved-thinking-2025-05-14"
	betaBlockBinding      = "thinking-binding-controls-2026-08-01"
	minAnswerTokens       = 1024
)

// wireOrder is the order in which the SDK serialises ConverseStream's
// members (its schema order, not the order the input was built in).
// modelId goes into the URL path.
var wireOrder = []string{"messages", "system", "inferenceConfig", "toolConfig", "guardrailConfig",
	"additionalModelRequestFields", "promptVariables", "additionalModelResponseFieldPaths", "requestMetadata",
	"performanceConfig", "serviceTier", "outputConfig"}

// settings are the derived options of one request, computed as the
// reference's simple-stream entry point does before it builds the body.
type settings struct {
	claude    bool
	reasoning engine.ThinkingLevel // "" when thinking is off
	maxTokens int
	budget    int
	cacheLong bool
	cacheNone bool
	govCloud  bool
	// noPreferredStrict sends tools that only prefer strict sampling
	// without it (after Claude rejected the strict tools' size).
	noPreferredStrict bool
}

func resolveSettings(req *engine.LLMRequest, e env) settings {
	m := req.Model
	s := settings{claude: isClaude(m)}
	switch retention := req.CacheRetention; {
	case retention == "none":
		s.cacheNone = true
	case retention == "long", retention == "" && e.get("PI_CACHE_RETENTION") == "long":
		s.cacheLong = true
	}
	if l := req.ThinkingLevel; l != "" && l != engine.ThinkingOff {
		s.reasoning = l
	}
	region := e.get("AWS_REGION")
	if region == "" {
		region = e.get("AWS_DEFAULT_REGION")
	}
	id := strings.ToLower(m.ID)
	s.govCloud = strings.HasPrefix(strings.ToLower(region), "us-gov-") || strings.HasPrefix(id, "us-gov.") || strings.HasPrefix(id, "arn:aws-us-gov:")

	base := req.MaxTokens
	if base <= 0 {
		base = clampToContext(req, m.MaxTokens)
	}
	s.maxTokens = base
	if s.reasoning != "" && s.claude && !adaptive(m) {
		budget := llm.ThinkingBudget(s.reasoning, req.ThinkingBudgets)
		adjusted := min(base+budget, m.MaxTokens)
		if adjusted <= budget {
			budget = min(budget, max(0, adjusted-minAnswerTokens))
		}
		s.maxTokens = clampToContext(req, adjusted)
		s.budget = min(budget, max(0, s.maxTokens-minAnswerTokens))
	}
	return s
}

func clampToContext(req *engine.LLMRequest, maxTokens int) int {
	return engine.ClampMaxTokens(req.Model, engine.EstimateContextTokens(req.Messages), maxTokens)
}

// buildInput returns the ConverseStream input the reference builds, with
// modelId first: the object a before_provider_request hook sees. Its
// members are already in wire order.
func buildInput(req *engine.LLMRequest, s settings, e env) (in llm.Object, preferredStrict bool, err error) {
	m := req.Model
	msgs, err := convertMessages(req, s, e)
	if err != nil {
		return nil, false, err
	}
	in = llm.Object{}.Set("modelId", m.ID).Set("messages", msgs)
	if sys := llm.SystemText(req); sys != "" {
		blocks := []llm.Object{{{Key: "text", Value: sys}}}
		if cachePoint := cachePointBlock(m, s, e); cachePoint != nil {
			blocks = append(blocks, cachePoint)
		}
		in = in.Set("system", blocks)
	}
	inference := llm.Object{}
	if s.maxTokens > 0 {
		inference = inference.Set("maxTokens", s.maxTokens)
	}
	if req.Temperature != nil {
		inference = inference.Set("temperature", *req.Temperature)
	}
	in = in.Set("inferenceConfig", inference)
	tc, preferredStrict, err := toolConfig(req, s.noPreferredStrict)
	if err != nil {
		return nil, false, err
	}
	if tc != nil {
		in = in.Set("toolConfig", tc)
	}
	if f := additionalFields(m, s); f != nil {
		in = in.Set("additionalModelRequestFields", f)
	}
	return in, preferredStrict, nil
}

// wireBody turns the (possibly hook-replaced) input into the HTTP body:
// modelId is taken out for the path, the known members are written in
// the SDK's order, and null or unknown members are dropped as the SDK's
// serialiser drops them.
func wireBody(input []byte) (modelID string, body []byte, err error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(input, &fields); err != nil {
		return "", nil, fmt.Errorf("invalid request payload: %w", err)
	}
	if raw, ok := fields["modelId"]; ok {
		_ = json.Unmarshal(raw, &modelID)
	}
	out := llm.Object{}
	for _, k := range wireOrder {
		if v, ok := fields[k]; ok && string(v) != "null" {
			out = out.Set(k, v)
		}
	}
	body, err = out.MarshalJSON()
	return modelID, body, err
}

// cachePointBlock is the cache marker for models that take one, or nil.
func cachePointBlock(m *engine.Model, s settings, e env) llm.Object {
	if s.cacheNone || !supportsCaching(m, e) {
		return nil
	}
	cp := llm.Object{}.Set("type", "default")
	if s.cacheLong {
		cp = cp.Set("ttl", "1h")
	}
	return llm.Object{}.Set("cachePoint", cp)
}

func textBlock(s string) llm.Object { return llm.Object{}.Set("text", s) }

// nonBlank returns a text block unless s is blank.
func nonBlank(s string) (llm.Object, bool) {
	if strings.TrimSpace(s) == "" {
		return nil, false
	}
	return textBlock(s), true
}

func imageBlock(c engine.Content) (llm.Object, error) {
	var format string
	switch c.MimeType {
	case "image/jpeg", "image/jpg":
		format = "jpeg"
	case "image/png":
		format = "png"
	case "image/gif":
		format = "gif"
	case "image/webp":
		format = "webp"
	default:
		return nil, errors.New("Unknown image type: " + c.MimeType)
	}
	raw, err := base64.StdEncoding.DecodeString(c.Data)
	if err != nil {
		return nil, fmt.Errorf("invalid image data: %w", err)
	}
	// The SDK sends a blob as base64; re-encoding normalises the padding.
	return llm.Object{}.Set("image", llm.Object{}.Set("format", format).
		Set("source", llm.Object{}.Set("bytes", base64.StdEncoding.EncodeToString(raw)))), nil
}

// convertMessages turns the transcript into Converse messages: tool
// results of one turn become one user message, blank text is dropped or
// replaced by "<empty>" where Bedrock requires content, and the last user
// message carries the cache marker.
func convertMessages(req *engine.LLMRequest, s settings, e env) ([]llm.Object, error) {
	m := req.Model
	var in []*engine.Message
	for _, msg := range req.Messages {
		if msg != nil && msg.Role != engine.RoleSystem {
			in = append(in, msg)
		}
	}
	msgs := normalizeIDs(m, llm.ConvertForProvider(m, in))
	out := []llm.Object{}
	for i := 0; i < len(msgs); i++ {
		msg := msgs[i]
		switch msg.Role {
		case engine.RoleUser:
			var content []llm.Object
			if msg.Content.IsString {
				content = append(content, requiredText(msg.Content.Text()))
			} else {
				for _, c := range msg.Content.Blocks {
					switch c.Type {
					case engine.ContentText:
						if b, ok := nonBlank(c.Text); ok {
							content = append(content, b)
						}
					case engine.ContentImage:
						b, err := imageBlock(c)
						if err != nil {
							return nil, err
						}
						content = append(content, b)
					}
				}
				if len(content) == 0 {
					content = append(content, textBlock(emptyTextPlaceholder))
				}
			}
			out = append(out, llm.Object{}.Set("role", "user").Set("content", content))
		case engine.RoleAssistant:
			if content := assistantContent(msg, s); len(content) > 0 {
				out = append(out, llm.Object{}.Set("role", "assistant").Set("content", content))
			}
		case engine.RoleToolResult:
			var results, after []llm.Object
			for ; i < len(msgs) && msgs[i].Role == engine.RoleToolResult; i++ {
				r := msgs[i]
				blocks := r.Content
				var images []engine.Content
				if s.claude && r.IsError {
					blocks, images = splitErrorImages(r.Content)
				}
				content, err := toolResultContent(blocks)
				if err != nil {
					return nil, err
				}
				status := "success"
				if r.IsError {
					status = "error"
				}
				results = append(results, llm.Object{}.Set("toolResult", llm.Object{}.
					Set("toolUseId", r.ToolCallID).Set("content", content).Set("status", status)))
				if len(images) > 0 {
					after = append(after, textBlock(fmt.Sprintf("Images from the error result of tool call %s (%s):", r.ToolCallID, r.ToolName)))
					for _, img := range images {
						b, err := imageBlock(img)
						if err != nil {
							return nil, err
						}
						after = append(after, b)
					}
				}
			}
			i--
			out = append(out, llm.Object{}.Set("role", "user").Set("content", append(results, after...)))
		}
	}
	if cp := cachePointBlock(m, s, e); cp != nil && len(out) > 0 {
		last := out[len(out)-1]
		if last[0].Value == "user" {
			content := last[1].Value.([]llm.Object)
			last[1].Value = append(content, cp)
		}
	}
	return out, nil
}

func requiredText(s string) llm.Object {
	if b, ok := nonBlank(s); ok {
		return b
	}
	return textBlock(emptyTextPlaceholder)
}

func assistantContent(msg *engine.Message, s settings) []llm.Object {
	var out []llm.Object
	for _, c := range msg.Content.Blocks {
		switch c.Type {
		case engine.ContentText:
			if b, ok := nonBlank(c.Text); ok {
				out = append(out, b)
			}
		case engine.ContentToolCall:
			out = append(out, llm.Object{}.Set("toolUse", llm.Object{}.
				Set("toolUseId", c.ID).Set("name", c.Name).Set("input", sanitizeDocument(c.Arguments))))
		case engine.ContentThinking:
			if c.Redacted {
				// Encrypted reasoning is replayed as the opaque bytes it came as.
				if raw, err := base64.StdEncoding.DecodeString(c.ThinkingSignature); err == nil && len(raw) > 0 {
					out = append(out, llm.Object{}.Set("reasoningContent", llm.Object{}.
						Set("redactedContent", base64.StdEncoding.EncodeToString(raw))))
				}
				continue
			}
			if strings.TrimSpace(c.Thinking) == "" {
				continue
			}
			// Only Claude takes a signature; replaying unsigned Claude
			// thinking as reasoning would be rejected, so it goes as text.
			switch {
			case s.claude && strings.TrimSpace(c.ThinkingSignature) == "":
				out = append(out, textBlock(c.Thinking))
			case s.claude:
				out = append(out, llm.Object{}.Set("reasoningContent", llm.Object{}.Set("reasoningText",
					llm.Object{}.Set("text", c.Thinking).Set("signature", c.ThinkingSignature))))
			default:
				out = append(out, llm.Object{}.Set("reasoningContent", llm.Object{}.Set("reasoningText",
					llm.Object{}.Set("text", c.Thinking))))
			}
		}
	}
	return out
}

func toolResultContent(c engine.Contents) ([]llm.Object, error) {
	var out []llm.Object
	if c.IsString {
		if b, ok := nonBlank(c.Text()); ok {
			out = append(out, b)
		}
	}
	for _, b := range c.Blocks {
		switch b.Type {
		case engine.ContentImage:
			img, err := imageBlock(b)
			if err != nil {
				return nil, err
			}
			out = append(out, img)
		case engine.ContentText:
			if t, ok := nonBlank(b.Text); ok {
				out = append(out, t)
			}
		}
	}
	if len(out) == 0 {
		out = append(out, textBlock(emptyTextPlaceholder))
	}
	return out, nil
}

// splitErrorImages takes the images out of an error result (Claude
// rejects them there): each run of images becomes one placeholder text,
// and the images follow all results of the turn.
func splitErrorImages(c engine.Contents) (engine.Contents, []engine.Content) {
	var images []engine.Content
	for _, b := range c.Blocks {
		if b.Type == engine.ContentImage {
			images = append(images, b)
		}
	}
	if len(images) == 0 {
		return c, nil
	}
	return engine.Contents{Blocks: llm.ReplaceImages(c.Blocks, errorImagePlaceholder)}, images
}

// normalizeIDs makes the tool-call ids of other models' turns fit
// Bedrock's [a-zA-Z0-9_-]{1,64}, and renames their results to match.
func normalizeIDs(m *engine.Model, msgs []*engine.Message) []*engine.Message {
	return llm.RenameToolCallIDs(m, msgs, func(_ *engine.Message, id string) string { return llm.SanitizeID(id) })
}

// toolConfig declares the tools; strict schemas go to models that
// support them, for tools that ask for strict sampling.
func toolConfig(req *engine.LLMRequest, noPreferredStrict bool) (cfg llm.Object, preferredStrict bool, err error) {
	if len(req.Tools) == 0 {
		return nil, false, nil
	}
	supportsStrict := compatBool(req.Model, "supportsStrictMode")
	tools := make([]llm.Object, 0, len(req.Tools))
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		preferred := prefersStrict(t)
		var strict json.RawMessage
		if !noPreferredStrict || !preferred {
			if strict, err = llm.StrictToolParameters(t, params, supportsStrict); err != nil {
				return nil, false, err
			}
		}
		if strict != nil && preferred {
			preferredStrict = true
		}
		spec := llm.Object{}.Set("name", t.Name)
		if strict != nil {
			spec = spec.Set("inputSchema", llm.Object{}.Set("json", strict)).Set("description", t.Description).Set("strict", true)
		} else {
			spec = spec.Set("inputSchema", llm.Object{}.Set("json", params)).Set("description", t.Description)
		}
		tools = append(tools, llm.Object{}.Set("toolSpec", spec))
	}
	return llm.Object{}.Set("tools", tools), preferredStrict, nil
}

// prefersStrict reports a tool that asks for strict JSON-schema sampling
// only where it is available (strict "prefer"), as built-in tools do.
func prefersStrict(t engine.ToolInfo) bool {
	cfg := t.ConstrainedSampling
	if !t.OwnSampling && len(cfg) == 0 {
		return true
	}
	var c struct {
		Type   string `json:"type"`
		Strict any    `json:"strict"`
	}
	return json.Unmarshal(cfg, &c) == nil && c.Type == "json_schema" && c.Strict == "prefer"
}

// compatBool reads a boolean from the model's compat object.
func compatBool(m *engine.Model, key string) bool {
	if len(m.Compat) == 0 {
		return false
	}
	var c map[string]json.RawMessage
	if json.Unmarshal(m.Compat, &c) != nil {
		return false
	}
	return string(c[key]) == "true"
}

// additionalFields are the model-family thinking parameters.
func additionalFields(m *engine.Model, s settings) llm.Object {
	if s.reasoning == "" || !m.Reasoning {
		return nil
	}
	if s.claude {
		display := "summarized"
		if s.govCloud {
			display = ""
		}
		binding := !s.govCloud && supportsBlockBinding(m)
		var out llm.Object
		if adaptive(m) {
			thinking := llm.Object{}.Set("type", "adaptive")
			if display != "" {
				thinking = thinking.Set("display", display)
			}
			if binding {
				thinking = thinking.Set("block_binding", llm.Object{}.Set("prefix_mismatch_behavior", "drop_block"))
			}
			out = llm.Object{}.Set("thinking", thinking).Set("output_config", llm.Object{}.Set("effort", effortFor(m, s.reasoning)))
			if binding {
				out = out.Set("anthropic_beta", []string{betaBlockBinding})
			}
			return out
		}
		thinking := llm.Object{}.Set("type", "enabled").Set("budget_tokens", s.budget)
		if display != "" {
			thinking = thinking.Set("display", display)
		}
		return llm.Object{}.Set("thinking", thinking).Set("anthropic_beta", []string{betaInterleaved})
	}
	if matches(m, "gpt-oss") {
		effort := "high"
		switch s.reasoning {
		case engine.ThinkingMinimal, engine.ThinkingLow:
			effort = "low"
		case engine.ThinkingMedium:
			effort = "medium"
		}
		return llm.Object{}.Set("reasoning_effort", effort)
	}
	if matches(m, "gpt-") {
		effort := string(s.reasoning)
		if s.reasoning == engine.ThinkingMinimal {
			effort = "low"
		}
		if v, ok := mappedLevel(m, s.reasoning); ok {
			effort = v
		}
		return llm.Object{}.Set("reasoning", llm.Object{}.Set("effort", effort))
	}
	return nil
}

// effortFor maps a level to an adaptive-thinking effort: xhigh where the
// model has it natively, the model's thinkingLevelMap entry when it is a
// string, else the nearest effort.
func effortFor(m *engine.Model, level engine.ThinkingLevel) string {
	if level == engine.ThinkingXHigh && matches(m, "opus-4-7", "opus-4-8", "opus-5", "sonnet-5", "haiku-5", "fable-5") {
		return "xhigh"
	}
	if v, ok := mappedLevel(m, level); ok {
		return v
	}
	return llm.ClaudeEffort(level)
}

// mappedLevel is the model's thinkingLevelMap entry for level when it is
// a string.
func mappedLevel(m *engine.Model, level engine.ThinkingLevel) (string, bool) {
	if len(m.ThinkingLevelMap) == 0 {
		return "", false
	}
	var mp map[string]json.RawMessage
	if json.Unmarshal(m.ThinkingLevelMap, &mp) != nil {
		return "", false
	}
	var s string
	if json.Unmarshal(mp[string(level)], &s) != nil {
		return "", false
	}
	return s, true
}

// candidates are the model's id and name, lower case, each also with
// runs of spaces, underscores, dots and colons turned into one dash, so
// "Claude Opus 4.6" matches "opus-4-6".
func candidates(m *engine.Model) []string {
	vals := []string{m.ID}
	if m.Name != "" {
		vals = append(vals, m.Name)
	}
	var out []string
	for _, v := range vals {
		l := strings.ToLower(v)
		var b strings.Builder
		sep := false
		for _, r := range l {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' || r == '_' || r == '.' || r == ':' {
				if !sep {
					b.WriteByte('-')
				}
				sep = true
				continue
			}
			sep = false
			b.WriteRune(r)
		}
		out = append(out, l, b.String())
	}
	return out
}

func matches(m *engine.Model, subs ...string) bool {
	for _, c := range candidates(m) {
		for _, s := range subs {
			if strings.Contains(c, s) {
				return true
			}
		}
	}
	return false
}

// isClaude reports an Anthropic Claude model, by id or (for application
// inference profiles, whose ARNs do not name the model) by name.
func isClaude(m *engine.Model) bool {
	id, name := strings.ToLower(m.ID), strings.ToLower(m.Name)
	return strings.Contains(id, "anthropic.claude") || strings.Contains(id, "anthropic/claude") || strings.Contains(name, "claude")
}

func adaptive(m *engine.Model) bool {
	return matches(m, "opus-4-6", "opus-4-7", "opus-4-8", "opus-5", "sonnet-4-6", "sonnet-5", "haiku-5", "fable-5")
}

func supportsBlockBinding(m *engine.Model) bool {
	return matches(m, "opus-4-7", "opus-4-8", "opus-5", "sonnet-5", "haiku-5", "fable-5")
}

// supportsCaching reports Claude models that take cache points (3.5
// Haiku, 3.7 Sonnet, 4.x, 5); AWS_BEDROCK_FORCE_CACHE=1 forces them for
// models whose id and name do not say Claude.
func supportsCaching(m *engine.Model, e env) bool {
	if !matches(m, "claude") {
		return e.get("AWS_BEDROCK_FORCE_CACHE") == "1"
	}
	return matches(m, "fable-5", "opus-5", "sonnet-5", "haiku-5", "-4-", "claude-3-7-sonnet", "claude-3-5-haiku")
}

// sanitizeDocument drops empty keys from tool-call arguments (Bedrock's
// document type rejects them), keeping the order of the rest.
func sanitizeDocument(args json.RawMessage) json.RawMessage {
	if len(args) == 0 {
		return json.RawMessage("{}")
	}
	if !strings.Contains(string(args), `""`) {
		return args
	}
	v, err := llm.DecodeOrdered(args)
	if err != nil {
		return args
	}
	b, err := engine.MarshalJSON(dropEmptyKeys(v))
	if err != nil {
		return args
	}
	return b
}

func dropEmptyKeys(v any) any {
	switch t := v.(type) {
	case llm.Object:
		out := llm.Object{}
		for _, f := range t {
			if f.Key != "" {
				out = append(out, llm.Field{Key: f.Key, Value: dropEmptyKeys(f.Value)})
			}
		}
		return out
	case []any:
		for i := range t {
			t[i] = dropEmptyKeys(t[i])
		}
		return t
	}
	return v
}
