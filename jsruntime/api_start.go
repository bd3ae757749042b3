package jsruntime

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pi-go/pi/engine"
)

// This file runs before_agent_start for runs that an extension's custom
// message started (pi.sendMessage with triggerTurn while idle): the
// event carries messageType "custom" and the message instead of the
// prompt, as in the reference (pi:internal/dispatch builds the trigger).

// BeforeAgentStartCustom runs before_agent_start for a custom message.
func (h hooks) BeforeAgentStartCustom(ctx context.Context, m *engine.Message, systemPrompt string) (*engine.BeforeAgentStartResult, error) {
	a := h.api()
	if !a.HasHandlers("before_agent_start") {
		return nil, nil
	}
	var options any = ordered{{"cwd", a.opts.Cwd}}
	if a.opts.PromptOptions != nil {
		var infos []engine.ToolInfo
		if s := a.session(); s != nil {
			for _, t := range s.Tools() {
				infos = append(infos, t.Info())
			}
		}
		options = a.opts.PromptOptions(infos)
	}
	out, err := a.dispatch(ctx, "before_agent_start", ordered{{"message", m}, {"systemPrompt", systemPrompt}, {"systemPromptOptions", options}})
	if err != nil || out == "" {
		return nil, err
	}
	return a.beforeAgentStartResult(out)
}

// beforeAgentStartResult decodes what the before_agent_start dispatcher
// returned: injected messages, a forced system prompt, or changed prompt
// options rendered into sections.
func (a *API) beforeAgentStartResult(out string) (*engine.BeforeAgentStartResult, error) {
	var r struct {
		Messages []struct {
			CustomType string          `json:"customType"`
			Content    json.RawMessage `json:"content"`
			Display    *bool           `json:"display"`
			Details    json.RawMessage `json:"details"`
		} `json:"messages"`
		SystemPrompt  *string         `json:"systemPrompt"`
		PromptOptions json.RawMessage `json:"systemPromptOptions"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return nil, err
	}
	res := &engine.BeforeAgentStartResult{}
	if r.SystemPrompt != nil {
		res.SystemPrompt = *r.SystemPrompt
	} else if len(r.PromptOptions) > 0 && a.opts.RenderPrompt != nil {
		secs, err := a.opts.RenderPrompt(r.PromptOptions)
		if err != nil {
			a.reportError("", "before_agent_start", err.Error())
		} else {
			res.Sections = secs
		}
	}
	now := time.Now().UnixMilli()
	for _, m := range r.Messages {
		msg := &engine.Message{Role: engine.RoleCustom, CustomType: m.CustomType, Display: m.Display != nil && *m.Display,
			DisplayOmitted: m.Display == nil, Details: m.Details, Timestamp: now}
		if len(m.Content) > 0 {
			var c engine.Contents
			if json.Unmarshal(m.Content, &c) == nil {
				msg.Content = c
			}
		}
		res.Messages = append(res.Messages, msg)
	}
	return res, nil
}
