package editor

import "strings"

// Command is a slash command the "/" list offers.
type Command struct {
	Name         string
	Description  string
	ArgumentHint string // "<provider/model>", shown before the description
	// Complete lists completions of the argument typed so far ("/model
	// cl" asks Complete("cl")); nil means the command has none.
	Complete func(arg string) []Item
}

// CommandProvider completes slash command names (fuzzy, "/mo" → model,
// scoped-models …) and, after a space, the command's arguments. It
// leaves "@" tokens and Tab to the file provider.
type CommandProvider struct {
	commands []Command
}

// NewCommandProvider returns a provider over commands, in list order.
func NewCommandProvider(commands []Command) *CommandProvider {
	return &CommandProvider{commands: commands}
}

// SetCommands replaces the commands (after a reload).
func (p *CommandProvider) SetCommands(commands []Command) { p.commands = commands }

// Suggest implements Provider.
func (p *CommandProvider) Suggest(r Request) *Suggestions {
	before := r.BeforeCursor()
	if r.Force || r.Line != 0 || atPrefix(before) != "" {
		return nil
	}
	text := strings.TrimLeft(before, " \t")
	if !strings.HasPrefix(text, "/") {
		return nil
	}
	sp := strings.IndexByte(text, ' ')
	if sp < 0 {
		query := text[1:]
		bare := fuzzyFilter(p.commands, query, func(c Command) string { return strings.TrimPrefix(c.Name, "skill:") })
		seen := map[string]bool{}
		for _, c := range bare {
			seen[c.Name] = true
		}
		var skills []Command
		for _, c := range p.commands {
			if strings.HasPrefix(c.Name, "skill:") && !seen[c.Name] {
				skills = append(skills, c)
			}
		}
		all := append(bare, fuzzyFilter(skills, query, func(c Command) string { return c.Name })...)
		if len(all) == 0 {
			return nil
		}
		items := make([]Item, len(all))
		for i, c := range all {
			desc := c.Description
			if c.ArgumentHint != "" {
				if desc != "" {
					desc = c.ArgumentHint + " — " + desc
				} else {
					desc = c.ArgumentHint
				}
			}
			items[i] = Item{Value: c.Name, Label: c.Name, Description: desc}
		}
		return &Suggestions{Items: items, Prefix: text}
	}
	name, arg := text[1:sp], text[sp+1:]
	for _, c := range p.commands {
		if c.Name != name {
			continue
		}
		if c.Complete == nil {
			return nil
		}
		items := c.Complete(arg)
		if len(items) == 0 {
			return nil
		}
		return &Suggestions{Items: items, Prefix: arg}
	}
	return nil
}

// Apply implements Provider: a command name becomes "/name " with the
// cursor after the space; an argument replaces what was typed of it.
func (p *CommandProvider) Apply(r Request, it Item, prefix string) ([]string, int, int) {
	line := r.Lines[r.Line]
	start := max(0, r.Col-len(prefix))
	before, after := line[:start], line[r.Col:]
	lines := append([]string(nil), r.Lines...)
	if strings.HasPrefix(prefix, "/") && strings.TrimSpace(before) == "" && !strings.Contains(prefix[1:], "/") {
		lines[r.Line] = before + "/" + it.Value + " " + after
		return lines, r.Line, len(before) + len(it.Value) + 2
	}
	lines[r.Line] = before + it.Value + after
	return lines, r.Line, len(before) + len(it.Value)
}
