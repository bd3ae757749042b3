package jsruntime

import (
	"context"
	"encoding/json"

	"github.com/pi-go/pi/engine"
)

// This file passes tree navigation to the extensions in full: what
// session_before_tree handlers may return beyond cancel and label (a
// summary of their own, instruction overrides), and the branch_summary
// entry session_tree carries.

// BeforeTree runs session_before_tree and returns all of its result.
func (h hooks) BeforeTree(ctx context.Context, p engine.TreePreparation) *engine.BeforeTreeOutcome {
	entries := p.EntriesToSummarize
	if entries == nil {
		entries = []*engine.Entry{}
	}
	prep := ordered{{"targetId", p.TargetID}, {"oldLeafId", nullableID(p.OldLeafID)}, {"commonAncestorId", nullableID(p.CommonAncestorID)},
		{"entriesToSummarize", entries}, {"userWantsSummary", p.UserWantsSummary}}
	if p.CustomInstructions != nil {
		prep = append(prep, Field{"customInstructions", *p.CustomInstructions})
	}
	if p.ReplaceInstructions != nil {
		prep = append(prep, Field{"replaceInstructions", *p.ReplaceInstructions})
	}
	if p.Label != nil {
		prep = append(prep, Field{"label", *p.Label})
	}
	var r struct {
		Cancel  bool `json:"cancel"`
		Summary *struct {
			Summary string          `json:"summary"`
			Details json.RawMessage `json:"details"`
			Usage   json.RawMessage `json:"usage"`
		} `json:"summary"`
		CustomInstructions  *string `json:"customInstructions"`
		ReplaceInstructions *bool   `json:"replaceInstructions"`
		Label               *string `json:"label"`
	}
	if !h.beforeResult(ctx, "session_before_tree", []Field{{"preparation", prep}}, &r) {
		return nil
	}
	out := &engine.BeforeTreeOutcome{Cancel: r.Cancel, CustomInstructions: r.CustomInstructions,
		ReplaceInstructions: r.ReplaceInstructions, Label: r.Label}
	if r.Summary != nil {
		out.Summary = &engine.ExtensionBranchSummary{Summary: r.Summary.Summary,
			Details: nonNullRaw(r.Summary.Details), Usage: nonNullRaw(r.Summary.Usage)}
	}
	return out
}

// Tree runs session_tree; summaryEntry and fromExtension are present only
// when a branch summary was written, as in the reference.
func (h hooks) Tree(ctx context.Context, newLeafID, oldLeafID string, summary *engine.Entry, fromExtension bool) {
	fields := []Field{{"newLeafId", nullableID(newLeafID)}, {"oldLeafId", nullableID(oldLeafID)}}
	if summary != nil {
		fields = append(fields, Field{"summaryEntry", summary}, Field{"fromExtension", fromExtension})
	}
	h.api().Emit(ctx, "session_tree", fields...)
}

// nullableID is an entry id, or null for "none".
func nullableID(id string) any {
	if id == "" {
		return nil
	}
	return id
}

// nonNullRaw drops an absent or null JSON value.
func nonNullRaw(b json.RawMessage) json.RawMessage {
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	return b
}
