package prompts

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// ParseFrontmatter splits a Markdown resource (prompt template or skill)
// into its YAML frontmatter and body, the way the reference does: line
// endings become "\n" and a byte order mark is dropped; the frontmatter is
// the text between a leading "---" and the next "\n---"; when there is
// frontmatter the body is what follows it, trimmed; without frontmatter the
// body is the whole (normalised, untrimmed) text. A frontmatter that is not
// a YAML mapping yields an empty map. A YAML syntax error is returned, and
// callers turn it into a diagnostic.
func ParseFrontmatter(content string) (map[string]any, string, error) {
	yamlText, body := splitFrontmatter(content)
	if yamlText == "" {
		return map[string]any{}, body, nil
	}
	if fm, ok := parseSimpleYAML(yamlText); ok {
		return fm, body, nil
	}
	return parseFullYAML(yamlText, body)
}

// splitFrontmatter is ParseFrontmatter's split of content into the YAML
// text (empty when there is none) and the body.
func splitFrontmatter(content string) (yamlText, body string) {
	text := normalizeNewlines(strings.TrimPrefix(content, "\uFEFF"))
	if !strings.HasPrefix(text, "---") {
		return "", text
	}
	end := strings.Index(text[3:], "\n---")
	if end < 0 {
		return "", text
	}
	end += 3
	body = TrimJS(text[end+4:])
	if end > 4 {
		yamlText = text[4:end]
	}
	return yamlText, body
}

// parseFullYAML parses the frontmatter with the YAML parser. The text
// stops before the closing "\n---", so its last line has no line break;
// the reference's parser still ends a clipped or folded block scalar
// ("|", ">") there with one, while ours would not, so the break is put
// back. Text that already ends in one is left alone: a kept ("|+") block
// would otherwise gain a line.
func parseFullYAML(yamlText, body string) (map[string]any, string, error) {
	src := []byte(yamlText)
	if !strings.HasSuffix(yamlText, "\n") {
		src = append(src, '\n')
	}
	var parsed any
	if err := yaml.Unmarshal(src, &parsed); err != nil {
		return nil, body, fmt.Errorf("parse frontmatter: %w", err)
	}
	fm, _ := parsed.(map[string]any)
	if fm == nil {
		fm = map[string]any{}
	}
	return fm, body, nil
}

// ScanFrontmatter is ParseFrontmatter for a caller that needs a few keys,
// not the map: it calls field once per key and returns the body. For a
// string value, str is the string and val is nil; for any other value
// (numbers, booleans, lists, which only the full YAML parser produces) str
// is empty and val is the value. In the common simple shape no map is
// built, which a thousand skills at start-up make worth it.
func ScanFrontmatter(content string, field func(key, str string, val any)) (string, error) {
	yamlText, body := splitFrontmatter(content)
	var buf [8]yamlPair
	if pairs, ok := simpleYAMLPairs(yamlText, buf[:0]); ok {
		for _, p := range pairs {
			field(p.key, p.value, nil)
		}
		return body, nil
	}
	fm, body, err := parseFullYAML(yamlText, body)
	if err != nil {
		return body, err
	}
	for k, v := range fm {
		if s, ok := v.(string); ok {
			field(k, s, nil)
		} else {
			field(k, "", v)
		}
	}
	return body, nil
}

// frontmatterStrings is ScanFrontmatter for string values only.
func frontmatterStrings(content string, field func(key, value string)) (string, error) {
	yamlText, body := splitFrontmatter(content)
	var buf [8]yamlPair
	if pairs, ok := simpleYAMLPairs(yamlText, buf[:0]); ok {
		for _, p := range pairs {
			field(p.key, p.value)
		}
		return body, nil
	}
	fm, body, err := parseFullYAML(yamlText, body)
	if err != nil {
		return body, err
	}
	for k, v := range fm {
		if s, ok := v.(string); ok {
			field(k, s)
		}
	}
	return body, nil
}

// StripFrontmatter returns the body of a Markdown resource (see
// ParseFrontmatter).
func StripFrontmatter(content string) (string, error) {
	_, body, err := ParseFrontmatter(content)
	return body, err
}

func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// TrimJS trims like JavaScript's String.prototype.trim: Unicode white space,
// line terminators and U+FEFF.
func TrimJS(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

// isJSSpace reports whether r matches JavaScript's \s.
func isJSSpace(r rune) bool {
	return r == '\uFEFF' || unicode.IsSpace(r) && r != '\u0085'
}

// parseSimpleYAML handles the common frontmatter shape, one "key: plain
// text" per line, without the YAML parser; loading a thousand skills at
// startup makes this worth it. Anything it is not sure about (quotes, block
// scalars, comments, values YAML would read as a number, bool or null)
// makes it give up, and the caller uses the full parser.
func parseSimpleYAML(text string) (map[string]any, bool) {
	var buf [8]yamlPair
	pairs, ok := simpleYAMLPairs(text, buf[:0])
	if !ok {
		return nil, false
	}
	fm := make(map[string]any, len(pairs))
	for _, p := range pairs {
		fm[p.key] = p.value
	}
	return fm, true
}

type yamlPair struct{ key, value string }

// simpleYAMLPairs is parseSimpleYAML's scan: the key/value pairs in order,
// appended to out, or false when the text is not of the simple shape.
func simpleYAMLPairs(text string, out []yamlPair) ([]yamlPair, bool) {
	for line := range strings.SplitSeq(text, "\n") {
		if line == "" {
			continue
		}
		colon := strings.Index(line, ": ")
		if colon <= 0 {
			return nil, false
		}
		key := line[:colon]
		for i := 0; i < len(key); i++ {
			c := key[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return nil, false
			}
		}
		value := strings.TrimRight(line[colon+2:], " ")
		if q, ok := quotedScalar(value); ok {
			value = q
		} else if !plainScalar(value) {
			return nil, false
		}
		for _, p := range out {
			if p.key == key {
				return nil, false
			}
		}
		out = append(out, yamlPair{key, value})
	}
	return out, true
}

// plainScalar reports whether YAML would read v as this exact string.
func plainScalar(v string) bool {
	if v == "" || !utf8.ValidString(v) {
		return false
	}
	switch v[0] {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\t', '~', '.', '+':
		return false
	}
	if v[0] >= '0' && v[0] <= '9' {
		return false
	}
	if strings.HasSuffix(v, ":") || strings.Contains(v, ": ") || strings.Contains(v, " #") || strings.ContainsAny(v, "\t\\") {
		return false
	}
	// Only short words can be one of these; lower-casing a description
	// would cost a copy per resource.
	if len(v) <= len("false") {
		switch strings.ToLower(v) {
		case "true", "false", "null", "yes", "no", "on", "off", "y", "n", "nan", "inf":
			return false
		}
	}
	for _, r := range v {
		if r < 0x20 || r == 0x7f || r == '\uFEFF' {
			return false
		}
	}
	return true
}

// quotedScalar reads a one-line quoted scalar that needs no unescaping:
// "text" without a backslash or inner double quote, or 'text' without an
// inner single quote. Anything else is left to the YAML parser.
func quotedScalar(v string) (string, bool) {
	if len(v) < 2 || (v[0] != '"' && v[0] != '\'') || v[len(v)-1] != v[0] {
		return "", false
	}
	inner := v[1 : len(v)-1]
	if strings.IndexByte(inner, v[0]) >= 0 || v[0] == '"' && strings.IndexByte(inner, '\\') >= 0 || !utf8.ValidString(inner) {
		return "", false
	}
	for _, r := range inner {
		if r < 0x20 || r == 0x7f || r == '\uFEFF' {
			return "", false
		}
	}
	return inner, true
}

func decodeRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }
