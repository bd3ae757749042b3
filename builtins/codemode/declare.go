package codemode

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/pi-go/pi/engine"
)

// builtinReturns are the TypeScript result types of the built-in tools
// whose calls resolve to more than their text (docs/codemode.md, "Call
// tools"); every other tool without a declared type resolves to a string.
var builtinReturns = map[string]string{
	"read": `string | { data: string; mimeType: string; note: string; type: "image"; }`,
	"bash": "{\n  exit_code: number;\n  // Full output, when truncated\n  full_output_path?: string;\n  // Combined stdout and stderr, possibly truncated\n  output: string;\n  truncated: boolean;\n  wall_time_seconds: number;\n}",
}

// shortReturns are the one-line forms used in the note appended to a
// declared tool's description while codemode is on.
var shortReturns = map[string]string{
	"read": builtinReturns["read"],
	"bash": "{ output, truncated, full_output_path?, exit_code, wall_time_seconds }",
}

// jsIdent is a tool's member name on `tools`: characters that cannot be
// in a JavaScript identifier become "_".
func jsIdent(name string) string {
	var b strings.Builder
	for i, r := range name {
		ok := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// returnType is the TypeScript type a call of the tool resolves to.
func returnType(name string, e *Entry) string {
	if e != nil && e.Returns != "" {
		return e.Returns
	}
	if t, ok := builtinReturns[name]; ok {
		return t
	}
	return "string"
}

// CallNote is the line appended to a declared tool's description while
// codemode is on, saying what a script's call of it resolves to.
func CallNote(name string) string {
	t, ok := shortReturns[name]
	if !ok {
		t = "a string"
	} else {
		t = "`" + t + "`"
	}
	return fmt.Sprintf("Codemode: `tools.%s(args)` resolves to %s.", jsIdent(name), t)
}

// describe is what describeTool(), searchTools() and ALL_TOOLS give for a
// tool: its description, its prompt guidelines (the system prompt's rules
// cover only declared tools) and its TypeScript declaration.
func describe(info engine.ToolInfo, e *Entry) string {
	var b strings.Builder
	b.WriteString(info.Description)
	if len(info.PromptGuidelines) > 0 {
		b.WriteString("\n\n")
		for i, g := range info.PromptGuidelines {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString("- " + g)
		}
	}
	b.WriteString("\n\ncodemode tool declaration:\n```ts\n")
	b.WriteString(declaration(info, e))
	b.WriteString("\n```")
	return b.String()
}

// declaration is `declare const tools: { name(args: {...}): Promise<T>; };`.
func declaration(info engine.ToolInfo, e *Entry) string {
	var schema map[string]any
	_ = json.Unmarshal(info.Parameters, &schema)
	args := tsType(schema, "")
	ret := indentAfterFirst(returnType(info.Name, e), "")
	return fmt.Sprintf("declare const tools: { %s(args: %s): Promise<%s>; };", jsIdent(info.Name), args, ret)
}

func indentAfterFirst(s, indent string) string {
	return strings.ReplaceAll(s, "\n", "\n"+indent)
}

// tsType renders a JSON Schema as a TypeScript type; properties are
// sorted by name, each preceded by its description as a comment.
func tsType(s map[string]any, indent string) string {
	if s == nil {
		return "unknown"
	}
	if c, ok := s["const"]; ok {
		b, _ := json.Marshal(c)
		return string(b)
	}
	if en, ok := s["enum"].([]any); ok && len(en) > 0 {
		parts := make([]string, len(en))
		for i, v := range en {
			b, _ := json.Marshal(v)
			parts[i] = string(b)
		}
		return strings.Join(parts, " | ")
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			parts := make([]string, 0, len(alts))
			for _, a := range alts {
				m, _ := a.(map[string]any)
				parts = append(parts, tsType(m, indent))
			}
			return strings.Join(parts, " | ")
		}
	}
	typ, _ := s["type"].(string)
	switch typ {
	case "string":
		return "string"
	case "number", "integer":
		return "number"
	case "boolean":
		return "boolean"
	case "null":
		return "null"
	case "array":
		items, _ := s["items"].(map[string]any)
		return "Array<" + tsType(items, indent) + ">"
	case "object", "":
		props, _ := s["properties"].(map[string]any)
		if len(props) == 0 {
			if typ == "" {
				return "unknown"
			}
			return "Record<string, unknown>"
		}
		required := map[string]bool{}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if n, ok := r.(string); ok {
					required[n] = true
				}
			}
		}
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		sort.Strings(names)
		inner := indent + "  "
		var b strings.Builder
		b.WriteString("{\n")
		for _, n := range names {
			p, _ := props[n].(map[string]any)
			if d, ok := p["description"].(string); ok && d != "" {
				for _, line := range strings.Split(d, "\n") {
					b.WriteString(inner + "// " + line + "\n")
				}
			}
			opt := ""
			if !required[n] {
				opt = "?"
			}
			key := n
			if jsIdent(n) != n {
				key = fmt.Sprintf("%q", n)
			}
			b.WriteString(inner + key + opt + ": " + tsType(p, inner) + ";\n")
		}
		b.WriteString(indent + "}")
		return b.String()
	}
	return "unknown"
}
