package openairesponses

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm"
)

// grammarTool is a tool sent as a Responses custom tool whose input the
// model writes under a grammar (constrainedSampling {"type":"grammar"} on
// a model with compat.supportsOpenAIGrammarTools). Its one required
// string property carries that input.
type grammarTool struct {
	Syntax     string // "lark" or "regex"
	Definition string
	Property   string
}

// grammarFor resolves a tool's grammar sampling, as the reference does:
// nil when the tool asks for none or the model has no grammar tools, an
// error when the tool's config or schema cannot be used.
func grammarFor(t engine.ToolInfo, supported bool) (*grammarTool, error) {
	if !supported || len(t.ConstrainedSampling) == 0 {
		return nil, nil
	}
	var cfg struct {
		Type     string `json:"type"`
		Variants struct {
			Lark  any `json:"openai_lark"`
			Regex any `json:"openai_regex"`
		} `json:"variants"`
	}
	if json.Unmarshal(t.ConstrainedSampling, &cfg) != nil || cfg.Type != "grammar" {
		return nil, nil
	}
	lark, _ := cfg.Variants.Lark.(string)
	regex, _ := cfg.Variants.Regex.(string)
	g := &grammarTool{Syntax: "lark", Definition: lark}
	switch {
	case strings.TrimSpace(lark) != "":
	case strings.TrimSpace(regex) != "":
		g.Syntax, g.Definition = "regex", regex
	default:
		return nil, errors.New(`Tool "` + t.Name + `" cannot use grammar constrained sampling: no supported grammar variant was provided.`)
	}
	prop, err := grammarProperty(t.Parameters)
	if err != nil {
		return nil, errors.New(`Tool "` + t.Name + `" cannot use grammar constrained sampling: ` + err.Error() + ".")
	}
	g.Property = prop
	return g, nil
}

// grammarProperty is the schema's single required string property.
func grammarProperty(schema json.RawMessage) (string, error) {
	var s struct {
		Type       any                        `json:"type"`
		Required   []any                      `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	if s.Type != "object" {
		return "", errors.New("grammar constrained sampling requires an object parameter schema")
	}
	if len(s.Required) != 1 {
		return "", errors.New("grammar constrained sampling requires exactly one required string property")
	}
	prop, ok := s.Required[0].(string)
	if !ok {
		return "", errors.New("grammar constrained sampling requires exactly one required string property")
	}
	raw, ok := s.Properties[prop]
	if !ok || !truthyJSON(raw) {
		return "", errors.New("grammar constrained sampling requires a properties entry for " + prop)
	}
	var p struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(raw, &p) != nil || p.Type != "string" {
		return "", errors.New("grammar constrained sampling property " + prop + " must have type string")
	}
	return prop, nil
}

// grammarTools maps each grammar tool's name to its input property.
func grammarTools(tools []engine.ToolInfo, c compat) (map[string]string, error) {
	var props map[string]string
	for _, t := range tools {
		g, err := grammarFor(t, c.SupportsOpenAIGrammarTools)
		if err != nil {
			return nil, err
		}
		if g != nil {
			if props == nil {
				props = map[string]string{}
			}
			props[t.Name] = g.Property
		}
	}
	return props, nil
}

// customTool is a grammar tool's declaration.
func customTool(t engine.ToolInfo, g *grammarTool) llm.Object {
	return llm.Object{}.Set("type", "custom").Set("name", t.Name).Set("description", t.Description).
		Set("format", llm.Object{}.Set("type", "grammar").Set("syntax", g.Syntax).Set("definition", g.Definition))
}

// grammarInput is the input of a replayed grammar tool call: its string
// argument.
func grammarInput(name string, args json.RawMessage, prop string) (string, error) {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(args, &m)
	var s string
	if raw, ok := m[prop]; !ok || json.Unmarshal(raw, &s) != nil {
		return "", errors.New(`Grammar tool call "` + name + `" requires argument "` + prop + `" to be a string.`)
	}
	return s, nil
}

// customInput streams a grammar tool call's input as the JSON text of
// its arguments, {"<property>":"<input>"}, piece by piece.
type customInput struct {
	prop    string
	input   string
	started bool
	closed  bool
	// unsent is the text of an input that came with the item itself; it
	// goes out with the next piece.
	unsent string
	// sent is every piece emitted so far.
	sent string
}

func jsonStringBody(s string) string {
	b, _ := engine.MarshalJSON(s)
	return string(b[1 : len(b)-1])
}

func (c *customInput) start() string {
	if c.started {
		return ""
	}
	c.started = true
	return "{" + string(must(engine.MarshalJSON(c.prop))) + `:"`
}

func must(b []byte, _ error) []byte { return b }

// appendDelta adds input and returns its JSON piece ("" for none).
func (c *customInput) appendDelta(delta string) (string, error) {
	if c.closed {
		return "", errors.New(`grammar tool input for property "` + c.prop + `" changed after it was closed`)
	}
	if delta == "" {
		return "", nil
	}
	c.input += delta
	return c.start() + jsonStringBody(delta), nil
}

// close ends the input with the provider's complete one (when given) and
// returns the rest of the JSON text.
func (c *customInput) close(final *string) (string, error) {
	if c.closed {
		if final == nil || *final == c.input {
			return "", nil
		}
		return "", errors.New(`grammar tool input for property "` + c.prop + `" changed after it was closed`)
	}
	rest := ""
	if final != nil {
		if !strings.HasPrefix(*final, c.input) {
			return "", errors.New(`grammar tool input for property "` + c.prop + `" changed non-monotonically`)
		}
		rest = (*final)[len(c.input):]
		c.input = *final
	}
	c.closed = true
	return c.start() + jsonStringBody(rest) + `"}`, nil
}

// send turns a piece into the delta to emit, prefixed by any unsent
// text; "" means no event.
func (c *customInput) send(piece string) string {
	if c.unsent == "" {
		return piece
	}
	out := c.unsent + piece
	c.unsent = ""
	return out
}
