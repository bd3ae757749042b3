package engine

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/pi-go/pi/internal/jsonx"
)

// ToolInfo describes a tool to the model and to the system prompt.
type ToolInfo struct {
	Name        string
	Label       string
	Description string
	// Parameters is the JSON Schema of the arguments, key order preserved:
	// it reaches the model, the session file and extensions byte for byte.
	Parameters json.RawMessage
	// PromptSnippet is the one-line summary listed in the prompt's <tools>
	// section; empty leaves the tool out of that list.
	PromptSnippet string
	// PromptGuidelines are lines added to the prompt's <rules> section.
	PromptGuidelines []string
	// Sequential forces every call of the batch to run one at a time.
	Sequential bool
	// OwnSampling marks a tool that brings its own ConstrainedSampling
	// (possibly none), as extension tools do; the transcript records it
	// with the tool's declaration. Built-in tools leave both unset and get
	// the reference's default, {"type":"json_schema","strict":"prefer"}.
	OwnSampling         bool
	ConstrainedSampling json.RawMessage
}

// ToolCall is one call the model made.
type ToolCall struct {
	ID   string
	Name string
	Args json.RawMessage // validated and coerced arguments
}

// ToolResult is what a tool returns. Content is what the model sees;
// Details and StructuredContent are for clients and extensions. IsError
// marks a failure the model should see (a Go error from Execute means the
// host failed and is turned into such a result by the loop).
type ToolResult struct {
	Content           []Content
	Details           json.RawMessage
	StructuredContent json.RawMessage
	IsError           bool
	// Terminate asks the loop not to continue after this batch when every
	// result of the batch sets it.
	Terminate bool
	// thrown marks a result built by ErrorResult: the reference gives a
	// tool that threw a result object without "isError", whereas a tool
	// that returned isError itself (bash on a non-zero exit, an
	// extension's tool) keeps the key in the object clients see.
	thrown bool
	// keys, for a result decoded from a tool's JSON (an extension tool),
	// lists its known keys in the order the tool wrote them: the
	// reference passes the tool's object through, so isError keeps its
	// place, and its value even when false.
	keys []string
}

// MarshalJSON writes {content, details?, structuredContent?, isError?};
// isError appears only when the tool itself returned it (not for thrown
// errors, see ErrorResult).
func (r ToolResult) MarshalJSON() ([]byte, error) {
	content := r.Content
	if content == nil {
		content = []Content{}
	}
	if r.keys != nil {
		o := jsonx.NewBuilder()
		if !slices.Contains(r.keys, "content") {
			o.Set("content", content)
		}
		for _, k := range r.keys {
			switch k {
			case "content":
				o.Set("content", content)
			case "details":
				o.Opt("details", r.Details)
			case "structuredContent":
				o.Opt("structuredContent", r.StructuredContent)
			case "isError":
				o.Set("isError", r.IsError)
			}
		}
		return o.Bytes()
	}
	o := jsonx.NewBuilder().Set("content", content).Opt("details", r.Details).Opt("structuredContent", r.StructuredContent)
	if r.IsError && !r.thrown {
		o.Set("isError", true)
	}
	return o.Bytes()
}

// UnmarshalJSON reads {content, details?, structuredContent?, isError?}.
func (r *ToolResult) UnmarshalJSON(b []byte) error {
	var w struct {
		Content           []Content       `json:"content"`
		Details           json.RawMessage `json:"details"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		Terminate         bool            `json:"terminate"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = ToolResult{Content: w.Content, Details: w.Details, StructuredContent: w.StructuredContent, IsError: w.IsError, Terminate: w.Terminate}
	for _, k := range objectKeys(b) {
		switch k {
		case "content", "details", "structuredContent", "isError":
			if !slices.Contains(r.keys, k) {
				r.keys = append(r.keys, k)
			}
		}
	}
	return nil
}

// ErrorResult is a failed result with one text block and empty details,
// the shape the reference gives thrown tool errors.
func ErrorResult(text string) ToolResult {
	return ToolResult{Content: []Content{TextContent(text)}, Details: json.RawMessage("{}"), IsError: true, thrown: true}
}

// ArgumentPreparer is a Tool that repairs a call's arguments before they
// are validated against its schema (the reference's prepareArguments),
// for instance a legacy argument shape the schema no longer describes.
// It returns args itself when there is nothing to repair.
type ArgumentPreparer interface {
	PrepareArguments(args json.RawMessage) json.RawMessage
}

// Tool is a capability the model can call. Built-in tools and tools that
// extensions register both implement it.
type Tool interface {
	Info() ToolInfo
	// Execute runs one call. onUpdate may be called with partial results
	// (the whole result so far each time) from any goroutine, but not after
	// Execute returns. ctx is cancelled on abort.
	Execute(ctx context.Context, call ToolCall, onUpdate func(ToolResult)) (ToolResult, error)
}
