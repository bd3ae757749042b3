package google

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// DefaultBaseURL is the Gemini API endpoint used when a model has none.
const DefaultBaseURL = "https://generativelanguage.googleapis.com/v1beta"

// toolResultImageText introduces the images of a tool result that older
// Gemini models cannot take inside the function response.
const toolResultImageText = "Tool result image:"

// seeImageText is the function response of a result that has only images.
const seeImageText = "(see attached image)"

var geminiMajor = regexp.MustCompile(`^gemini(?:-live)?-(\d+)`)

// geminiMajorVersion returns the major version in a Gemini model id, or
// -1 for other models.
func geminiMajorVersion(id string) int {
	m := geminiMajor.FindStringSubmatch(strings.ToLower(id))
	if m == nil {
		return -1
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return -1
	}
	return n
}

// requiresToolCallID reports whether the model needs the call ids echoed
// in function calls and responses: Gemini 3 and later, and the Claude and
// gpt-oss models served through Google.
func requiresToolCallID(id string) bool {
	return strings.HasPrefix(id, "claude-") || strings.HasPrefix(id, "gpt-oss-") || geminiMajorVersion(id) >= 3
}

// multimodalFunctionResponse reports whether images may ride inside a
// function response (Gemini 3 and later, and non-Gemini models).
func multimodalFunctionResponse(id string) bool {
	v := geminiMajorVersion(id)
	return v < 0 || v >= 3
}

// supportsStrictTools reports whether the model enforces JSON-schema tool
// parameters (Gemini 3 and later), so strict schemas are worth sending.
func supportsStrictTools(id string) bool { return geminiMajorVersion(id) >= 3 }

var (
	gemini3ProFlash = regexp.MustCompile(`gemini-3(?:\.\d+)?-(?:pro|flash)`)
	gemini4Plus     = regexp.MustCompile(`gemini-(?:[4-9]|[1-9]\d)`)
	gemma4          = regexp.MustCompile(`gemma-?4`)
)

// usesThinkingLevel reports whether the model takes the discrete
// thinkingLevel control rather than a token budget.
func usesThinkingLevel(m *engine.Model) bool {
	id := strings.ToLower(m.ID)
	return gemini3ProFlash.MatchString(id) || gemini4Plus.MatchString(id) ||
		id == "gemini-flash-latest" || id == "gemini-flash-lite-latest" || gemma4.MatchString(id)
}

// resolveLevel maps a pi level through the model's thinkingLevelMap to
// one of Google's four levels.
func resolveLevel(m *engine.Model, level engine.ThinkingLevel) (string, error) {
	resolved := string(level)
	mapped := "undefined"
	if len(m.ThinkingLevelMap) > 0 {
		var mp map[string]json.RawMessage
		if json.Unmarshal(m.ThinkingLevelMap, &mp) == nil {
			if raw, ok := mp[string(level)]; ok {
				mapped = string(raw)
				var s string
				if json.Unmarshal(raw, &s) == nil {
					resolved = strings.ToLower(s)
					mapped = s
				}
			}
		}
	}
	switch resolved {
	case "minimal", "low", "medium", "high":
		return resolved, nil
	}
	return "", fmt.Errorf("Unsupported Google thinking level mapping for %s/%s: %s -> %s", m.Provider, m.ID, level, mapped)
}

// thinkingBudget is the token budget for a level on models that take one:
// the settings' custom budget for the level when set, else the model's
// default; -1 lets the model decide.
func thinkingBudget(m *engine.Model, level string, custom map[engine.ThinkingLevel]int) int {
	if b, ok := custom[engine.ThinkingLevel(level)]; ok {
		return b
	}
	table := func(minimal, low, medium, high int) int {
		switch level {
		case "minimal":
			return minimal
		case "low":
			return low
		case "medium":
			return medium
		}
		return high
	}
	switch {
	case strings.Contains(m.ID, "2.5-pro"):
		return table(128, 2048, 8192, 32768)
	case strings.Contains(m.ID, "2.5-flash-lite"):
		return table(512, 2048, 8192, 24576)
	case strings.Contains(m.ID, "2.5-flash"):
		return table(128, 2048, 8192, 24576)
	}
	return -1
}

// thinkingConfig returns the generationConfig.thinkingConfig for the
// request, or nil when none is sent (models without reasoning).
func thinkingConfig(m *engine.Model, level engine.ThinkingLevel, custom map[engine.ThinkingLevel]int) (llm.Object, error) {
	if !m.Reasoning {
		return nil, nil
	}
	if level == "" {
		level = engine.ThinkingOff
	}
	if level != engine.ThinkingOff {
		level = engine.ClampThinkingLevel(m, level)
	}
	if level == engine.ThinkingOff {
		return disabledThinking(m)
	}
	resolved, err := resolveLevel(m, level)
	if err != nil {
		return nil, err
	}
	cfg := llm.Object{}.Set("includeThoughts", true)
	if usesThinkingLevel(m) {
		return cfg.Set("thinkingLevel", strings.ToUpper(resolved)), nil
	}
	return cfg.Set("thinkingBudget", thinkingBudget(m, resolved, custom)), nil
}

// disabledThinking turns thinking off, or as low as the model allows when
// it cannot be switched off.
func disabledThinking(m *engine.Model) (llm.Object, error) {
	if !usesThinkingLevel(m) {
		return llm.Object{}.Set("thinkingBudget", 0), nil
	}
	fallback := engine.ClampThinkingLevel(m, engine.ThinkingOff)
	if fallback == engine.ThinkingOff {
		return llm.Object{}.Set("thinkingBudget", 0), nil
	}
	resolved, err := resolveLevel(m, fallback)
	if err != nil {
		return nil, err
	}
	return llm.Object{}.Set("thinkingLevel", strings.ToUpper(resolved)), nil
}

// buildBody returns the request body as Google's SDK writes it: contents,
// systemInstruction, tools, toolConfig, generationConfig. vertex selects
// the SDK's Vertex AI key order inside function calls and responses.
func buildBody(req *engine.LLMRequest, vertex bool) (llm.Object, error) {
	m := req.Model
	body := llm.Object{}.Set("contents", convertContents(req, vertex))
	if sys := llm.SystemText(req); sys != "" {
		// The SDK turns the prompt string into a user content.
		body = body.Set("systemInstruction", llm.Object{}.Set("parts", []llm.Object{llm.Object{}.Set("text", sys)}).Set("role", "user"))
	}
	if len(req.Tools) > 0 {
		decls, anyStrict, err := convertTools(req.Tools, supportsStrictTools(m.ID))
		if err != nil {
			return nil, err
		}
		body = body.Set("tools", []llm.Object{llm.Object{}.Set("functionDeclarations", decls)})
		if anyStrict {
			body = body.Set("toolConfig", llm.Object{}.Set("functionCallingConfig", llm.Object{}.Set("mode", "VALIDATED")))
		}
	}
	gen := llm.Object{}
	if req.Temperature != nil {
		gen = gen.Set("temperature", *req.Temperature)
	}
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = m.MaxTokens
	}
	gen = gen.Set("maxOutputTokens", maxTokens)
	tc, err := thinkingConfig(m, req.ThinkingLevel, req.ThinkingBudgets)
	if err != nil {
		return nil, err
	}
	if tc != nil {
		gen = gen.Set("thinkingConfig", tc)
	}
	return body.Set("generationConfig", gen), nil
}

// convertTools declares the tools with their JSON schema as
// parametersJsonSchema; on models that enforce schemas, tools that ask
// for strict sampling get the strict form. anyStrict reports whether any
// did, which switches function calling to VALIDATED.
func convertTools(tools []engine.ToolInfo, strictModel bool) (decls []llm.Object, anyStrict bool, err error) {
	for _, t := range tools {
		decl := llm.Object{}.Set("name", t.Name).Set("description", t.Description)
		var params any
		if len(t.Parameters) > 0 {
			params, err = decodeOrdered(t.Parameters)
			if err != nil {
				return nil, false, fmt.Errorf("tool %q parameters: %w", t.Name, err)
			}
		}
		// A tool without parameters offers strict mode no object schema;
		// "null" lets the shared conversion say so in the reference's
		// words when the tool requires strict sampling.
		raw := t.Parameters
		if len(raw) == 0 {
			raw = json.RawMessage("null")
		}
		strict, err := llm.StrictToolParameters(t, raw, strictModel)
		if err != nil {
			return nil, false, err
		}
		if strict != nil {
			if params, err = decodeOrdered(strict); err != nil {
				return nil, false, fmt.Errorf("tool %q strict parameters: %w", t.Name, err)
			}
			anyStrict = true
		}
		if params != nil {
			decl = decl.Set("parametersJsonSchema", constAsEnum(params, false))
		}
		decls = append(decls, decl)
	}
	return decls, anyStrict, nil
}
