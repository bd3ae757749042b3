package pi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/llm/llamacpp"
	"github.com/pi-go/pi/internal/jsonx"
	"github.com/pi-go/pi/jsruntime"
)

// Virtual models (pi.registerVirtualModel): the session keeps the virtual
// model as its selection, and each request made with it is routed first.
// The extension's router picks a physical model and thinking level (and
// may return state, which is kept on the session branch as a
// pi.virtual-model-state entry); the request then goes to that model's
// provider with its credentials, so the assistant message names the
// physical model, as in the reference.

// RegisterVirtualModel lists a definition's catalog entry.
func (m registryModels) RegisterVirtualModel(raw json.RawMessage) error {
	var def config.VirtualDef
	if err := json.Unmarshal(raw, &def); err != nil {
		return fmt.Errorf("invalid virtual model: %w", err)
	}
	_, err := m.r.RegisterVirtualModel(def)
	return err
}

// UnregisterVirtualModel removes a virtual model.
func (m registryModels) UnregisterVirtualModel(provider, id string) {
	m.r.UnregisterVirtualModel(provider, id)
}

var _ jsruntime.VirtualRegistry = registryModels{}

// virtualProvider serves the pi-virtual API: it routes the request and
// sends it on to the routed model's provider. A routing failure is the
// request's error response, which names the virtual model.
func (app *Agent) virtualProvider() engine.Provider {
	return engine.ProviderFunc(func(ctx context.Context, req *engine.LLMRequest, emit func(engine.AssistantEvent)) *engine.Message {
		target, level, err := app.routeVirtual(ctx, req)
		if err != nil {
			return failedRequest(req, err, emit)
		}
		r := *req
		r.Model, r.ThinkingLevel = target, level
		r.MaxTokens = engine.ClampMaxTokens(target, engine.EstimateContextTokens(req.Messages), target.MaxTokens)
		key, _, err := app.registry.RequestAuth(target)
		if err != nil {
			return failedRequest(&r, err, emit)
		}
		if key == "" && !app.registry.UsesOAuth(target.Provider) {
			return failedRequest(&r, errors.New(config.NoAPIKeyMessage(target.Provider)), emit)
		}
		r.APIKey = key
		p, err := app.providerFor(target.API)
		if err != nil {
			return failedRequest(&r, err, emit)
		}
		msg := p.Stream(ctx, &r, emit)
		if msg != nil && msg.ThinkingLevel == "" {
			// The message records the level it was sent with, the routed
			// one, not the selection's.
			msg.ThinkingLevel = string(level)
		}
		return msg
	})
}

// routeVirtual asks the virtual model's router where req goes, keeps the
// state it returns on the session branch, and checks its answer: a
// physical model whose provider has credentials, at a level it supports.
func (app *Agent) routeVirtual(ctx context.Context, req *engine.LLMRequest) (*engine.Model, engine.ThinkingLevel, error) {
	v := req.Model
	name := fmt.Sprintf("Virtual model %s/%s", v.Provider, v.ID)
	if app.ext == nil || !app.ext.Active() {
		return nil, "", fmt.Errorf("%s is not registered.", name)
	}
	api, _ := app.ext.Current()
	msgs, err := engine.MarshalJSON(req.Messages)
	if err != nil {
		return nil, "", err
	}
	s := app.session()
	vr := jsruntime.VirtualRequest{Provider: v.Provider, ID: v.ID, ThinkingLevel: string(req.ThinkingLevel),
		Reason: routeReason(req.Messages), Previous: latestResponse(req.Messages), Messages: msgs}
	if s != nil {
		vr.State = virtualState(s.Store().Branch(), v.Provider, v.ID)
	}
	route, err := api.RouteVirtual(ctx, vr)
	if err != nil {
		return nil, "", err
	}
	routed := fmt.Sprintf("%s routed to %s/%s", name, route.Provider, route.ID)
	target := app.registry.PhysicalModel(route.Provider, route.ID)
	if target == nil {
		return nil, "", fmt.Errorf("%s, which is not a physical model.", routed)
	}
	if !app.registry.HasConfiguredAuth(target.Provider) {
		return nil, "", fmt.Errorf("%s, which has no credentials.", routed)
	}
	if !route.Keep && len(route.State) > 0 && string(route.State) != "null" && s != nil {
		// Stored before the request is sent, and kept if it fails.
		data, err := jsonx.NewBuilder().Set("provider", v.Provider).Set("modelId", v.ID).Set("state", route.State).Bytes()
		if err == nil {
			_ = s.AppendEntry(&engine.Entry{Type: engine.EntryCustom, CustomType: config.VirtualModelStateEntry, Data: data})
		}
	}
	level, ok := engine.ParseThinkingLevel(route.ThinkingLevel)
	if !ok {
		level = engine.ThinkingOff
	}
	return target, engine.ClampThinkingLevel(target, level), nil
}

// routeReason is "user" for the first request after a message the user
// wrote, "continuation" for any other one in the loop.
func routeReason(msgs []*engine.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		switch msgs[i].Role {
		case engine.RoleAssistant:
			return "continuation"
		case engine.RoleUser:
			return "user"
		}
	}
	return "continuation"
}

// latestResponse is the model of the latest successful response.
func latestResponse(msgs []*engine.Message) *jsruntime.VirtualPrevious {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role == engine.RoleAssistant && m.StopReason != engine.StopError && m.StopReason != engine.StopAborted {
			return &jsruntime.VirtualPrevious{Provider: m.Provider, ID: m.Model, ThinkingLevel: m.ThinkingLevel}
		}
	}
	return nil
}

// virtualState is the router state the branch last stored for the model.
func virtualState(branch []*engine.Entry, provider, id string) json.RawMessage {
	for i := len(branch) - 1; i >= 0; i-- {
		e := branch[i]
		if e.Type != engine.EntryCustom || e.CustomType != config.VirtualModelStateEntry {
			continue
		}
		var d struct {
			Provider string          `json:"provider"`
			ModelID  string          `json:"modelId"`
			State    json.RawMessage `json:"state"`
		}
		if json.Unmarshal(e.Data, &d) == nil && d.Provider == provider && d.ModelID == id {
			return d.State
		}
	}
	return nil
}

// TypedModels lists the registry's classifier models for
// ctx.modelRegistry.getModelsOfType.
func (m registryModels) TypedModels(kind string, available bool) []json.RawMessage {
	return m.r.TypedModels(kind, available)
}

var _ jsruntime.TypedModelRegistry = registryModels{}

// branchSelection is the model a session branch selects, as the reference
// reads it with virtual models about: a virtual model_change holds until
// the next model_change (responses name the physical models it routed
// to); otherwise the latest physical response wins. A virtual model no
// longer registered does not hold, so the model that answered last is
// restored.
// selection is the engine session's Selection: branchSelection while a
// virtual model is registered, else nil. Without one the branch's own
// model (its last model_change or answer) is the selection, which the
// session's index gives, so a resume builds no entry list for it.
func (app *Agent) selection() func([]*engine.Entry) *engine.ContextModel {
	if !app.registry.HasVirtualModels() {
		return nil
	}
	return app.branchSelection
}

func (app *Agent) branchSelection(branch []*engine.Entry) *engine.ContextModel {
	lastChange := func(before int) *engine.ContextModel {
		for i := before - 1; i >= 0; i-- {
			if e := branch[i]; e.Type == engine.EntryModelChange {
				return &engine.ContextModel{Provider: e.Provider, ModelID: e.ModelID}
			}
		}
		return nil
	}
	for i := len(branch) - 1; i >= 0; i-- {
		e := branch[i]
		if e.Type == engine.EntryModelChange {
			return &engine.ContextModel{Provider: e.Provider, ModelID: e.ModelID}
		}
		if e.Type == engine.EntryMessage && e.Message != nil && e.Message.Role == engine.RoleAssistant && e.Message.API != config.VirtualModelAPI {
			response := &engine.ContextModel{Provider: e.Message.Provider, ModelID: e.Message.Model}
			if c := lastChange(i); c != nil && config.IsVirtual(app.registry.Find(c.Provider, c.ModelID)) {
				return c
			}
			return response
		}
	}
	return nil
}

// Classify runs a classifier model for ctx.modelRegistry.classify: the
// llama.cpp router's chat models (llama-cpp-classify). Other classifier
// APIs are not built; their calls end with an error result that says so.
func (m registryModels) Classify(ctx context.Context, model, request json.RawMessage, temperature *float64) (json.RawMessage, error) {
	var cm struct {
		API      string `json:"api"`
		Provider string `json:"provider"`
		ID       string `json:"id"`
		BaseURL  string `json:"baseUrl"`
	}
	if err := json.Unmarshal(model, &cm); err != nil || cm.ID == "" {
		return nil, errors.New("classify needs a classifier model")
	}
	result := func(answers json.RawMessage, err error) (json.RawMessage, error) {
		return llamacpp.ClassifyResult(cm.API, cm.Provider, cm.ID, answers, err, ctx.Err() != nil), nil
	}
	if cm.API != llamacpp.ClassifyAPI {
		return result(nil, fmt.Errorf("Classifier API %s is not available in this build", cm.API))
	}
	req, err := llamacpp.ParseClassifyRequest(request)
	if err != nil {
		return result(nil, err)
	}
	key, _ := m.r.APIKey(cm.Provider)
	c, err := llamacpp.NewClient(cm.BaseURL, key)
	if err != nil {
		return result(nil, err)
	}
	t := 1.0
	if temperature != nil {
		t = *temperature
	}
	answers, err := c.Classify(ctx, cm.ID, req, t)
	return result(answers, err)
}

var _ jsruntime.ClassifierRegistry = registryModels{}

// limitsModel is the model whose limits apply under a virtual selection:
// the physical model of the latest successful response on the branch,
// else the virtual model itself (its declared limits, if any).
func (app *Agent) limitsModel(selected *engine.Model, branch []*engine.Entry) *engine.Model {
	if !config.IsVirtual(selected) {
		return nil
	}
	for i := len(branch) - 1; i >= 0; i-- {
		e := branch[i]
		if e.Type != engine.EntryMessage || e.Message == nil || e.Message.Role != engine.RoleAssistant {
			continue
		}
		m := e.Message
		if m.StopReason == engine.StopError || m.StopReason == engine.StopAborted {
			continue
		}
		if p := app.registry.PhysicalModel(m.Provider, m.Model); p != nil {
			return p
		}
	}
	return nil
}
