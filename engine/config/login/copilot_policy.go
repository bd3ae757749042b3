package login

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

// copilotIndividualBase is the endpoint of individual accounts, the only
// ones whose listing may fall back to policy states.
const copilotIndividualBase = "https://api.individual.githubcopilot.com"

// enableCopilotModels turns on, as the reference's sign-in does, the
// catalog's Copilot models whose policy the account has not configured
// yet, and adds those that took to the credential's availableModelIds.
// Failures only leave models off: the sign-in itself succeeded.
func enableCopilotModels(ctx context.Context, ui Interaction, ep *Endpoints, cred json.RawMessage, enterprise string, listing json.RawMessage) (json.RawMessage, error) {
	if ep.CopilotKnownModel == nil {
		return cred, nil
	}
	var c map[string]json.RawMessage
	var token string
	var available []string
	if json.Unmarshal(cred, &c) != nil || json.Unmarshal(c["access"], &token) != nil {
		return cred, nil
	}
	_ = json.Unmarshal(c["availableModelIds"], &available)
	base := config.CopilotBaseURL(token, enterprise)
	individual := base == copilotIndividualBase
	if ep.CopilotModelsBase != "" {
		base = ep.CopilotModelsBase
	}
	candidates := copilotPolicyCandidates(listing, individual)
	var wanted []string
	for _, id := range candidates {
		if ep.CopilotKnownModel(id) {
			wanted = append(wanted, id)
		}
	}
	if len(wanted) == 0 {
		return cred, nil
	}
	ui.Notify(Event{Kind: "progress", Message: "Enabling models..."})
	for _, id := range wanted {
		ok, stop := enableCopilotModel(ctx, ep, base, token, id)
		if stop {
			break
		}
		if ok && !slices.Contains(available, id) {
			available = append(available, id)
		}
	}
	ids, err := engine.MarshalJSON(available)
	if err != nil {
		return cred, nil
	}
	keys, vals, err := engine.SplitObject(cred)
	if err != nil {
		return cred, nil
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := engine.MarshalJSON(k)
		b.Write(kb)
		b.WriteByte(':')
		if k == "availableModelIds" {
			b.Write(ids)
		} else {
			b.Write(vals[i])
		}
	}
	b.WriteByte('}')
	return json.RawMessage(b.String()), nil
}

// copilotPolicyCandidates lists, from the models listing the token
// exchange read, the models whose policy is "unconfigured" and that are
// in the picker (or, for an individual account whose picker is empty, any
// such model).
func copilotPolicyCandidates(listing json.RawMessage, individual bool) []string {
	var list struct {
		Data []struct {
			ID     any  `json:"id"`
			Picker bool `json:"model_picker_enabled"`
			Policy *struct {
				State string `json:"state"`
			} `json:"policy"`
			Capabilities *struct {
				Supports *struct {
					ToolCalls *bool `json:"tool_calls"`
				} `json:"supports"`
			} `json:"capabilities"`
		} `json:"data"`
	}
	if json.Unmarshal(listing, &list) != nil {
		return nil
	}
	type model struct {
		id, state string
		picker    bool
	}
	var models []model
	pickable := 0
	for _, m := range list.Data {
		id, ok := m.ID.(string)
		if !ok || (m.Capabilities != nil && m.Capabilities.Supports != nil && m.Capabilities.Supports.ToolCalls != nil && !*m.Capabilities.Supports.ToolCalls) {
			continue
		}
		state := ""
		if m.Policy != nil {
			state = m.Policy.State
		}
		if m.Picker && state != "disabled" {
			pickable++
		}
		models = append(models, model{id, state, m.Picker})
	}
	fallback := individual && pickable == 0
	var out []string
	for _, m := range models {
		if m.state == "unconfigured" && (m.picker || fallback) {
			out = append(out, m.id)
		}
	}
	return out
}

// enableCopilotModel sets one model's policy to enabled; stop is set on
// rate limiting, after which no further model is tried.
func enableCopilotModel(ctx context.Context, ep *Endpoints, base, token, id string) (ok, stop bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/models/"+url.PathEscape(id)+"/policy", strings.NewReader(`{"state":"enabled"}`))
	if err != nil {
		return false, false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	for _, kv := range config.CopilotHeaders {
		req.Header.Set(kv[0], kv[1])
	}
	req.Header.Set("openai-intent", "chat-policy")
	req.Header.Set("x-interaction-type", "chat-policy")
	status, _, err := fetch(ep, req, []string{token})
	if err != nil {
		return false, ctx.Err() != nil
	}
	if status == http.StatusTooManyRequests {
		return false, true
	}
	return status >= 200 && status <= 299, false
}
