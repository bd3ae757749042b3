package mcp

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// ServersSectionName names the system prompt section that lists the
// servers whose tools are not declared to the model.
const ServersSectionName = "mcp_servers"

// Limits of the section, the reference's: a server's summary is cut at
// maxServerSummary characters, the whole section at maxServersSection
// (summaries shrink first, then the last servers are counted instead).
const (
	maxServerSummary  = 250
	maxServersSection = 4096
)

// ServersSection is the <mcp_servers> section's body: every enabled
// server with codemode or deferred tools, sorted by name, as
// "- mcp__<server> (codemode|tool_search)" and a one-line summary (its
// description, else the first line of its instructions once connected).
// Empty when there is none. Its limits count UTF-16 code units and
// servers sort as the reference's localeCompare orders them.
func (m *Manager) ServersSection() string {
	type entry struct{ head, summary string }
	var listed []entry
	reaches := map[string]bool{}
	conns := m.Conns()
	sort.SliceStable(conns, func(i, j int) bool { return localeLess(conns[i].Server.Name, conns[j].Server.Name) })
	for _, c := range conns {
		s := c.Server
		if !s.Enabled {
			continue
		}
		exposures := map[string]bool{s.Exposure: true}
		for _, kv := range s.ToolExposure {
			exposures[kv[1]] = true
		}
		if !exposures["codemode"] && !exposures["deferred"] {
			continue
		}
		reach := "tool_search"
		if exposures["codemode"] {
			reach = "codemode"
		}
		reaches[reach] = true
		summary := strings.TrimSpace(s.Description)
		if summary == "" {
			summary = strings.TrimSpace(c.Instructions())
		}
		summary = strings.TrimSpace(strings.SplitN(summary, "\n", 2)[0])
		listed = append(listed, entry{head: fmt.Sprintf("- %s (%s)", Namespace(s.Name), reach), summary: summary})
	}
	if len(listed) == 0 {
		return ""
	}
	intro := "These MCP servers' tools are not declared to you."
	if reaches["codemode"] {
		intro += " Reach the tools of `codemode` servers from a codemode script."
	}
	if reaches["tool_search"] {
		intro += " Load the tools of `tool_search` servers with `tool_search` first."
	}
	omitted := func(n int) []string {
		if n == 0 {
			return nil
		}
		plural := "s"
		if n == 1 {
			plural = ""
		}
		return []string{fmt.Sprintf("- … %d more server%s; find their tools with searchTools()", n, plural)}
	}
	size := func(kept int) int {
		lines := []string{intro}
		for _, e := range listed[:kept] {
			lines = append(lines, e.head)
		}
		return utf16Len(strings.Join(append(lines, omitted(len(listed)-kept)...), "\n"))
	}
	kept := len(listed)
	for kept > 0 && size(kept) > maxServersSection {
		kept--
	}
	per := 0
	if kept > 0 {
		per = min(maxServerSummary, (maxServersSection-size(kept))/kept-2)
	}
	lines := []string{intro}
	for _, e := range listed[:kept] {
		line := e.head
		if s := truncateRunes(e.summary, per); s != "" {
			line += ": " + s
		}
		lines = append(lines, line)
	}
	return strings.Join(append(lines, omitted(len(listed)-kept)...), "\n")
}

// truncateRunes cuts s to max UTF-16 code units, ending in … when cut
// (never inside a surrogate pair).
func truncateRunes(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if utf16Len(s) <= max {
		return s
	}
	if max <= 1 {
		return ""
	}
	n, cut := 0, 0
	for i, r := range s {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if n+w > max-1 {
			break
		}
		n += w
		cut = i + utf8.RuneLen(r)
	}
	return strings.TrimRight(s[:cut], " \t\n\r") + "…"
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// localeLess orders server names as localeCompare does for the names
// servers may have (letters, digits, - and _): punctuation (_ before -)
// before digits before letters, case compared last, lowercase first.
func localeLess(a, b string) bool {
	key := strings.NewReplacer("_", "\x01", "-", "\x02")
	la, lb := key.Replace(strings.ToLower(a)), key.Replace(strings.ToLower(b))
	if la != lb {
		return la < lb
	}
	return a > b
}
