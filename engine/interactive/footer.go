package interactive

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/rpc"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/engine/tui"
)

// footerStats are the numbers the footer shows, recomputed from the
// session when a reply ends or the session changes, never per frame.
type footerStats struct {
	input, output, cacheRead, cacheWrite int
	cost                                 float64
	percent                              *float64
	window                               int
}

func computeStats(store *session.File, model *engine.Model) footerStats {
	st := rpc.Stats(store, model)
	fs := footerStats{input: st.Tokens.Input, output: st.Tokens.Output, cacheRead: st.Tokens.CacheRead,
		cacheWrite: st.Tokens.CacheWrite, cost: st.Cost}
	if model != nil {
		fs.window = model.ContextWindow
	}
	if cu := st.ContextUsage; cu != nil {
		fs.window = cu.ContextWindow
		fs.percent = cu.Percent
	} else {
		zero := 0.0
		fs.percent = &zero
	}
	return fs
}

// footer is the two lines under the editor (cwd • session name; tokens,
// context, model • thinking) and the extensions' status line.
type footer struct {
	v           *view
	cwd         string
	branch      string
	sessionName string
	stats       footerStats
	autoCompact bool
	model       *engine.Model
	thinking    engine.ThinkingLevel
	providers   int
	statuses    map[string]string
	version     uint64
	c           cache
}

func (f *footer) changed() { f.version++ }

// formatTokens is the reference's compact count: 999, 1.2k, 12k, 1.2M, 12M.
func formatTokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	case n < 1000000:
		return fmt.Sprintf("%dk", (n+500)/1000)
	case n < 10000000:
		return fmt.Sprintf("%.1fM", float64(n)/1000000)
	}
	return fmt.Sprintf("%dM", (n+500000)/1000000)
}

// tildePath shows a path inside home as ~/….
func tildePath(p, home string) string {
	if home == "" {
		return p
	}
	rel, err := filepath.Rel(home, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return p
	}
	if rel == "." {
		return "~"
	}
	return "~" + string(filepath.Separator) + rel
}

func (f *footer) Render(width int) []string {
	if r, ok := f.c.get(width, f.version, f.v.gen); ok {
		return r
	}
	dim := func(s string) string { return f.v.fg("dim", s) }
	pwd := tildePath(f.cwd, f.v.home)
	if f.branch != "" {
		pwd += " (" + f.branch + ")"
	}
	if f.sessionName != "" {
		pwd += " • " + f.sessionName
	}
	rows := []string{tui.Truncate(dim(pwd), width, dim("..."))}

	var parts []string
	s := f.stats
	if s.input > 0 {
		parts = append(parts, "↑"+formatTokens(s.input))
	}
	if s.output > 0 {
		parts = append(parts, "↓"+formatTokens(s.output))
	}
	if s.cacheRead > 0 {
		parts = append(parts, "R"+formatTokens(s.cacheRead))
	}
	if s.cacheWrite > 0 {
		parts = append(parts, "W"+formatTokens(s.cacheWrite))
	}
	if s.cost > 0 {
		parts = append(parts, fmt.Sprintf("$%.3f", s.cost))
	}
	auto := ""
	if f.autoCompact {
		auto = " (auto)"
	}
	pct := "?"
	pv := 0.0
	if s.percent != nil {
		pv = *s.percent
		pct = fmt.Sprintf("%.1f%%", pv)
	}
	ctx := pct + "/" + formatTokens(s.window) + auto
	switch {
	case pv > 90:
		ctx = f.v.fg("error", ctx)
	case pv > 70:
		ctx = f.v.fg("warning", ctx)
	}
	left := strings.Join(append(parts, ctx), " ")
	if tui.Width(left) > width {
		left = tui.Truncate(left, width, "...")
	}
	right := "no-model"
	if f.model != nil {
		right = f.model.ID
		if f.model.Reasoning {
			if f.thinking == "" || f.thinking == engine.ThinkingOff {
				right += " • thinking off"
			} else {
				right += " • " + string(f.thinking)
			}
		}
		if f.providers > 1 {
			if withProvider := "(" + f.model.Provider + ") " + right; tui.Width(left)+2+tui.Width(withProvider) <= width {
				right = withProvider
			}
		}
	}
	lw := tui.Width(left)
	line := dim(left)
	switch avail := width - lw - 2; {
	case lw+2+tui.Width(right) <= width:
		line += dim(strings.Repeat(" ", width-lw-tui.Width(right)) + right)
	case avail > 0:
		r := tui.Truncate(right, avail, "")
		line += dim(strings.Repeat(" ", width-lw-tui.Width(r)) + r)
	}
	rows = append(rows, line)

	if len(f.statuses) > 0 {
		keys := make([]string, 0, len(f.statuses))
		for k := range f.statuses {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		texts := make([]string, 0, len(keys))
		for _, k := range keys {
			texts = append(texts, sanitizeStatus(f.statuses[k]))
		}
		rows = append(rows, tui.Truncate(strings.Join(texts, " "), width, dim("...")))
	}
	return f.c.put(width, f.version, f.v.gen, rows)
}

// sanitizeStatus makes a status one line: control characters become
// spaces and runs of spaces collapse.
func sanitizeStatus(s string) string {
	s = strings.NewReplacer("\r", " ", "\n", " ", "\t", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// gitBranch reads the branch of the repository holding dir from its HEAD
// file ("" outside a repository; a detached HEAD shows "detached").
func gitBranch(dir string) string {
	for d := dir; ; {
		head := filepath.Join(d, ".git", "HEAD")
		if b, err := os.ReadFile(head); err == nil {
			s := strings.TrimSpace(string(b))
			if ref, ok := strings.CutPrefix(s, "ref: refs/heads/"); ok {
				return ref
			}
			return "detached"
		}
		if gitFile, err := os.ReadFile(filepath.Join(d, ".git")); err == nil {
			// A worktree: ".git" is a file naming the real git directory.
			if gd, ok := strings.CutPrefix(strings.TrimSpace(string(gitFile)), "gitdir: "); ok {
				if !filepath.IsAbs(gd) {
					gd = filepath.Join(d, gd)
				}
				if b, err := os.ReadFile(filepath.Join(gd, "HEAD")); err == nil {
					if ref, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "ref: refs/heads/"); ok {
						return ref
					}
					return "detached"
				}
			}
			return ""
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// pendingArea lists queued steering and follow-up messages while a run
// streams.
type pendingArea struct {
	v        *view
	steering []string
	followUp []string
	dequeue  string // the key bound to app.message.dequeue
	version  uint64
	c        cache
}

func (p *pendingArea) set(steering, followUp []string) {
	p.steering, p.followUp = steering, followUp
	p.version++
}

func (p *pendingArea) Render(width int) []string {
	if len(p.steering) == 0 && len(p.followUp) == 0 {
		return nil
	}
	if r, ok := p.c.get(width, p.version, p.v.gen); ok {
		return r
	}
	rows := []string{""}
	line := func(label, text string) string {
		return tui.Truncate(" "+p.v.fg("dim", label+sanitizeStatus(text)), width, "…")
	}
	for _, s := range p.steering {
		rows = append(rows, line("Steering: ", s))
	}
	for _, s := range p.followUp {
		rows = append(rows, line("Follow-up: ", s))
	}
	rows = append(rows, tui.Truncate(" "+p.v.fg("dim", "↳ "+keyLabel(p.dequeue)+" to edit all queued messages"), width, "…"))
	return p.c.put(width, p.version, p.v.gen, rows)
}

// keyLabel writes a key spec as the reference's hints do: "alt+up" as
// "Alt+Up".
func keyLabel(spec string) string {
	parts := strings.Split(spec, "+")
	for i, p := range parts {
		if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "+")
}

// widgetArea shows the extensions' setWidget lines for one placement, in
// the order the keys were first set.
type widgetArea struct {
	v       *view
	keys    []string
	lines   map[string][]string
	version uint64
	c       cache
}

func (w *widgetArea) set(key string, lines []string) {
	if w.lines == nil {
		w.lines = map[string][]string{}
	}
	if lines == nil {
		if _, ok := w.lines[key]; ok {
			delete(w.lines, key)
			for i, k := range w.keys {
				if k == key {
					w.keys = append(w.keys[:i], w.keys[i+1:]...)
					break
				}
			}
		}
	} else {
		if _, ok := w.lines[key]; !ok {
			w.keys = append(w.keys, key)
		}
		w.lines[key] = lines
	}
	w.version++
}

func (w *widgetArea) Render(width int) []string {
	if len(w.keys) == 0 {
		return nil
	}
	if r, ok := w.c.get(width, w.version, w.v.gen); ok {
		return r
	}
	var lines []string
	for _, k := range w.keys {
		lines = append(lines, w.lines[k]...)
	}
	return w.c.put(width, w.version, w.v.gen, box(w.v, width, outputPad, 0, "", lines))
}
