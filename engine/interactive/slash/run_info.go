package slash

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/session"
)

// Stats are the /session numbers, over every entry of the session file
// (all branches), as the reference counts them.
type Stats struct {
	Total, User, Assistant, ToolCalls, ToolResults int
	Input, Output, CacheRead, CacheWrite           int
	Cost                                           float64
}

type usageJSON struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	CacheRead  int `json:"cacheRead"`
	CacheWrite int `json:"cacheWrite"`
	Cost       struct {
		Total float64 `json:"total"`
	} `json:"cost"`
}

func (s *Stats) add(u usageJSON) {
	s.Input += u.Input
	s.Output += u.Output
	s.CacheRead += u.CacheRead
	s.CacheWrite += u.CacheWrite
	s.Cost += u.Cost.Total
}

func (s *Stats) addRaw(raw json.RawMessage) {
	var u usageJSON
	if len(raw) > 0 && json.Unmarshal(raw, &u) == nil {
		s.add(u)
	}
}

// SessionStats counts the messages, tool calls, tokens and cost of a
// session's entries.
func SessionStats(entries []*engine.Entry) Stats {
	var s Stats
	for _, e := range entries {
		switch e.Type {
		case engine.EntryUsage, engine.EntryBranchSummary, engine.EntryCompaction:
			s.addRaw(e.Usage)
		}
		if e.Type != engine.EntryMessage || e.Message == nil {
			continue
		}
		m := e.Message
		s.Total++
		switch m.Role {
		case engine.RoleUser:
			s.User++
		case engine.RoleToolResult:
			s.ToolResults++
			s.addRaw(m.ToolUsage)
		case engine.RoleAssistant:
			s.Assistant++
			for _, b := range m.Content.Blocks {
				if b.Type == engine.ContentToolCall {
					s.ToolCalls++
				}
			}
			s.add(usageJSON{Input: m.Usage.Input, Output: m.Usage.Output, CacheRead: m.Usage.CacheRead, CacheWrite: m.Usage.CacheWrite,
				Cost: struct {
					Total float64 `json:"total"`
				}{m.Usage.Cost.Total}})
		}
	}
	return s
}

// thousands writes n with comma separators, as toLocaleString does.
func thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// SessionInfoMarkdown is the /session block.
func SessionInfoMarkdown(store *session.File) string {
	st := SessionStats(store.Entries())
	var b strings.Builder
	b.WriteString("**Session Info**\n\n")
	if n := store.SessionName(); n != "" {
		fmt.Fprintf(&b, "- Name: %s\n", n)
	}
	file := store.Path()
	if file == "" || !store.Persisted() {
		file = "In-memory"
	}
	fmt.Fprintf(&b, "- File: %s\n- ID: %s\n\n", file, store.Header().ID)
	fmt.Fprintf(&b, "**Messages**\n\n- Total: %d\n- User: %d\n- Assistant: %d\n- Tools: %d calls, %d results\n\n",
		st.Total, st.User, st.Assistant, st.ToolCalls, st.ToolResults)
	prompt := st.Input + st.CacheRead + st.CacheWrite
	fmt.Fprintf(&b, "**Tokens**\n\n- Input: %s\n", thousands(prompt))
	if prompt > 0 && (st.CacheRead > 0 || st.CacheWrite > 0) {
		fmt.Fprintf(&b, "    - Cached: %s (%.1f%%)\n", thousands(st.CacheRead), float64(st.CacheRead)*100/float64(prompt))
		written := ""
		if st.CacheWrite > 0 {
			written = fmt.Sprintf(" (%s written to cache)", thousands(st.CacheWrite))
		}
		fmt.Fprintf(&b, "    - Uncached: %s%s\n", thousands(st.Input+st.CacheWrite), written)
	}
	fmt.Fprintf(&b, "- Output: %s\n- Total: %s\n", thousands(st.Output), thousands(prompt+st.Output))
	if st.Cost > 0 {
		fmt.Fprintf(&b, "\n**Cost**\n\n- Total: $%.3f\n", st.Cost)
	}
	return b.String()
}

func runSession(_ context.Context, h Host, _ string) error {
	h.AppendMarkdown(SessionInfoMarkdown(h.Agent().Store()))
	return nil
}

// runChangelog has nothing to show: this build bundles no changelog, and
// says so in the reference's words for an empty one.
func runChangelog(_ context.Context, h Host, _ string) error {
	h.AppendMarkdown("**What's New**\n\nNo changelog entries found.")
	return nil
}

// savedTrust finds the saved decision for cwd or its closest ancestor in
// <agentDir>/trust.json, with the folder it was saved for.
func savedTrust(agentDir, cwd string) (*dialogs.SavedTrust, error) {
	b, err := os.ReadFile(filepath.Join(agentDir, "trust.json"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var data map[string]any
	if err := json.Unmarshal(b, &data); err != nil {
		return nil, fmt.Errorf("Failed to read trust store: %w", err)
	}
	dir := cwd
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	for {
		if v, ok := data[dir].(bool); ok {
			return &dialogs.SavedTrust{Path: dir, Trusted: v}, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, nil
		}
		dir = parent
	}
}

func runTrust(_ context.Context, h Host, _ string) error {
	a := h.Agent()
	saved, err := savedTrust(a.AgentDir(), a.Cwd())
	if err != nil {
		return fail(h, "%s", err.Error())
	}
	h.ShowDialog(dialogs.NewTrustSelector(h.Style(), dialogs.TrustSelectorOptions{
		Cwd: a.Cwd(), Saved: saved, SessionTrusted: a.ProjectTrusted(),
		OnCancel: h.CloseDialog,
		OnSelect: func(o dialogs.TrustOption) {
			h.CloseDialog()
			if err := ApplyTrust(a.AgentDir(), o); err != nil {
				_ = fail(h, "Could not save project trust: %w", err)
				return
			}
			what := "untrusted"
			if o.Trusted {
				what = "trusted"
			}
			h.Notify(Info, fmt.Sprintf("Saved project trust: %s (%s). It applies to the next sessions started here.", what, o.SavedPath))
		},
	}))
	return nil
}

// ApplyTrust writes a trust answer's updates to the trust store (the
// start-up prompt uses it too).
func ApplyTrust(agentDir string, o dialogs.TrustOption) error {
	t := config.NewTrust(agentDir)
	for _, u := range o.Updates {
		if err := t.Set(u.Path, u.Decision); err != nil {
			return err
		}
	}
	return nil
}
