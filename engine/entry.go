package engine

import (
	"encoding/json"
	"fmt"

	"github.com/pi-go/pi/internal/jsonx"
)

// Session entry types.
const (
	EntryMessage             = "message"
	EntryModelChange         = "model_change"
	EntryThinkingLevelChange = "thinking_level_change"
	EntryUsage               = "usage"
	EntryCompaction          = "compaction"
	EntryBranchSummary       = "branch_summary"
	EntryCustom              = "custom"
	EntryCustomMessage       = "custom_message"
	EntryLabel               = "label"
	EntrySessionInfo         = "session_info"
	EntryContextEdit         = "context_edit"
)

// SessionVersion is the session-file format written.
const SessionVersion = 3

// Header is the first line of a session file. It is not part of the tree.
type Header struct {
	Type          string `json:"type"` // always "session"
	Version       int    `json:"version,omitempty"`
	ID            string `json:"id"`
	Timestamp     string `json:"timestamp"`
	Cwd           string `json:"cwd"`
	ParentSession string `json:"parentSession,omitempty"`
}

// Entry is one node of the session tree. Type selects the meaningful
// fields; MarshalJSON writes them in the reference's order. ParentID nil
// marks a root.
type Entry struct {
	Type      string
	ID        string
	ParentID  *string
	Timestamp string // ISO 8601 with milliseconds

	// message
	Message *Message

	// model_change
	Provider string // also usage
	ModelID  string

	// thinking_level_change
	ThinkingLevel string

	// usage
	Kind  string
	Model string
	Usage json.RawMessage // also compaction, branch_summary
	Note  string

	// compaction, branch_summary
	Summary          string
	FirstKeptEntryID string
	TokensBefore     int
	Details          json.RawMessage // also custom_message
	FromHook         *bool
	SystemMessage    *Message
	FromID           string

	// custom, custom_message
	CustomType string
	Data       json.RawMessage
	Content    *Contents
	Display    bool
	// DisplayOmitted: a custom_message without a display key (see
	// Message.DisplayOmitted).
	DisplayOmitted bool

	// label, context_edit
	TargetID string
	Label    *string

	// session_info
	Name *string

	// context_edit: nil Replacement (JSON null) omits the target.
	Replacement json.RawMessage
}

func parentJSON(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// MarshalJSON writes the entry with the reference's key order.
func (e Entry) MarshalJSON() ([]byte, error) {
	o := jsonx.NewBuilder().Set("type", e.Type)
	base := func() {
		o.Set("id", e.ID).Set("parentId", parentJSON(e.ParentID)).Set("timestamp", e.Timestamp)
	}
	switch e.Type {
	case EntryCustom:
		o.Set("customType", e.CustomType)
		if e.Data != nil {
			o.Set("data", e.Data)
		}
		base()
	case EntryCustomMessage:
		var content any = ""
		if e.Content != nil {
			content = *e.Content
		}
		o.Set("customType", e.CustomType).Set("content", content)
		if !e.DisplayOmitted {
			o.Set("display", e.Display)
		}
		o.Opt("details", e.Details)
		base()
	default:
		base()
	}
	switch e.Type {
	case EntryMessage:
		o.Set("message", e.Message)
	case EntryModelChange:
		o.Set("provider", e.Provider).Set("modelId", e.ModelID)
	case EntryThinkingLevelChange:
		o.Set("thinkingLevel", e.ThinkingLevel)
	case EntryUsage:
		o.Set("kind", e.Kind).Set("provider", e.Provider).Set("model", e.Model).Set("usage", e.Usage).Opt("note", e.Note)
	case EntryCompaction:
		o.Set("summary", e.Summary).Set("firstKeptEntryId", e.FirstKeptEntryID).Set("tokensBefore", e.TokensBefore).
			Opt("details", e.Details).Opt("usage", e.Usage).Opt("fromHook", e.FromHook)
		if e.SystemMessage != nil {
			o.Set("systemMessage", replayedSystemMessage{e.SystemMessage})
		}
	case EntryBranchSummary:
		o.Set("fromId", e.FromID).Set("summary", e.Summary).Opt("details", e.Details).Opt("usage", e.Usage).Opt("fromHook", e.FromHook)
	case EntryLabel:
		o.Set("targetId", e.TargetID)
		if e.Label != nil {
			o.Set("label", *e.Label)
		}
	case EntrySessionInfo:
		name := ""
		if e.Name != nil {
			name = *e.Name
		}
		o.Set("name", name)
	case EntryContextEdit:
		r := e.Replacement
		if len(r) == 0 {
			r = json.RawMessage("null")
		}
		o.Set("targetId", e.TargetID).Set("replacement", r)
	}
	return o.Bytes()
}

// UnmarshalJSON reads an entry of any type. Unknown types keep their base
// fields so the tree stays connected.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var w struct {
		Type             string          `json:"type"`
		ID               string          `json:"id"`
		ParentID         *string         `json:"parentId"`
		Timestamp        string          `json:"timestamp"`
		Message          *Message        `json:"message"`
		Provider         string          `json:"provider"`
		ModelID          string          `json:"modelId"`
		ThinkingLevel    string          `json:"thinkingLevel"`
		Kind             string          `json:"kind"`
		Model            string          `json:"model"`
		Usage            json.RawMessage `json:"usage"`
		Note             string          `json:"note"`
		Summary          string          `json:"summary"`
		FirstKeptEntryID string          `json:"firstKeptEntryId"`
		TokensBefore     int             `json:"tokensBefore"`
		Details          json.RawMessage `json:"details"`
		FromHook         *bool           `json:"fromHook"`
		SystemMessage    *Message        `json:"systemMessage"`
		FromID           string          `json:"fromId"`
		CustomType       string          `json:"customType"`
		Data             json.RawMessage `json:"data"`
		Content          *Contents       `json:"content"`
		Display          *bool           `json:"display"`
		TargetID         string          `json:"targetId"`
		Label            *string         `json:"label"`
		Name             *string         `json:"name"`
		Replacement      json.RawMessage `json:"replacement"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("session entry: %w", err)
	}
	*e = Entry{
		Type: w.Type, ID: w.ID, ParentID: w.ParentID, Timestamp: w.Timestamp, Message: w.Message,
		Provider: w.Provider, ModelID: w.ModelID, ThinkingLevel: w.ThinkingLevel, Kind: w.Kind,
		Model: w.Model, Usage: w.Usage, Note: w.Note, Summary: w.Summary,
		FirstKeptEntryID: w.FirstKeptEntryID, TokensBefore: w.TokensBefore, Details: w.Details,
		FromHook: w.FromHook, SystemMessage: w.SystemMessage, FromID: w.FromID,
		CustomType: w.CustomType, Data: w.Data, Content: w.Content, Display: w.Display != nil && *w.Display,
		DisplayOmitted: w.Type == EntryCustomMessage && w.Display == nil,
		TargetID:       w.TargetID, Label: w.Label, Name: w.Name, Replacement: w.Replacement,
	}
	return nil
}
