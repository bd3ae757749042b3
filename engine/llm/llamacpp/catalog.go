package llamacpp

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/pi-go/pi/internal/jsonx"
)

// defaultContextWindow is the context assumed for a model the router
// reports no size for.
const defaultContextWindow = 128000

// Catalog is the router's models as pi lists them: chat models, and every
// selectable model again as a classifier. Each model is its JSON form in
// the reference's key order (it is also what models-store.json keeps).
type Catalog struct {
	Chat        []json.RawMessage
	Classifiers []json.RawMessage
}

// Selectable reports a model a request can use: loaded, asleep (a
// request wakes it), or an unloaded preset when the router loads presets
// on first use.
func Selectable(m ModelInfo, routerAutoload bool) bool {
	switch m.Status.Value {
	case "loaded", "sleeping":
		return true
	}
	return routerAutoload && m.Status.Value == "unloaded" && !m.Status.Failed && m.Source == "preset"
}

// IsDecision reports a native decision model (llama.cpp 0.6.0 and later
// list "decisions" among its output modalities).
func IsDecision(m ModelInfo) bool {
	return m.Architecture != nil && slices.Contains(m.Architecture.OutputModalities, "decisions")
}

// IsChat reports a model that generates text; a decision-only model does
// not.
func IsChat(m ModelInfo) bool {
	return !IsDecision(m) || slices.Contains(m.Architecture.OutputModalities, "text")
}

// configuredContext is the -c/--ctx-size the router started the model
// with, or 0.
func configuredContext(m ModelInfo) int {
	args := m.Status.Args
	for i := 0; i < len(args)-1; i++ {
		if args[i] != "--ctx-size" && args[i] != "-c" && args[i] != "-ctx" {
			continue
		}
		if n, err := strconv.Atoi(args[i+1]); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// ContextWindow is the model's context in the reference's order of
// trust: the running context, the configured one, a size remembered from
// an earlier refresh (cached), the training context, then 128K.
func ContextWindow(m ModelInfo, cached int) int {
	if m.Meta != nil && m.Meta.NCtx > 0 {
		return m.Meta.NCtx
	}
	if n := configuredContext(m); n > 0 {
		return n
	}
	if cached > 0 {
		return cached
	}
	if m.Meta != nil && m.Meta.NCtxTrain > 0 {
		return m.Meta.NCtxTrain
	}
	return defaultContextWindow
}

var zeroCost = json.RawMessage(`{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}`)

// thinkingMap is the levels a chat template with enable_thinking offers:
// on (as medium) or off.
var thinkingMap = json.RawMessage(`{"off":"off","minimal":null,"low":null,"medium":"medium","high":null,"xhigh":null}`)

func inputs(image bool) []string {
	if image {
		return []string{"text", "image"}
	}
	return []string{"text"}
}

// ChatModel is a router model as an openai-completions model. props is
// the model's own /props (nil when it is not loaded: only a loaded model
// tells its chat template without side effects).
func ChatModel(m ModelInfo, serverURL string, props *Props, cachedContext int) json.RawMessage {
	cw := ContextWindow(m, cachedContext)
	reasoning := props != nil && strings.Contains(props.ChatTemplate, "enable_thinking")
	image := m.Architecture != nil && slices.Contains(m.Architecture.InputModalities, "image")
	b := jsonx.NewBuilder().Set("id", m.ID).Set("name", m.ID).Set("api", "openai-completions").
		Set("provider", ProviderID).Set("baseUrl", InferenceURL(serverURL)).Set("reasoning", reasoning)
	if reasoning {
		b.Set("thinkingLevelMap", thinkingMap)
	}
	b.Set("input", inputs(image)).Set("cost", zeroCost).Set("contextWindow", cw).Set("maxTokens", cw)
	compat := jsonx.NewBuilder().Set("supportsStore", false).Set("supportsReasoningEffort", false).
		Set("supportsUsageInStreaming", true).Set("supportsStrictMode", false).Set("maxTokensField", "max_tokens")
	if reasoning {
		compat.Set("thinkingFormat", "qwen-chat-template")
	}
	cb, _ := compat.Bytes()
	out, _ := b.Set("compat", json.RawMessage(cb)).Bytes()
	return out
}

// ClassifierModel is a router model as a classifier: a decision model
// answers natively (typesafe-system-one at <server>/v1), any other one
// through its next-token label probabilities (llama-cpp-classify at the
// server root).
func ClassifierModel(m ModelInfo, serverURL string, cachedContext int) json.RawMessage {
	decision := IsDecision(m)
	image := decision && slices.Contains(m.Architecture.InputModalities, "image")
	api, base := "llama-cpp-classify", serverURL
	if decision {
		api, base = "typesafe-system-one", InferenceURL(serverURL)
	}
	b := jsonx.NewBuilder().Set("type", "classifier").Set("id", m.ID).Set("name", m.ID).Set("api", api).
		Set("provider", ProviderID).Set("baseUrl", base).Set("input", inputs(image)).Set("cost", zeroCost).
		Set("contextWindow", ContextWindow(m, cachedContext))
	if image {
		b.Set("compat", json.RawMessage(`{"imageInput":"images","sendImageOptInHeader":false}`))
	}
	out, _ := b.Bytes()
	return out
}

// Fetch reads the router's list and builds the catalog: the loaded chat
// models' templates tell whether they think; cached holds the context
// windows an earlier refresh stored, by model id.
func Fetch(ctx context.Context, c *Client, cached map[string]int) (Catalog, error) {
	list, err := c.List(ctx, false)
	if err != nil {
		return Catalog{}, err
	}
	autoload := false
	if slices.ContainsFunc(list, func(m ModelInfo) bool { return m.Status.Value == "unloaded" && m.Source == "preset" }) {
		if p, err := c.Props(ctx, ""); err == nil && p.ModelsAutoload != nil {
			autoload = *p.ModelsAutoload
		}
	}
	var cat Catalog
	for _, m := range list {
		if !Selectable(m, autoload) {
			continue
		}
		if IsChat(m) {
			var props *Props
			if m.Status.Value == "loaded" {
				p, err := c.Props(ctx, m.ID)
				if err != nil {
					return Catalog{}, err
				}
				props = &p
			}
			cat.Chat = append(cat.Chat, ChatModel(m, c.ServerURL, props, cached[m.ID]))
		}
	}
	for _, m := range list {
		if Selectable(m, autoload) {
			cat.Classifiers = append(cat.Classifiers, ClassifierModel(m, c.ServerURL, cached[m.ID]))
		}
	}
	return cat, nil
}
