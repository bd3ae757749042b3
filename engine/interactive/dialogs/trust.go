package dialogs

import (
	"path/filepath"

	"github.com/pi-go/pi/engine/tui"
)

// TrustUpdate is one change to the trust store: Decision nil removes the
// folder's entry.
type TrustUpdate struct {
	Path     string
	Decision *bool
}

// TrustOption is one answer to the trust question: whether the session
// trusts the project, and what is saved for later sessions (nothing for
// the "this session only" answers).
type TrustOption struct {
	Label   string
	Trusted bool
	Updates []TrustUpdate
	// SavedPath is the folder whose saved decision this answer is.
	SavedPath string
}

func canonicalDir(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return filepath.Clean(abs)
}

// TrustOptions are the answers for cwd, in the reference's order: Trust,
// Trust parent folder (when there is a parent), [Trust (this session
// only)], Do not trust, [Do not trust (this session only)].
func TrustOptions(cwd string, sessionOnly bool) []TrustOption {
	dir := canonicalDir(cwd)
	yes, no := true, false
	opts := []TrustOption{{Label: "Trust", Trusted: true, Updates: []TrustUpdate{{dir, &yes}}, SavedPath: dir}}
	if parent := filepath.Dir(dir); parent != dir {
		opts = append(opts, TrustOption{Label: "Trust parent folder (" + parent + ")", Trusted: true,
			Updates: []TrustUpdate{{parent, &yes}, {dir, nil}}, SavedPath: parent})
	}
	if sessionOnly {
		opts = append(opts, TrustOption{Label: "Trust (this session only)", Trusted: true})
	}
	opts = append(opts, TrustOption{Label: "Do not trust", Trusted: false, Updates: []TrustUpdate{{dir, &no}}, SavedPath: dir})
	if sessionOnly {
		opts = append(opts, TrustOption{Label: "Do not trust (this session only)", Trusted: false})
	}
	return opts
}

// TrustPromptOptions configure the start-up trust question.
type TrustPromptOptions struct {
	Cwd    string
	OnDone func(TrustOption)
	// OnCancel (Escape/Ctrl+C) means the user declined to decide: the
	// caller treats the folder as untrusted for this session.
	OnCancel func()
}

// NewTrustPrompt is the question pi asks before loading a project folder
// that has trust-gated resources: "Trust project folder?", the path, what
// trusting allows, and the five answers.
func NewTrustPrompt(st Style, o TrustPromptOptions) *Select {
	opts := TrustOptions(o.Cwd, true)
	labels := make([]string, len(opts))
	for i, op := range opts {
		labels[i] = op.Label
	}
	return NewSelect(st, SelectOptions{
		Title:   "Trust project folder?",
		Message: canonicalDir(o.Cwd) + "\n\nTrusting it lets pi read the folder's .pi settings and resources, install the project's missing packages and run its extensions.",
		Options: labels,
		OnSelect: func(i int, _ string) {
			if o.OnDone != nil {
				o.OnDone(opts[i])
			}
		},
		OnCancel: o.OnCancel,
	})
}

// SavedTrust is a decision found in the trust store (for cwd or the
// closest ancestor that has one).
type SavedTrust struct {
	Path    string
	Trusted bool
}

// TrustSelectorOptions configure the /trust selector.
type TrustSelectorOptions struct {
	Cwd            string
	Saved          *SavedTrust
	SessionTrusted bool
	OnSelect       func(TrustOption)
	OnCancel       func()
}

// TrustSelector is /trust: the saved decision and the session's, and the
// answers that save one.
type TrustSelector struct {
	rc   renderCache
	st   Style
	o    TrustSelectorOptions
	opts []TrustOption
	sel  int
	done bool
}

// NewTrustSelector builds /trust with the saved answer selected.
func NewTrustSelector(st Style, o TrustSelectorOptions) *TrustSelector {
	ts := &TrustSelector{st: st, o: o, opts: TrustOptions(o.Cwd, false)}
	for i, op := range ts.opts {
		if ts.isSaved(op) {
			ts.sel = i
			break
		}
	}
	return ts
}

func (ts *TrustSelector) isSaved(op TrustOption) bool {
	s := ts.o.Saved
	return s != nil && s.Trusted == op.Trusted && canonicalDir(s.Path) == op.SavedPath
}

// Done reports whether the selector has resolved.
func (ts *TrustSelector) Done() bool { return ts.done }

// HandleKey moves, selects or cancels.
func (ts *TrustSelector) HandleKey(k tui.Key) bool {
	ts.rc.bump()
	if ts.done || k.Release {
		return false
	}
	switch {
	case ts.st.Is(k, "tui.select.up"):
		ts.sel = max(ts.sel-1, 0)
	case ts.st.Is(k, "tui.select.down"):
		ts.sel = min(ts.sel+1, len(ts.opts)-1)
	case ts.st.Is(k, "tui.select.confirm"):
		ts.done = true
		if ts.o.OnSelect != nil {
			ts.o.OnSelect(ts.opts[ts.sel])
		}
	case ts.st.Is(k, "tui.select.cancel"):
		ts.done = true
		if ts.o.OnCancel != nil {
			ts.o.OnCancel()
		}
	default:
		return false
	}
	return true
}

// Render draws the title, both decisions, the answers and the hints.
// The rows are cached by width until the dialog changes.
func (ts *TrustSelector) Render(width int) []string { return ts.rc.get(width, ts.render) }

// Invalidate drops the cached rows (after a theme change).
func (ts *TrustSelector) Invalidate() { ts.rc.bump() }

func (ts *TrustSelector) render(width int) []string {
	st := ts.st
	f := &frame{w: width}
	f.line(st.border(width))
	f.blank()
	f.pad(st.title("Project trust"))
	f.pad(st.muted(canonicalDir(ts.o.Cwd)))
	f.blank()
	saved := "none"
	if s := ts.o.Saved; s != nil {
		saved = "untrusted"
		if s.Trusted {
			saved = "trusted"
		}
		if canonicalDir(s.Path) != canonicalDir(ts.o.Cwd) {
			saved += " (inherited from " + s.Path + ")"
		} else {
			saved += " (" + s.Path + ")"
		}
	}
	f.pad(st.muted("Saved decision: " + saved))
	cur := "untrusted"
	if ts.o.SessionTrusted {
		cur = "trusted"
	}
	f.pad(st.muted("Current session: " + cur))
	f.blank()
	for i, op := range ts.opts {
		prefix, label := "  ", st.text(op.Label)
		if i == ts.sel {
			prefix, label = st.accent("→ "), st.accent(op.Label)
		}
		mark := "  "
		if ts.isSaved(op) {
			mark = st.fg("success", "✓ ")
		}
		f.pad(prefix + mark + label)
	}
	f.blank()
	f.pad(st.RawHint("↑↓", "navigate") + "  " + st.Hint("tui.select.confirm", "save") + "  " + st.Hint("tui.select.cancel", "cancel"))
	f.blank()
	f.line(st.border(width))
	return f.rows
}
