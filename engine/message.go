package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/pi-go/pi/internal/jsonx"
)

// Message roles.
const (
	RoleSystem            = "system"
	RoleUser              = "user"
	RoleAssistant         = "assistant"
	RoleToolResult        = "toolResult"
	RoleBashExecution     = "bashExecution"
	RoleCustom            = "custom"
	RoleBranchSummary     = "branchSummary"
	RoleCompactionSummary = "compactionSummary"
)

// StopReason says why an assistant message ended.
type StopReason string

// Stop reasons. Pending is only seen while a message streams.
const (
	StopPending  StopReason = "pending"
	StopStop     StopReason = "stop"
	StopLength   StopReason = "length"
	StopToolUse  StopReason = "toolUse"
	StopError    StopReason = "error"
	StopAborted  StopReason = "aborted"
	StopDeferred StopReason = "deferred"
)

// Cost is money spent on a message, in dollars.
type Cost struct {
	Input             float64 `json:"input"`
	Output            float64 `json:"output"`
	CacheRead         float64 `json:"cacheRead"`
	CacheWrite        float64 `json:"cacheWrite"`
	Total             float64 `json:"total"`
	TotalFromProvider *bool   `json:"totalFromProvider,omitempty"`
}

// MarshalJSON writes the cost in field order without reflection: it is
// part of every streamed message_update record.
func (c Cost) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil) }

func (c Cost) AppendJSON(dst []byte) ([]byte, error) {
	for _, f := range [...]float64{c.Input, c.Output, c.CacheRead, c.CacheWrite, c.Total} {
		if math.IsInf(f, 0) || math.IsNaN(f) {
			// The builder words the error as encoding/json does.
			return jsonx.NewBuilderAt(dst).Set("input", c.Input).Set("output", c.Output).Set("cacheRead", c.CacheRead).
				Set("cacheWrite", c.CacheWrite).Set("total", c.Total).Opt("totalFromProvider", c.TotalFromProvider).Bytes()
		}
	}
	// Plain appends: the builder boxed each value in an interface, an
	// allocation per field of every streamed record.
	dst = append(dst, `{"input":`...)
	dst = appendCost(dst, c.Input)
	dst = append(dst, `,"output":`...)
	dst = appendCost(dst, c.Output)
	dst = append(dst, `,"cacheRead":`...)
	dst = appendCost(dst, c.CacheRead)
	dst = append(dst, `,"cacheWrite":`...)
	dst = appendCost(dst, c.CacheWrite)
	dst = append(dst, `,"total":`...)
	dst = appendCost(dst, c.Total)
	if c.TotalFromProvider != nil {
		dst = append(dst, `,"totalFromProvider":`...)
		dst = strconv.AppendBool(dst, *c.TotalFromProvider)
	}
	return append(dst, '}'), nil
}

// appendCost writes one amount; a zero (most amounts of a streamed
// reply's running usage) skips the float formatting.
func appendCost(dst []byte, f float64) []byte {
	if f == 0 && !math.Signbit(f) {
		return append(dst, '0')
	}
	return jsonx.AppendFloat(dst, f)
}

// Usage counts the tokens of one assistant message. Reasoning tokens are
// included in Output.
type Usage struct {
	Input        int
	Output       int
	CacheRead    int
	CacheWrite   int
	CacheWrite1h *int
	Reasoning    *int
	TotalTokens  int
	Cost         Cost
	// TrailingExtras places cacheWrite1h and reasoning after cost, as the
	// reference's Anthropic adapter writes them (it adds those keys after
	// building the object); the OpenAI adapters write them before
	// totalTokens. Unmarshalling remembers which layout a record used.
	TrailingExtras bool
}

// MarshalJSON writes the usage in the layout of the provider that made it.
func (u Usage) MarshalJSON() ([]byte, error) { return u.AppendJSON(nil) }

func (u Usage) AppendJSON(dst []byte) ([]byte, error) {
	// Plain appends, as in Cost.AppendJSON: this is part of every
	// streamed message_update record.
	extras := func(dst []byte) []byte {
		if u.CacheWrite1h != nil {
			dst = append(dst, `,"cacheWrite1h":`...)
			dst = strconv.AppendInt(dst, int64(*u.CacheWrite1h), 10)
		}
		if u.Reasoning != nil {
			dst = append(dst, `,"reasoning":`...)
			dst = strconv.AppendInt(dst, int64(*u.Reasoning), 10)
		}
		return dst
	}
	dst = append(dst, `{"input":`...)
	dst = strconv.AppendInt(dst, int64(u.Input), 10)
	dst = append(dst, `,"output":`...)
	dst = strconv.AppendInt(dst, int64(u.Output), 10)
	dst = append(dst, `,"cacheRead":`...)
	dst = strconv.AppendInt(dst, int64(u.CacheRead), 10)
	dst = append(dst, `,"cacheWrite":`...)
	dst = strconv.AppendInt(dst, int64(u.CacheWrite), 10)
	if !u.TrailingExtras {
		dst = extras(dst)
	}
	dst = append(dst, `,"totalTokens":`...)
	dst = strconv.AppendInt(dst, int64(u.TotalTokens), 10)
	dst = append(dst, `,"cost":`...)
	dst, err := u.Cost.AppendJSON(dst)
	if err != nil {
		return nil, err
	}
	if u.TrailingExtras {
		dst = extras(dst)
	}
	return append(dst, '}'), nil
}

// UnmarshalJSON reads a usage object and its layout.
func (u *Usage) UnmarshalJSON(b []byte) error {
	var w struct {
		Input        int  `json:"input"`
		Output       int  `json:"output"`
		CacheRead    int  `json:"cacheRead"`
		CacheWrite   int  `json:"cacheWrite"`
		CacheWrite1h *int `json:"cacheWrite1h"`
		Reasoning    *int `json:"reasoning"`
		TotalTokens  int  `json:"totalTokens"`
		Cost         Cost `json:"cost"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*u = Usage{Input: w.Input, Output: w.Output, CacheRead: w.CacheRead, CacheWrite: w.CacheWrite,
		CacheWrite1h: w.CacheWrite1h, Reasoning: w.Reasoning, TotalTokens: w.TotalTokens, Cost: w.Cost}
	if w.CacheWrite1h != nil || w.Reasoning != nil {
		costAt := bytes.Index(b, []byte(`"cost"`))
		extraAt := bytes.Index(b, []byte(`"cacheWrite1h"`))
		if extraAt < 0 {
			extraAt = bytes.Index(b, []byte(`"reasoning"`))
		}
		u.TrailingExtras = costAt >= 0 && extraAt > costAt
	}
	return nil
}

// Section is one named part of the system prompt recorded in a system
// message. A nil Value in a patch deletes the section.
type Section struct {
	Name  string
	Value *string
}

// Sections keeps the prompt's sections in order.
type Sections []Section

// MarshalJSON writes an object in section order.
func (s Sections) MarshalJSON() ([]byte, error) {
	o := jsonx.NewBuilder()
	for _, sec := range s {
		if sec.Value == nil {
			o.Set(sec.Name, nil)
		} else {
			o.Set(sec.Name, *sec.Value)
		}
	}
	return o.Bytes()
}

// UnmarshalJSON reads an object keeping key order.
func (s *Sections) UnmarshalJSON(b []byte) error {
	keys, vals, err := SplitObject(b)
	if err != nil {
		return err
	}
	out := make(Sections, 0, len(keys))
	for i, k := range keys {
		var v *string
		if string(vals[i]) != "null" {
			var str string
			if err := json.Unmarshal(vals[i], &str); err != nil {
				return fmt.Errorf("section %q: %w", k, err)
			}
			v = &str
		}
		out = append(out, Section{Name: k, Value: v})
	}
	*s = out
	return nil
}

// Get returns the value of the named section.
func (s Sections) Get(name string) (string, bool) {
	for _, sec := range s {
		if sec.Name == name && sec.Value != nil {
			return *sec.Value, true
		}
	}
	return "", false
}

// ToolDecl is a tool as recorded in a system message.
type ToolDecl struct {
	Name                string          `json:"name"`
	Description         string          `json:"description,omitempty"`
	Parameters          json.RawMessage `json:"parameters,omitempty"`
	ConstrainedSampling json.RawMessage `json:"constrainedSampling,omitempty"`
}

// Message is any message of a session transcript (the reference's
// AgentMessage). Role selects which fields are meaningful; MarshalJSON
// writes only those, in the reference's order.
type Message struct {
	Role      string
	Timestamp int64 // Unix milliseconds

	// user, assistant, toolResult, custom
	Content Contents

	// system
	Sections     Sections
	ToolsAdded   []ToolDecl
	ToolsRemoved []ToolDecl

	// assistant
	API           string
	Provider      string
	Model         string
	Usage         Usage
	StopReason    StopReason
	ResponseID    string
	ErrorMessage  string
	RawStopReason string
	DurationMs    *int64 // also toolResult
	// RawStopFirst writes rawStopReason before errorMessage, the order of
	// the reference's Anthropic adapter.
	RawStopFirst bool
	// DiagnosticsAfterError writes diagnostics right after errorMessage:
	// the reference's Bedrock adapter appends its failure diagnostic when
	// the request fails, before the message gets its duration.
	DiagnosticsAfterError bool
	// ErrorFirst writes errorMessage before timestamp: the reference's
	// message for a request that failed before its provider started (a
	// credential that could not be resolved) is built in that order.
	ErrorFirst bool
	// ErrorBeforeResponseID writes errorMessage before responseId, and
	// MetaBeforeDuration writes responseModel, providerThinkingLevel and
	// diagnostics before durationMs: the reference's pi-messages adapter
	// adds those keys to its message in that order when the stream ends.
	ErrorBeforeResponseID bool
	MetaBeforeDuration    bool
	ThinkingLevel         string
	ResponseModel         string
	ProviderThinkingLevel string
	// ProviderThinkingLevelFirst writes providerThinkingLevel right after
	// model: the reference's Responses adapters build their message with
	// it there.
	ProviderThinkingLevelFirst bool
	Diagnostics                json.RawMessage
	// EndTurn is the Codex backend's end_turn flag (whether the model
	// ended its turn), kept for debugging as the reference does.
	EndTurn *bool

	// toolResult
	ToolCallID  string
	ToolName    string
	Details     json.RawMessage // also custom
	ToolUsage   json.RawMessage
	NestedCalls json.RawMessage
	IsError     bool

	// bashExecution
	Command            string
	Output             string
	ExitCode           *int
	Cancelled          bool
	Truncated          bool
	FullOutputPath     string
	ExcludeFromContext bool

	// custom
	CustomType string
	Display    bool
	// DisplayOmitted marks a custom message whose sender left display
	// out: the key is then not written, as JSON.stringify drops an
	// undefined value, and Display is false.
	DisplayOmitted bool

	// branchSummary, compactionSummary
	Summary      string
	FromID       string
	TokensBefore int
}

// ToolCalls returns the tool-call blocks of an assistant message.
func (m *Message) ToolCalls() []Content {
	var out []Content
	for _, c := range m.Content.Blocks {
		if c.Type == ContentToolCall {
			out = append(out, c)
		}
	}
	return out
}

// MarshalJSON writes the message with the reference's key order per role.
func (m Message) MarshalJSON() ([]byte, error) { return m.AppendJSON(nil) }

// AppendJSON writes the message into dst (see jsonx.Appender).
func (m Message) AppendJSON(dst []byte) ([]byte, error) {
	o := jsonx.NewBuilderAt(dst).Set("role", m.Role)
	switch m.Role {
	case RoleSystem:
		text := ""
		if len(m.Content.Blocks) > 0 {
			text = m.Content.Blocks[0].Text
		}
		o.Set("content", text)
		if m.Sections != nil {
			o.Set("sections", m.Sections)
		}
		o.Set("timestamp", m.Timestamp)
		if m.ToolsAdded != nil {
			o.Set("toolsAdded", m.ToolsAdded)
		}
		if m.ToolsRemoved != nil {
			o.Set("toolsRemoved", m.ToolsRemoved)
		}
	case RoleUser:
		o.Set("content", m.Content).Set("timestamp", m.Timestamp)
	case RoleAssistant:
		o.Set("content", m.Content).Set("api", m.API).Set("provider", m.Provider).Set("model", m.Model)
		if m.ProviderThinkingLevelFirst {
			o.Opt("providerThinkingLevel", m.ProviderThinkingLevel)
		}
		o.Set("usage", m.Usage).Set("stopReason", m.StopReason)
		if m.ErrorFirst {
			o.Opt("errorMessage", m.ErrorMessage)
		}
		o.Set("timestamp", m.Timestamp)
		if m.ErrorBeforeResponseID && !m.ErrorFirst {
			o.Opt("errorMessage", m.ErrorMessage)
		}
		o.Opt("responseId", m.ResponseID)
		if m.EndTurn != nil {
			o.Set("endTurn", *m.EndTurn)
		}
		if m.ErrorBeforeResponseID && !m.ErrorFirst {
			o.Opt("rawStopReason", m.RawStopReason)
		} else if m.ErrorFirst {
			o.Opt("rawStopReason", m.RawStopReason)
		} else if m.RawStopFirst {
			o.Opt("rawStopReason", m.RawStopReason).Opt("errorMessage", m.ErrorMessage)
		} else {
			o.Opt("errorMessage", m.ErrorMessage).Opt("rawStopReason", m.RawStopReason)
		}
		if m.DiagnosticsAfterError {
			o.Opt("diagnostics", m.Diagnostics)
		}
		if m.MetaBeforeDuration {
			o.Opt("responseModel", m.ResponseModel)
			if !m.ProviderThinkingLevelFirst {
				o.Opt("providerThinkingLevel", m.ProviderThinkingLevel)
			}
			if !m.DiagnosticsAfterError {
				o.Opt("diagnostics", m.Diagnostics)
			}
		}
		o.Opt("durationMs", m.DurationMs).Opt("thinkingLevel", m.ThinkingLevel)
		if !m.MetaBeforeDuration {
			o.Opt("responseModel", m.ResponseModel)
			if !m.ProviderThinkingLevelFirst {
				o.Opt("providerThinkingLevel", m.ProviderThinkingLevel)
			}
			if !m.DiagnosticsAfterError {
				o.Opt("diagnostics", m.Diagnostics)
			}
		}
	case RoleToolResult:
		o.Set("toolCallId", m.ToolCallID).Set("toolName", m.ToolName).Set("content", m.Content).
			Opt("details", m.Details).Opt("usage", m.ToolUsage).
			Set("isError", m.IsError).Opt("durationMs", m.DurationMs).Set("timestamp", m.Timestamp).
			// The reference sets nestedCalls on the finished message, so
			// it comes last.
			Opt("nestedCalls", m.NestedCalls)
	case RoleBashExecution:
		o.Set("command", m.Command).Set("output", m.Output).Opt("exitCode", m.ExitCode).
			Set("cancelled", m.Cancelled).Set("truncated", m.Truncated).Opt("fullOutputPath", m.FullOutputPath).
			Set("timestamp", m.Timestamp)
		if m.ExcludeFromContext {
			o.Set("excludeFromContext", true)
		}
	case RoleCustom:
		o.Set("customType", m.CustomType).Set("content", m.Content)
		if !m.DisplayOmitted {
			o.Set("display", m.Display)
		}
		o.Opt("details", m.Details).Set("timestamp", m.Timestamp)
	case RoleBranchSummary:
		o.Set("summary", m.Summary).Set("fromId", m.FromID).Set("timestamp", m.Timestamp)
	case RoleCompactionSummary:
		o.Set("summary", m.Summary).Set("tokensBefore", m.TokensBefore).Set("timestamp", m.Timestamp)
	default:
		o.Set("content", m.Content).Set("timestamp", m.Timestamp)
	}
	return o.Bytes()
}

// UnmarshalJSON reads a message of any role. The legacy role "hookMessage"
// is read as "custom".
func (m *Message) UnmarshalJSON(b []byte) error {
	var w struct {
		Role                  string          `json:"role"`
		Timestamp             json.Number     `json:"timestamp"`
		Content               json.RawMessage `json:"content"`
		Sections              Sections        `json:"sections"`
		ToolsAdded            []ToolDecl      `json:"toolsAdded"`
		ToolsRemoved          []ToolDecl      `json:"toolsRemoved"`
		API                   string          `json:"api"`
		Provider              string          `json:"provider"`
		Model                 string          `json:"model"`
		Usage                 json.RawMessage `json:"usage"`
		StopReason            StopReason      `json:"stopReason"`
		ResponseID            string          `json:"responseId"`
		ErrorMessage          string          `json:"errorMessage"`
		RawStopReason         string          `json:"rawStopReason"`
		DurationMs            *int64          `json:"durationMs"`
		ThinkingLevel         string          `json:"thinkingLevel"`
		ResponseModel         string          `json:"responseModel"`
		ProviderThinkingLevel string          `json:"providerThinkingLevel"`
		EndTurn               *bool           `json:"endTurn"`
		Diagnostics           json.RawMessage `json:"diagnostics"`
		ToolCallID            string          `json:"toolCallId"`
		ToolName              string          `json:"toolName"`
		Details               json.RawMessage `json:"details"`
		NestedCalls           json.RawMessage `json:"nestedCalls"`
		IsError               bool            `json:"isError"`
		Command               string          `json:"command"`
		Output                string          `json:"output"`
		ExitCode              *int            `json:"exitCode"`
		Cancelled             bool            `json:"cancelled"`
		Truncated             bool            `json:"truncated"`
		FullOutputPath        *string         `json:"fullOutputPath"`
		ExcludeFromContext    bool            `json:"excludeFromContext"`
		CustomType            string          `json:"customType"`
		Display               *bool           `json:"display"`
		Summary               string          `json:"summary"`
		FromID                string          `json:"fromId"`
		TokensBefore          int             `json:"tokensBefore"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("message: %w", err)
	}
	if w.Role == "hookMessage" {
		w.Role = RoleCustom
	}
	*m = Message{
		Role: w.Role, Sections: w.Sections, ToolsAdded: w.ToolsAdded, ToolsRemoved: w.ToolsRemoved,
		API: w.API, Provider: w.Provider, Model: w.Model, StopReason: w.StopReason,
		ResponseID: w.ResponseID, ErrorMessage: w.ErrorMessage, RawStopReason: w.RawStopReason,
		DurationMs: w.DurationMs, ThinkingLevel: w.ThinkingLevel, ResponseModel: w.ResponseModel,
		ProviderThinkingLevel: w.ProviderThinkingLevel, Diagnostics: w.Diagnostics, EndTurn: w.EndTurn,
		ToolCallID: w.ToolCallID, ToolName: w.ToolName, Details: w.Details, NestedCalls: w.NestedCalls,
		IsError: w.IsError, Command: w.Command, Output: w.Output, ExitCode: w.ExitCode,
		Cancelled: w.Cancelled, Truncated: w.Truncated, ExcludeFromContext: w.ExcludeFromContext,
		CustomType: w.CustomType, Display: w.Display != nil && *w.Display, DisplayOmitted: w.Role == RoleCustom && w.Display == nil,
		Summary: w.Summary, FromID: w.FromID,
		TokensBefore: w.TokensBefore,
	}
	if w.ProviderThinkingLevel != "" && w.Role == RoleAssistant {
		// Keep ProviderThinkingLevelFirst's order through a session file.
		if keys, _, err := SplitObject(b); err == nil {
			ip, iu := slices.Index(keys, "providerThinkingLevel"), slices.Index(keys, "usage")
			m.ProviderThinkingLevelFirst = ip >= 0 && iu >= 0 && ip < iu
		}
	}
	if w.ErrorMessage != "" && w.RawStopReason != "" {
		if keys, _, err := SplitObject(b); err == nil {
			for _, k := range keys {
				if k == "rawStopReason" {
					m.RawStopFirst = true
					break
				}
				if k == "errorMessage" {
					break
				}
			}
		}
	}
	if w.ErrorMessage != "" && w.Role == RoleAssistant {
		// Keep ErrorFirst's order through a session file.
		if keys, _, err := SplitObject(b); err == nil {
			ie, it := slices.Index(keys, "errorMessage"), slices.Index(keys, "timestamp")
			m.ErrorFirst = ie >= 0 && it >= 0 && ie < it
		}
	}
	if w.Role == RoleAssistant && (w.ResponseModel != "" || w.ProviderThinkingLevel != "" || len(w.Diagnostics) > 0 ||
		(w.ErrorMessage != "" && w.ResponseID != "")) {
		// Keep the pi-messages orders (ErrorBeforeResponseID,
		// MetaBeforeDuration) through a session file.
		if keys, _, err := SplitObject(b); err == nil {
			ie, ir := slices.Index(keys, "errorMessage"), slices.Index(keys, "responseId")
			m.ErrorBeforeResponseID = !m.ErrorFirst && ie >= 0 && ir >= 0 && ie < ir
			id := slices.Index(keys, "durationMs")
			before, any := id >= 0, false
			for _, k := range []string{"responseModel", "providerThinkingLevel", "diagnostics"} {
				if i := slices.Index(keys, k); i >= 0 {
					any = true
					before = before && i < id
				}
			}
			m.MetaBeforeDuration = any && before
		}
	}
	if w.FullOutputPath != nil {
		m.FullOutputPath = *w.FullOutputPath
	}
	if w.Timestamp != "" {
		if f, err := w.Timestamp.Float64(); err == nil {
			m.Timestamp = int64(f)
		}
	}
	if len(w.Content) > 0 {
		if w.Role == RoleSystem {
			var s string
			if json.Unmarshal(w.Content, &s) == nil {
				m.Content = StringContents(s)
			}
		} else if err := json.Unmarshal(w.Content, &m.Content); err != nil {
			return fmt.Errorf("message content: %w", err)
		}
	}
	if len(w.Usage) > 0 && string(w.Usage) != "null" {
		if w.Role == RoleAssistant {
			if err := json.Unmarshal(w.Usage, &m.Usage); err != nil {
				return fmt.Errorf("message usage: %w", err)
			}
		} else {
			m.ToolUsage = w.Usage
		}
	}
	return nil
}

// SplitObject splits a JSON object into its keys and raw values, in
// order, so code that edits a record (migration, payload hooks) can keep
// the key order JSON.stringify gave it (see jsonx.Split).
func SplitObject(b []byte) ([]string, []json.RawMessage, error) { return jsonx.Split(b) }
