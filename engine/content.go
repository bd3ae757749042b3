package engine

import (
	"encoding/json"
	"fmt"

	"github.com/pi-go/pi/internal/jsonx"
)

// Content block types.
const (
	ContentText     = "text"
	ContentThinking = "thinking"
	ContentImage    = "image"
	ContentToolCall = "toolCall"
)

// Content is one block of a message: text, thinking, image or tool call.
// It is a union keyed by Type; only the fields of that type are written.
type Content struct {
	Type string

	// text
	Text          string
	TextSignature string

	// thinking
	Thinking          string
	ThinkingSignature string
	Redacted          bool

	// image
	Data     string // base64
	MimeType string

	// toolCall
	ID               string
	Name             string
	Arguments        json.RawMessage // a JSON object, key order as the model wrote it
	ThoughtSignature string
	Namespace        string
}

// TextContent returns a text block.
func TextContent(s string) Content { return Content{Type: ContentText, Text: s} }

// ImageContent returns an image block.
func ImageContent(data, mimeType string) Content {
	return Content{Type: ContentImage, Data: data, MimeType: mimeType}
}

// MarshalJSON writes the block with the reference's key order.
func (c Content) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil) }

// AppendJSON writes the block into dst (see jsonx.Appender).
func (c Content) AppendJSON(dst []byte) ([]byte, error) {
	o := jsonx.NewBuilderAt(dst).Set("type", c.Type)
	switch c.Type {
	case ContentText:
		o.Set("text", c.Text).Opt("textSignature", c.TextSignature)
	case ContentThinking:
		o.Set("thinking", c.Thinking).Opt("thinkingSignature", c.ThinkingSignature)
		if c.Redacted {
			o.Set("redacted", true)
		}
	case ContentImage:
		o.Set("data", c.Data).Set("mimeType", c.MimeType)
	case ContentToolCall:
		args := c.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		o.Set("id", c.ID).Set("name", c.Name).Set("arguments", args).
			Opt("thoughtSignature", c.ThoughtSignature).Opt("namespace", c.Namespace)
	}
	return o.Bytes()
}

// UnmarshalJSON reads any block; unknown types keep only their type.
func (c *Content) UnmarshalJSON(b []byte) error {
	var w struct {
		Type              string          `json:"type"`
		Text              string          `json:"text"`
		TextSignature     string          `json:"textSignature"`
		Thinking          string          `json:"thinking"`
		ThinkingSignature string          `json:"thinkingSignature"`
		Redacted          bool            `json:"redacted"`
		Data              string          `json:"data"`
		MimeType          string          `json:"mimeType"`
		ID                string          `json:"id"`
		Name              string          `json:"name"`
		Arguments         json.RawMessage `json:"arguments"`
		ThoughtSignature  string          `json:"thoughtSignature"`
		Namespace         string          `json:"namespace"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("content block: %w", err)
	}
	*c = Content{
		Type: w.Type, Text: w.Text, TextSignature: w.TextSignature,
		Thinking: w.Thinking, ThinkingSignature: w.ThinkingSignature, Redacted: w.Redacted,
		Data: w.Data, MimeType: w.MimeType,
		ID: w.ID, Name: w.Name, Arguments: w.Arguments, ThoughtSignature: w.ThoughtSignature, Namespace: w.Namespace,
	}
	return nil
}

// Contents is a message body that JSON may hold either as a bare string or
// as an array of blocks. User and custom messages from the reference's SDK
// can carry a string; everything pi itself creates is an array. The form
// read is the form written back, so files round-trip unchanged.
type Contents struct {
	Blocks   []Content
	IsString bool // written as the text of the single text block
}

// Blocks returns array-form contents.
func Blocks(b ...Content) Contents { return Contents{Blocks: b} }

// StringContents returns string-form contents.
func StringContents(s string) Contents {
	return Contents{Blocks: []Content{TextContent(s)}, IsString: true}
}

// Text joins the text of all text blocks with newlines.
func (c Contents) Text() string {
	s := ""
	first := true
	for _, b := range c.Blocks {
		if b.Type != ContentText {
			continue
		}
		if !first {
			s += "\n"
		}
		s += b.Text
		first = false
	}
	return s
}

// MarshalJSON writes a string or an array.
func (c Contents) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil) }

// AppendJSON writes the contents into dst (see jsonx.Appender), each block
// straight into the same buffer.
func (c Contents) AppendJSON(dst []byte) ([]byte, error) {
	if c.IsString {
		s := ""
		if len(c.Blocks) > 0 {
			s = c.Blocks[0].Text
		}
		return jsonx.AppendString(dst, s), nil
	}
	dst = append(dst, '[')
	for i, b := range c.Blocks {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = b.AppendJSON(dst); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

// UnmarshalJSON accepts a string or an array of blocks.
func (c *Contents) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*c = StringContents(s)
		return nil
	}
	if string(b) == "null" {
		*c = Contents{}
		return nil
	}
	var blocks []Content
	if err := json.Unmarshal(b, &blocks); err != nil {
		return err
	}
	*c = Contents{Blocks: blocks}
	return nil
}
