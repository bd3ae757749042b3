package highlight

import (
	"strings"

	"github.com/pi-go/pi/engine/tui/theme"
)

// Token names a class of source text; each maps to a theme token.
type Token uint8

const (
	Text Token = iota
	Comment
	Keyword
	Function
	Variable
	String
	Number
	Type
	Operator
	Punctuation
	Meta
	Added
	Removed
	Tag
	Attr
	BoldText
	ItalicText
	LinkText
)

// themeToken is the theme colour of each class (the mapping pi uses for
// highlight.js classes: built-ins and types in syntaxType, literals in
// syntaxNumber, tags as punctuation, tag names as keywords, attributes as
// variables, diff lines in the tool diff colours).
func themeToken(t Token) string {
	switch t {
	case Comment:
		return "syntaxComment"
	case Keyword:
		return "syntaxKeyword"
	case Function:
		return "syntaxFunction"
	case Variable, Attr:
		return "syntaxVariable"
	case String:
		return "syntaxString"
	case Number:
		return "syntaxNumber"
	case Type:
		return "syntaxType"
	case Operator:
		return "syntaxOperator"
	case Punctuation, Tag:
		return "syntaxPunctuation"
	case Meta:
		return "muted"
	case Added:
		return "toolDiffAdded"
	case Removed:
		return "toolDiffRemoved"
	}
	return "text"
}

// Span is a piece of source text and its class.
type Span struct {
	Text  string
	Token Token
}

// Supported reports whether lang (a fence info word or alias, any case) is
// highlighted.
func Supported(lang string) bool { return lookup(lang) != nil }

// Lines highlights code in lang with th's syntax* tokens and returns one
// string per source line. An unknown or empty language paints every line
// in mdCodeBlock, as pi does rather than guess a language.
func Lines(lang, code string, th *theme.Theme) []string {
	spec := lookup(lang)
	if spec == nil {
		lines := strings.Split(code, "\n")
		for i, l := range lines {
			lines[i] = th.Fg("mdCodeBlock", l)
		}
		return lines
	}
	var out []string
	var cur strings.Builder
	paint := func(s string, t Token) {
		if s == "" {
			return
		}
		switch t {
		case BoldText:
			cur.WriteString(theme.Bold(th.Fg("text", s)))
		case ItalicText:
			cur.WriteString(theme.Italic(th.Fg("text", s)))
		case LinkText:
			cur.WriteString(theme.Underline(th.Fg("text", s)))
		default:
			cur.WriteString(th.Fg(themeToken(t), s))
		}
	}
	for _, sp := range Scan(lang, code) {
		s := sp.Text
		for {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				paint(s, sp.Token)
				break
			}
			paint(s[:i], sp.Token)
			out = append(out, cur.String())
			cur.Reset()
			s = s[i+1:]
		}
	}
	return append(out, cur.String())
}

// Scan splits code into classified spans (adjacent spans of one class are
// merged). An unknown language gives one Text span.
func Scan(lang, code string) []Span {
	spec := lookup(lang)
	if spec == nil {
		return []Span{{code, Text}}
	}
	s := &scanner{src: code, spec: spec}
	switch spec.mode {
	case modeDiff:
		s.diff()
	case modeMarkup:
		s.markup()
	case modeMarkdown:
		s.markdown()
	case modeYAML:
		s.yaml()
	case modeCSS:
		s.css()
	default:
		s.code()
	}
	return s.out
}
