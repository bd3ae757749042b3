package pi

import (
	"path"
	"slices"
	"strings"
)

// DefaultToolNames are the built-in tools active when nothing says
// otherwise.
var DefaultToolNames = []string{"read", "bash", "edit", "write"}

// ToolSelectionInput is what decides the active tools: the flags, the
// defaultTools setting (nil when unset) and every tool name that exists
// (built-ins and extension tools), used to expand "*" patterns.
type ToolSelectionInput struct {
	Options         *Options
	SettingDefaults []string
	Available       []string
}

// matchTool reports whether name matches one of the entries, which may be
// exact names or "*" glob patterns.
func matchTool(entries []string, name string) bool {
	for _, e := range entries {
		if e == name {
			return true
		}
		if strings.Contains(e, "*") {
			if ok, _ := path.Match(e, name); ok {
				return true
			}
		}
	}
	return false
}

// applyToolModifiers edits base with +name (add if absent) and -name
// (remove) entries, in order.
func applyToolModifiers(base, mods []string) []string {
	out := slices.Clone(base)
	for _, m := range mods {
		if !IsToolModifier(m) || len(m) < 2 {
			continue
		}
		name := m[1:]
		idx := slices.Index(out, name)
		switch {
		case m[0] == '+' && idx < 0:
			out = append(out, name)
		case m[0] == '-' && idx >= 0:
			out = slices.Delete(out, idx, idx+1)
		}
	}
	return out
}

// SelectTools returns the names of the tools that start active, in order.
// --no-tools and --no-builtin-tools empty the default set; a --tools list
// of only +name/-name entries edits the defaults, any other list replaces
// them (patterns expand against the available names); --exclude-tools is
// applied last.
func SelectTools(in ToolSelectionInput) []string {
	a := in.Options
	defaults := DefaultToolNames
	if in.SettingDefaults != nil {
		defaults = in.SettingDefaults
	}
	if a.NoTools || a.NoBuiltinTools {
		defaults = nil
	}
	var selected []string
	switch {
	case a.Tools != nil && len(a.Tools) > 0 && IsToolModifier(a.Tools[0]):
		selected = applyToolModifiers(defaults, a.Tools)
	case a.Tools != nil:
		for _, e := range a.Tools {
			if !strings.Contains(e, "*") {
				if !slices.Contains(selected, e) {
					selected = append(selected, e)
				}
				continue
			}
			for _, name := range in.Available {
				if ok, _ := path.Match(e, name); ok && !slices.Contains(selected, name) {
					selected = append(selected, name)
				}
			}
		}
	default:
		selected = slices.Clone(defaults)
	}
	out := []string{}
	for _, name := range selected {
		if len(a.ExcludeTools) > 0 && matchTool(a.ExcludeTools, name) {
			continue
		}
		out = append(out, name)
	}
	return out
}

// IsToolModifier reports whether a --tools entry is a +name/-name edit of
// the defaults rather than a name of the allowlist.
func IsToolModifier(s string) bool { return strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") }
