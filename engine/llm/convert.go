package llm

import "github.com/pi-go/pi/engine"

// Placeholders the reference puts where a model cannot take an image.
const (
	UserImagePlaceholder = "(image omitted: model does not support images)"
	ToolImagePlaceholder = "(tool image omitted: model does not support images)"
	NoResultText         = "No result provided"
)

// ConvertForProvider prepares a transcript for one model (engine.md §2.1):
// images become a placeholder text when the model has no image input;
// assistant messages that ended in error or were aborted are dropped;
// thinking is replayed only to the provider, API and model that produced
// it; and a tool call that never got a result gets a synthetic error
// result, so every API sees each call answered. The input is not modified.
func ConvertForProvider(model *engine.Model, msgs []*engine.Message) []*engine.Message {
	images := model == nil || model.SupportsImages()
	out := make([]*engine.Message, 0, len(msgs))
	var pending []engine.Content
	answered := map[string]bool{}
	var held []*engine.Message
	closePending := func() {
		for _, tc := range pending {
			if answered[tc.ID] {
				continue
			}
			out = append(out, &engine.Message{
				Role: engine.RoleToolResult, ToolCallID: tc.ID, ToolName: tc.Name,
				Content: engine.Blocks(engine.TextContent(NoResultText)), IsError: true,
				Timestamp: engine.NowMillis(),
			})
		}
		pending = nil
		answered = map[string]bool{}
		out = append(out, held...)
		held = nil
	}
	for _, m := range msgs {
		if m == nil {
			continue
		}
		switch m.Role {
		case engine.RoleAssistant:
			closePending()
			if m.StopReason == engine.StopError || m.StopReason == engine.StopAborted {
				continue
			}
			cm := convertAssistant(model, m)
			if calls := cm.ToolCalls(); len(calls) > 0 {
				pending = calls
				answered = map[string]bool{}
			}
			out = append(out, cm)
		case engine.RoleToolResult:
			answered[m.ToolCallID] = true
			if !images {
				m = withoutImages(m, ToolImagePlaceholder)
			}
			out = append(out, m)
		case engine.RoleSystem:
			// A system message between a call and its results waits until the
			// results are in, so it never splits a call from its answer.
			if len(pending) > 0 {
				held = append(held, m)
			} else {
				out = append(out, m)
			}
		case engine.RoleUser:
			closePending()
			if !images && !m.Content.IsString {
				m = withoutImages(m, UserImagePlaceholder)
			}
			out = append(out, m)
		default:
			out = append(out, m)
		}
	}
	closePending()
	return out
}

// convertAssistant drops thinking the target model cannot use: blocks from
// another model, and empty unsigned ones.
func convertAssistant(model *engine.Model, m *engine.Message) *engine.Message {
	same := model != nil && m.Provider == model.Provider && m.API == model.API && m.Model == model.ID
	changed := false
	blocks := make([]engine.Content, 0, len(m.Content.Blocks))
	for _, b := range m.Content.Blocks {
		switch b.Type {
		case engine.ContentThinking:
			if !same {
				changed = true
				continue
			}
			if !b.Redacted && b.ThinkingSignature == "" && isBlank(b.Thinking) {
				changed = true
				continue
			}
		case engine.ContentText:
			if !same && b.TextSignature != "" {
				b.TextSignature = ""
				changed = true
			}
		case engine.ContentToolCall:
			if !same && b.ThoughtSignature != "" {
				b.ThoughtSignature = ""
				changed = true
			}
		}
		blocks = append(blocks, b)
	}
	if !changed {
		return m
	}
	cp := *m
	cp.Content = engine.Contents{Blocks: blocks}
	return &cp
}

// withoutImages replaces each run of images with one placeholder text.
func withoutImages(m *engine.Message, placeholder string) *engine.Message {
	has := false
	for _, b := range m.Content.Blocks {
		if b.Type == engine.ContentImage {
			has = true
			break
		}
	}
	if !has {
		return m
	}
	cp := *m
	cp.Content = engine.Contents{Blocks: ReplaceImages(m.Content.Blocks, placeholder)}
	return &cp
}

// ReplaceImages replaces each run of image blocks with one placeholder
// text, as the reference does for a model or a place that takes no
// images; a placeholder text already in front of a run stands for it.
func ReplaceImages(blocks []engine.Content, placeholder string) []engine.Content {
	var out []engine.Content
	prev := false
	for _, b := range blocks {
		if b.Type == engine.ContentImage {
			if !prev {
				out = append(out, engine.TextContent(placeholder))
			}
			prev = true
			continue
		}
		out = append(out, b)
		prev = b.Type == engine.ContentText && b.Text == placeholder
	}
	return out
}

func isBlank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			return false
		}
	}
	return true
}
