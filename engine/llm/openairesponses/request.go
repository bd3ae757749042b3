package openairesponses

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
	"github.com/pi-go/pi/internal/utf16x"
)

// minOutputTokens is the smallest max_output_tokens the Responses API
// accepts; the reference raises smaller caps to it.
const minOutputTokens = 16

// promptCacheKeyMax is the longest prompt_cache_key OpenAI accepts, in
// characters.
const promptCacheKeyMax = 64

// toolCallProviders are the providers whose "call_id|item_id" tool-call
// ids are kept whole when a foreign message is replayed.
var toolCallProviders = map[string]bool{"openai": true, "openai-codex": true, "opencode": true}

// azureToolCallProviders adds Azure's own provider to toolCallProviders
// for the Azure flavor.
var azureToolCallProviders = map[string]bool{"openai": true, "openai-codex": true, "opencode": true, "azure": true}

// chatGPTSignIn reports a ChatGPT sign-in token sent straight to OpenAI
// (API keys start with "sk-"); that backend rejects some request fields.
func chatGPTSignIn(m *engine.Model, apiKey string) bool {
	return m.Provider == "openai" && m.BaseURL == "https://api.openai.com/v1" && apiKey != "" &&
		!strings.HasPrefix(apiKey, "sk-")
}

// buildBody returns the request body of c's flavor with the reference's
// key order. openai-responses: model, input, stream, prompt cache fields,
// store, max_output_tokens, temperature, tools, reasoning, include, then
// the models.json sampling parameters. Azure is the same with the
// deployment as the model and no cache retention fields; Codex has its own
// order (see buildCodexBody).
func buildBody(req *engine.LLMRequest, c compat, deployment string, grammar map[string]string) (llm.Object, error) {
	tools, err := convertTools(req.Tools, c)
	if err != nil {
		return nil, err
	}
	var inputTools []llm.Object
	if toolsInInput(c) {
		inputTools, tools = tools, nil
	}
	effort := configurationEffort(req, c)
	input, err := convertInput(req, c, inputTools, effort, grammar)
	if err != nil {
		return nil, err
	}
	if c.Flavor == flavorCodex {
		return buildCodexBody(req, c, input, tools, effort), nil
	}
	m := req.Model
	retention := req.ResolvedCacheRetention()
	omit := c.Flavor == flavorOpenAI && chatGPTSignIn(m, req.APIKey)
	model := m.ID
	if c.Flavor == flavorAzure && deployment != "" {
		model = deployment
	}
	body := llm.Object{}.
		Set("model", model).
		Set("input", input).
		Set("stream", true)
	if sid := req.CacheSessionID(); c.PromptCacheKeyMode != "disabled" && sid != "" {
		body = body.Set("prompt_cache_key", clampRunes(sid, promptCacheKeyMax))
	}
	if !omit && c.Flavor == flavorOpenAI {
		if c.SupportsExplicitPromptCacheMode && retention == "none" {
			body = body.Set("prompt_cache_options", llm.Object{}.Set("mode", "explicit"))
		}
		if retention == "long" && c.SupportsLongCacheRetention && !c.SupportsExplicitPromptCacheMode {
			body = body.Set("prompt_cache_retention", "24h")
		}
		if c.SupportsExplicitPromptCacheMode && retention == "long" && c.SupportsLongCacheRetention {
			body = body.Set("prompt_cache_options", llm.Object{}.Set("ttl", "30m"))
		}
	}
	body = body.Set("store", false)
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = m.MaxTokens
	}
	if maxTokens > 0 && c.SupportsMaxOutputTokens && !omit {
		body = body.Set("max_output_tokens", max(maxTokens, minOutputTokens))
	}
	if req.Temperature != nil && !omit {
		body = body.Set("temperature", *req.Temperature)
	}
	if len(tools) > 0 {
		body = body.Set("tools", tools)
	}
	// Sampling parameters go last so that models.json can override any
	// named field, as the reference assigns them over the finished body.
	return llm.MergeSamplingParams(addReasoning(body, req, c.Flavor, effort), m, req.ThinkingLevel), nil
}

// buildCodexBody is the ChatGPT backend's body: model, store, stream,
// input, text verbosity, the encrypted-reasoning include, the prompt cache
// key, tool_choice, parallel_tool_calls, max_output_tokens, temperature,
// tools, reasoning. The reference applies no sampling parameters here.
func buildCodexBody(req *engine.LLMRequest, c compat, input []any, tools []llm.Object, configEffort string) llm.Object {
	m := req.Model
	body := llm.Object{}.
		Set("model", m.ID).
		Set("store", false).
		Set("stream", true).
		Set("input", input).
		Set("text", llm.Object{}.Set("verbosity", "low")).
		Set("include", []string{"reasoning.encrypted_content"})
	if sid := req.CacheSessionID(); sid != "" {
		body = body.Set("prompt_cache_key", clampRunes(sid, promptCacheKeyMax))
	}
	body = body.Set("tool_choice", "auto").Set("parallel_tool_calls", true)
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = m.MaxTokens
	}
	if maxTokens > 0 && c.SupportsMaxOutputTokens {
		body = body.Set("max_output_tokens", max(maxTokens, minOutputTokens))
	}
	if req.Temperature != nil {
		body = body.Set("temperature", *req.Temperature)
	}
	if len(tools) > 0 {
		body = body.Set("tools", tools)
	}
	if !m.Reasoning {
		return body
	}
	if configEffort != "" {
		return body.Set("reasoning", llm.Object{}.Set("effort", configurationUpdateEffort).Set("summary", "auto"))
	}
	// Thinking off is sent as effort "none" (or the model's "off" entry;
	// a null entry sends no reasoning at all), with a summary like any
	// other level.
	level := req.ThinkingLevel
	var effort string
	if level == "" || level == engine.ThinkingOff {
		off, ok := offEffort(m)
		if !ok {
			return body
		}
		effort = off
	} else {
		var ok bool
		if effort, ok = engine.MappedThinkingLevel(m, level); !ok {
			effort = string(level)
		}
	}
	return body.Set("reasoning", llm.Object{}.Set("effort", effort).Set("summary", "auto"))
}

func clampRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// addReasoning adds reasoning {effort, summary} and the encrypted-content
// include for a thinking level, or the "off" effort of a reasoning model.
func addReasoning(body llm.Object, req *engine.LLMRequest, f flavor, configEffort string) llm.Object {
	m := req.Model
	if !m.Reasoning {
		return body
	}
	level := req.ThinkingLevel
	include := false
	if level != "" && level != engine.ThinkingOff {
		effort, ok := engine.MappedThinkingLevel(m, level)
		if !ok {
			effort = string(level)
		}
		if configEffort != "" {
			effort = configurationUpdateEffort
		}
		body = body.Set("reasoning", llm.Object{}.Set("effort", effort).Set("summary", "auto"))
		include = true
	} else if m.Provider != "github-copilot" || f == flavorAzure {
		if off, ok := offEffort(m); ok {
			body = body.Set("reasoning", llm.Object{}.Set("effort", off))
		}
	}
	if include || (m.Provider == "xai" && f == flavorOpenAI) {
		body = body.Set("include", []string{"reasoning.encrypted_content"})
	}
	return body
}

// offEffort reads thinkingLevelMap.off: ok is false when the map says null
// (thinking cannot be turned off); a missing entry means "none".
func offEffort(m *engine.Model) (string, bool) {
	v, present := llm.ThinkingMapEntry(m, "off")
	if !present {
		return "none", true
	}
	if v == nil {
		return "", false
	}
	return *v, true
}

// convertTools declares the tools as functions. A tool that asks for
// JSON-schema sampling gets "strict": true and the strict form of its
// schema when the model supports strict mode; the others get the flavor's
// default, false (Codex: null), or no "strict" key when the model has no
// strict mode. A tool requiring strict sampling it cannot get fails the
// request.
func convertTools(tools []engine.ToolInfo, c compat) ([]llm.Object, error) {
	out := make([]llm.Object, 0, len(tools))
	for _, t := range tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		g, err := grammarFor(t, c.SupportsOpenAIGrammarTools)
		if err != nil {
			return nil, err
		}
		if g != nil {
			out = append(out, customTool(t, g))
			continue
		}
		strictParams, err := llm.StrictToolParameters(t, params, c.SupportsStrictMode)
		if err != nil {
			return nil, err
		}
		var strict any = false
		if c.Flavor == flavorCodex {
			strict = nil
		}
		if strictParams != nil {
			params, strict = strictParams, true
		}
		o := llm.Object{}.Set("type", "function").Set("name", t.Name).Set("description", t.Description).
			Set("parameters", params)
		if c.SupportsStrictMode {
			o = o.Set("strict", strict)
		}
		out = append(out, o)
	}
	return out, nil
}

// toolsInInput reports whether the tools are declared in the input, in a
// leading additional_tools item, instead of the top-level list: the
// reference does so for models that take both mid-conversation system
// messages and additional tools.
func toolsInInput(c compat) bool {
	return c.SupportsMidConvoSystemMessages && c.SupportsAdditionalTools
}

// configurationEffort is the effort sent in configuration_update items
// for models with compat.supportsMidConvoEffort, or "" when the effort
// goes in reasoning.effort as usual.
func configurationEffort(req *engine.LLMRequest, c compat) string {
	m := req.Model
	if !c.SupportsMidConvoEffort {
		return ""
	}
	level := req.ThinkingLevel
	off := level == "" || level == engine.ThinkingOff
	switch c.Flavor {
	case flavorOpenAI:
		if off || !m.Reasoning || chatGPTSignIn(m, req.APIKey) {
			return ""
		}
	case flavorCodex:
		if !m.Reasoning {
			return ""
		}
		if off {
			// Off is sent as effort "none" (or the model's "off" entry; a
			// null one sends none at all).
			e, ok := offEffort(m)
			if !ok {
				return ""
			}
			return e
		}
	default:
		return ""
	}
	if e, ok := engine.MappedThinkingLevel(m, level); ok {
		return e
	}
	return string(level)
}

// configurationUpdateEffort is the reasoning.effort sent while
// configuration_update items carry the thinking level.
const configurationUpdateEffort = "medium"

func configurationUpdate(effort string) llm.Object {
	return llm.Object{}.Set("type", "configuration_update").Set("reasoning", llm.Object{}.Set("effort", effort))
}

// convertInput turns the transcript into Responses input items: the system
// prompt as a developer (or system) message, user content as input parts,
// assistant output replayed as reasoning, message and function_call items,
// and tool results as function_call_output items.
func convertInput(req *engine.LLMRequest, c compat, inputTools []llm.Object, effort string, grammar map[string]string) ([]any, error) {
	m := req.Model
	out := []any{}
	if len(inputTools) > 0 {
		out = append(out, llm.Object{}.Set("type", "additional_tools").Set("role", "developer").Set("tools", inputTools))
	}
	if req.SystemPrompt != "" {
		role := "system"
		if m.Reasoning && c.SupportsDeveloperRole {
			role = "developer"
		}
		out = append(out, llm.Object{}.Set("role", role).Set("content", req.SystemPrompt))
	}
	// Mid-conversation system messages are folded into the prompt by the
	// caller; this API gets none of them.
	var msgs []*engine.Message
	for _, msg := range req.Messages {
		if msg != nil && msg.Role != engine.RoleSystem {
			msgs = append(msgs, msg)
		}
	}
	providers := toolCallProviders
	if c.Flavor == flavorAzure {
		providers = azureToolCallProviders
	}
	msgs = normalizeToolCallIDs(m, providers, llm.ConvertForProvider(m, msgs))
	msgIndex := 0
	for _, msg := range msgs {
		switch msg.Role {
		case engine.RoleUser:
			parts := userParts(msg)
			if len(parts) == 0 {
				continue
			}
			out = append(out, llm.Object{}.Set("role", "user").Set("content", parts))
		case engine.RoleAssistant:
			items, err := assistantItems(m, msg, msgIndex, grammar)
			if err != nil {
				return nil, err
			}
			if len(items) == 0 {
				continue
			}
			if effort != "" && msg.ProviderThinkingLevel != "" && msg.Provider == m.Provider && msg.API == m.API && msg.Model == m.ID {
				out = append(out, configurationUpdate(msg.ProviderThinkingLevel))
			}
			out = append(out, items...)
		case engine.RoleToolResult:
			callID, _, _ := strings.Cut(msg.ToolCallID, "|")
			typ := "function_call_output"
			if _, ok := grammar[msg.ToolName]; ok {
				typ = "custom_tool_call_output"
			}
			out = append(out, llm.Object{}.Set("type", typ).Set("call_id", callID).
				Set("output", toolResultOutput(m, msg)))
		}
		msgIndex++
	}
	if effort != "" {
		out = append(out, configurationUpdate(effort))
	}
	return out, nil
}

func userParts(msg *engine.Message) []llm.Object {
	if msg.Content.IsString {
		return []llm.Object{inputText(msg.Content.Text())}
	}
	var parts []llm.Object
	for _, b := range msg.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			parts = append(parts, inputText(b.Text))
		case engine.ContentImage:
			parts = append(parts, inputImage(b))
		}
	}
	return parts
}

func inputText(s string) llm.Object { return llm.Object{}.Set("type", "input_text").Set("text", s) }

func inputImage(b engine.Content) llm.Object {
	return llm.Object{}.Set("type", "input_image").Set("detail", "auto").
		Set("image_url", "data:"+b.MimeType+";base64,"+b.Data)
}

// textSignature is the id (and phase) of the output message a text block
// came from, stored as {"v":1,"id":…,"phase":…}; older sessions hold the
// bare id.
type textSignature struct {
	ID    string
	Phase string
}

func parseTextSignature(sig string) (textSignature, bool) {
	if sig == "" {
		return textSignature{}, false
	}
	if strings.HasPrefix(sig, "{") {
		var w struct {
			V     json.RawMessage `json:"v"`
			ID    *string         `json:"id"`
			Phase string          `json:"phase"`
		}
		if json.Unmarshal([]byte(sig), &w) == nil && string(w.V) == "1" && w.ID != nil {
			t := textSignature{ID: *w.ID}
			if w.Phase == "commentary" || w.Phase == "final_answer" {
				t.Phase = w.Phase
			}
			return t, true
		}
	}
	return textSignature{ID: sig}, true
}

func encodeTextSignature(id, phase string) string {
	o := llm.Object{}.Set("v", 1).Set("id", id)
	if phase != "" {
		o = o.Set("phase", phase)
	}
	b, _ := o.MarshalJSON()
	return string(b)
}

// assistantItems replays one assistant message: reasoning items from the
// thinking signatures, one message item per text block, and function_call
// items whose item id is kept only for the same model.
func assistantItems(m *engine.Model, msg *engine.Message, msgIndex int, grammar map[string]string) ([]any, error) {
	sameAPI := msg.Provider == m.Provider && msg.API == m.API
	sameModel := sameAPI && msg.Model == m.ID
	differentModel := sameAPI && msg.Model != m.ID
	var items []any
	textIndex := 0
	for _, b := range msg.Content.Blocks {
		switch b.Type {
		case engine.ContentThinking:
			if b.ThinkingSignature == "" {
				continue
			}
			var compact bytes.Buffer
			if json.Compact(&compact, []byte(b.ThinkingSignature)) != nil {
				continue
			}
			items = append(items, json.RawMessage(compact.Bytes()))
		case engine.ContentText:
			sig, ok := parseTextSignature(b.TextSignature)
			id := sig.ID
			switch {
			case !ok || id == "":
				if textIndex == 0 {
					id = "msg_pi_" + strconv.Itoa(msgIndex)
				} else {
					id = "msg_pi_" + strconv.Itoa(msgIndex) + "_" + strconv.Itoa(textIndex)
				}
			case utf16x.Len(id) > 64:
				id = "msg_" + llm.ShortHash(id)
			}
			textIndex++
			o := llm.Object{}.Set("type", "message").Set("role", "assistant").
				Set("content", []llm.Object{llm.Object{}.Set("type", "output_text").Set("text", b.Text).
					Set("annotations", []any{})}).
				Set("status", "completed").Set("id", id)
			if sig.Phase != "" {
				o = o.Set("phase", sig.Phase)
			}
			items = append(items, o)
		case engine.ContentToolCall:
			callID, itemID, _ := strings.Cut(b.ID, "|")
			itemID, _, _ = strings.Cut(itemID, "|")
			prop, custom := grammar[b.Name]
			typ, prefix := "function_call", "fc_"
			if custom {
				typ, prefix = "custom_tool_call", "ctc_"
			}
			o := llm.Object{}.Set("type", typ)
			if !differentModel && strings.HasPrefix(itemID, prefix) {
				o = o.Set("id", itemID)
			}
			o = o.Set("call_id", callID).Set("name", b.Name)
			if custom {
				input, err := grammarInput(b.Name, b.Arguments, prop)
				if err != nil {
					return nil, err
				}
				o = o.Set("input", input)
			} else {
				o = o.Set("arguments", llm.CompactArgs(b.Arguments))
			}
			if sameModel && b.Namespace != "" {
				o = o.Set("namespace", b.Namespace)
			}
			items = append(items, o)
		}
	}
	return items, nil
}

// toolResultOutput is the text of a result, or input parts when it has
// images the model can see.
func toolResultOutput(m *engine.Model, msg *engine.Message) any {
	var texts []string
	var images []engine.Content
	for _, b := range msg.Content.Blocks {
		switch b.Type {
		case engine.ContentText:
			texts = append(texts, b.Text)
		case engine.ContentImage:
			images = append(images, b)
		}
	}
	text := strings.Join(texts, "\n")
	hasText := strings.TrimSpace(text) != ""
	if len(images) == 0 || !m.SupportsImages() {
		switch {
		case hasText:
			return text
		case len(images) > 0:
			return "(see attached image)"
		}
		return "(no tool output)"
	}
	var parts []llm.Object
	if hasText {
		parts = append(parts, inputText(text))
	}
	for _, img := range images {
		parts = append(parts, inputImage(img))
	}
	return parts
}

// normalizeToolCallIDs rewrites the tool-call ids of messages from other
// models into a form this API accepts, and the ids of their results to
// match.
func normalizeToolCallIDs(m *engine.Model, providers map[string]bool, msgs []*engine.Message) []*engine.Message {
	return llm.RenameToolCallIDs(m, msgs, func(source *engine.Message, id string) string {
		return normalizeToolCallID(m, providers, source, id)
	})
}

func normalizeToolCallID(m *engine.Model, providers map[string]bool, source *engine.Message, id string) string {
	if !providers[m.Provider] || !strings.Contains(id, "|") {
		return normalizeIDPart(id)
	}
	callID, itemID, _ := strings.Cut(id, "|")
	itemID, _, _ = strings.Cut(itemID, "|")
	foreign := source.Provider != m.Provider || source.API != m.API
	if foreign {
		itemID = "fc_" + llm.ShortHash(itemID)
		if len(itemID) > 64 {
			itemID = itemID[:64]
		}
	} else {
		itemID = normalizeIDPart(itemID)
	}
	if !strings.HasPrefix(itemID, "fc_") {
		itemID = normalizeIDPart("fc_" + itemID)
	}
	return normalizeIDPart(callID) + "|" + itemID
}
