package prompts

import (
	"regexp"
	"slices"
	"strings"

	"github.com/pi-go/pi/engine"
)

// This file mirrors normalize.prose_skeleton of the conformance harness
// (shared/conformance/normalize.py, sections_skeleton): the parts of the
// prompt that are prose become "<prose>", the facts stay. Tests compare our
// sections with the reference's through it.

const prose = "<prose>"

var (
	builtinTools    = []string{"read", "bash", "powershell", "edit", "write", "grep", "find", "ls"}
	defaultSections = []string{"tools", "rules", "docs"}
	toolLineRE      = regexp.MustCompile(`(?s)\A- ([^\s:]+)(?::.*)?\z`)
	skillRE         = regexp.MustCompile(`(?s)<skill>(.*?)</skill>`)
	skillFields     = []string{"name", "description", "location"}
)

// skelSection is one section of a skeleton, in order.
type skelSection struct {
	Name string
	Text string
}

func sectionsSkeleton(s engine.Sections) []skelSection {
	isDefault := false
	for _, n := range defaultSections {
		if _, ok := s.Get(n); ok {
			isDefault = true
		}
	}
	out := make([]skelSection, 0, len(s))
	for _, sec := range s {
		switch {
		case sec.Value == nil:
			out = append(out, skelSection{sec.Name, "<null>"})
		case sec.Name == "preamble" && isDefault:
			out = append(out, skelSection{sec.Name, prose})
		case sec.Name == "preamble":
			out = append(out, skelSection{sec.Name, *sec.Value})
		default:
			out = append(out, skelSection{sec.Name, sectionSkeleton(sec.Name, *sec.Value)})
		}
	}
	return out
}

func sectionSkeleton(name, text string) string {
	var fn func(string) (string, bool)
	switch name {
	case "tools":
		fn = toolsSkeleton
	case "rules", "docs":
		fn = func(string) (string, bool) { return "", false }
	case "project_context":
		fn = projectContextSkeleton
	case "skills":
		fn = skillsSkeleton
	default:
		return text // addendum, cwd and extensions' sections are facts
	}
	open, closing := "<"+name+">\n", "\n</"+name+">"
	wrapped := strings.HasPrefix(text, open) && strings.HasSuffix(text, closing) && len(text) >= len(open)+len(closing)
	body := text
	if wrapped {
		body = text[len(open) : len(text)-len(closing)]
	}
	b, ok := fn(body)
	if !ok {
		b = prose
	}
	if wrapped {
		return open + b + closing
	}
	return b
}

func toolsSkeleton(body string) (string, bool) {
	var items []string
	cont := false
	for _, line := range strings.Split(body, "\n") {
		if m := toolLineRE.FindStringSubmatch(line); m != nil {
			if slices.Contains(builtinTools, m[1]) {
				items = append(items, "- "+m[1])
				cont = false
			} else {
				items = append(items, line)
				cont = true
			}
		} else if strings.TrimSpace(line) == "" {
			cont = false
		} else if cont {
			items[len(items)-1] += "\n" + line
		}
	}
	return strings.Join(items, "\n"), len(items) > 0
}

// projectContextSkeleton keeps the <project_instructions> blocks. A block
// ends at the first closing tag that is followed by the next block or by
// the end of the text, as the harness's regular expression does.
func projectContextSkeleton(body string) (string, bool) {
	const openPrefix = `<project_instructions path="`
	const closeTag = "\n</project_instructions>"
	var blocks []string
	pos := 0
	for {
		i := strings.Index(body[pos:], openPrefix)
		if i < 0 {
			break
		}
		start := pos + i
		end, ok := matchInstructions(body, start+len(openPrefix), closeTag)
		if !ok {
			pos = start + 1
			continue
		}
		blocks = append(blocks, body[start:end])
		pos = end
	}
	return strings.Join(blocks, "\n\n"), len(blocks) > 0
}

func matchInstructions(body string, at int, closeTag string) (int, bool) {
	q := strings.Index(body[at:], `">`+"\n")
	if q < 0 || strings.ContainsAny(body[at:at+q], "\"\n") {
		return 0, false
	}
	content := at + q + 3
	for from := content; from < len(body); {
		j := strings.Index(body[from:], closeTag)
		if j < 0 {
			return 0, false
		}
		end := from + j + len(closeTag)
		rest := body[end:]
		if strings.HasPrefix(rest, "\n\n<project_instructions ") || strings.TrimSpace(rest) == "" {
			return end, true
		}
		from = from + j + 1
	}
	return 0, false
}

func skillsSkeleton(body string) (string, bool) {
	var out []string
	for _, m := range skillRE.FindAllStringSubmatch(body, -1) {
		var fields []string
		for _, f := range skillFields {
			re := regexp.MustCompile(`(?s)<` + f + `>(.*?)</` + f + `>`)
			if fm := re.FindStringSubmatch(m[1]); fm != nil {
				fields = append(fields, "<"+f+">"+fm[1]+"</"+f+">")
			}
		}
		out = append(out, "<skill>\n"+strings.Join(fields, "\n")+"\n</skill>")
	}
	return strings.Join(out, "\n"), len(out) > 0
}
