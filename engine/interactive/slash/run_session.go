package slash

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/interactive/dialogs"
	"github.com/pi-go/pi/engine/session"
)

func runNew(ctx context.Context, h Host, _ string) error {
	a := h.Agent()
	replaceSession(h, func() (bool, error) { return a.NewSession(ctx, "") },
		"New session cancelled", "Failed to create session: %w", func() { h.Notify(Info, "✓ New session started") })
	return nil
}

// replaceSession runs a session replacement (new, switch, fork, clone,
// import) off the UI goroutine and reports how it ended: cancelled by an
// extension, failed (failFormat wraps the error), or done, when the
// transcript is rebuilt before done runs.
func replaceSession(h Host, op func() (cancelled bool, err error), cancelledMsg, failFormat string, done func()) {
	var cancelled bool
	background(h, func() (err error) {
		cancelled, err = op()
		return err
	}, func(err error) {
		switch {
		case err != nil:
			_ = fail(h, failFormat, err)
		case cancelled:
			h.Notify(Info, cancelledMsg)
		default:
			h.Reprint()
			done()
		}
	})
}

// errBusy refuses a tree move while a compaction or another move runs.
var errBusy = errors.New("Wait for the current compaction or tree navigation to finish before navigating the session tree.")

func runClone(ctx context.Context, h Host, _ string) error {
	a := h.Agent()
	if a.Store().LeafID() == "" {
		h.Notify(Info, "Nothing to clone yet")
		return nil
	}
	replaceSession(h, func() (bool, error) { return a.Clone(ctx) }, "Clone cancelled", "%w", func() {
		h.SetEditorText("")
		h.Notify(Info, "Cloned to new session")
	})
	return nil
}

// branchUserMessages are the user messages of the active branch with
// text, oldest first.
func branchUserMessages(store *session.File) []dialogs.ForkItem {
	var out []dialogs.ForkItem
	for _, e := range store.Branch() {
		if e.Type != engine.EntryMessage || e.Message == nil || e.Message.Role != engine.RoleUser {
			continue
		}
		if t := strings.TrimSpace(messageText(e.Message)); t != "" {
			out = append(out, dialogs.ForkItem{EntryID: e.ID, Text: t})
		}
	}
	return out
}

func messageText(m *engine.Message) string {
	if m.Content.IsString {
		return m.Content.Text()
	}
	var parts []string
	for _, b := range m.Content.Blocks {
		if b.Type == engine.ContentText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func runFork(ctx context.Context, h Host, _ string) error {
	a := h.Agent()
	h.ShowDialog(dialogs.NewForkSelector(h.Style(), dialogs.ForkSelectorOptions{
		Messages: branchUserMessages(a.Store()),
		OnCancel: h.CloseDialog,
		OnSelect: func(it dialogs.ForkItem) {
			h.CloseDialog()
			var text string
			replaceSession(h, func() (cancelled bool, err error) {
				cancelled, text, err = a.Fork(ctx, it.EntryID, "before")
				return cancelled, err
			}, "Fork cancelled", "%w", func() {
				h.SetEditorText(text)
				h.Notify(Info, "Branched to new session")
			})
		},
	}))
	return nil
}

func runTree(ctx context.Context, h Host, _ string) error {
	return showTree(ctx, h, "")
}

// showTree opens /tree, on selected when given (after a step back from
// the summary question).
func showTree(ctx context.Context, h Host, selected string) error {
	a := h.Agent()
	store := a.Store()
	tree := store.Tree()
	if len(tree) == 0 {
		h.Notify(Info, "No entries in session")
		return nil
	}
	// Half the terminal's height of entries (at least 5), as the
	// reference's tree shows.
	rows := 0
	if ts, ok := h.(TerminalSizer); ok {
		rows = max(5, ts.TerminalRows()/2)
	}
	h.ShowDialog(dialogs.NewTreeSelector(h.Style(), dialogs.TreeSelectorOptions{
		Tree: tree, LeafID: store.LeafID(), Selected: selected, Filter: settingString(a, "treeFilterMode"), Rows: rows,
		OnCancel: h.CloseDialog,
		OnLabel:  a.SetLabel,
		OnCopy: func(text string) {
			if text == "" {
				_ = fail(h, "Selected entry has no text to copy")
				return
			}
			if err := h.Copy(text); err != nil {
				_ = fail(h, "%s", err.Error())
				return
			}
			h.Notify(Info, "Copied selected message to clipboard")
		},
		OnSelect: func(id string) {
			h.CloseDialog()
			if id == store.LeafID() {
				h.Notify(Info, "Already at this point")
				return
			}
			if skip, _ := a.Setting("branchSummary.skipPrompt").(bool); skip {
				navigate(ctx, h, id, false, nil)
				return
			}
			askSummary(ctx, h, id)
		},
	}))
	return nil
}

// askSummary asks whether to summarise the branch being left; Escape goes
// back to the tree.
func askSummary(ctx context.Context, h Host, id string) {
	st := h.Style()
	h.ShowDialog(dialogs.NewSelect(st, dialogs.SelectOptions{
		Title:    "Summarize branch?",
		Options:  []string{"No summary", "Summarize", "Summarize with custom prompt"},
		OnCancel: func() { _ = showTree(ctx, h, id) },
		OnSelect: func(i int, _ string) {
			switch i {
			case 0:
				h.CloseDialog()
				navigate(ctx, h, id, false, nil)
			case 1:
				h.CloseDialog()
				navigate(ctx, h, id, true, nil)
			default:
				h.ShowDialog(dialogs.NewEditorDialog(st, dialogs.EditorOptions{
					Title:    "Custom summarization instructions",
					OnCancel: func() { askSummary(ctx, h, id) },
					OnSubmit: func(text string) {
						h.CloseDialog()
						navigate(ctx, h, id, true, &text)
					},
				}))
			}
		},
	}))
}

func navigate(ctx context.Context, h Host, id string, summarize bool, instructions *string) {
	a := h.Agent()
	if summarize {
		h.Notify(Info, "Summarizing branch…")
	}
	var res engine.NavigateResult
	background(h, func() error {
		// The user committed to moving: stop the running reply first
		// (Abort waits for the session to settle, so it runs here, off
		// the UI goroutine).
		if a.IsStreaming() {
			a.Abort()
		}
		if a.IsCompacting() {
			return errBusy
		}
		var err error
		res, err = a.NavigateTree(ctx, id, engine.NavigateOptions{Summarize: summarize, CustomInstructions: instructions})
		return err
	}, func(err error) {
		switch {
		case err != nil:
			_ = fail(h, "%s", err.Error())
		case res.Aborted:
			h.Notify(Info, "Branch summarization cancelled")
			_ = showTree(ctx, h, id)
		case res.Cancelled:
			h.Notify(Info, "Navigation cancelled")
		default:
			h.Reprint()
			if res.EditorText != nil && strings.TrimSpace(h.EditorText()) == "" {
				h.SetEditorText(*res.EditorText)
			}
			h.Notify(Info, "Navigated to selected point")
		}
	})
}

func runResume(ctx context.Context, h Host, _ string) error {
	ShowSessionPicker(h, func(info session.Info) {
		a := h.Agent()
		replaceSession(h, func() (bool, error) { return a.SwitchSession(ctx, info.Path) },
			"Resume cancelled", "Failed to resume session: %w", func() { h.Notify(Info, "Resumed session") })
	}, h.CloseDialog)
	return nil
}

// ShowSessionPicker opens the session picker (/resume, and -r before the
// session starts when onSelect switches to the pick). The picker closes
// itself before onSelect or onCancel run.
func ShowSessionPicker(h Host, onSelect func(session.Info), onCancel func()) {
	a := h.Agent()
	current, err := a.ListSessions(false)
	if err != nil {
		h.Notify(Warning, "Some sessions could not be read: "+err.Error())
	}
	curPath := ""
	if s := a.Store(); s != nil {
		curPath = s.Path()
	}
	h.ShowDialog(dialogs.NewSessionPicker(h.Style(), dialogs.SessionPickerOptions{
		Current: current,
		LoadAll: func(deliver func([]session.Info, error)) {
			var all []session.Info
			background(h, func() error {
				var err error
				all, err = a.ListSessions(true)
				return err
			}, func(err error) { deliver(all, err) })
		},
		CurrentPath: curPath,
		OnSelect: func(info session.Info) {
			h.CloseDialog()
			onSelect(info)
		},
		OnCancel: func() {
			h.CloseDialog()
			if onCancel != nil {
				onCancel()
			}
		},
		OnRename: func(info session.Info, name string) error {
			if curPath != "" && info.Path == curPath {
				_, err := a.SetSessionName(name)
				return err
			}
			f, err := session.Open(info.Path)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.AppendSessionInfo(session.SanitizeName(name))
		},
		OnDelete: func(info session.Info) error { return os.Remove(info.Path) },
	}))
}

func runName(_ context.Context, h Host, args string) error {
	a := h.Agent()
	if args == "" {
		if n := a.Store().SessionName(); n != "" {
			h.Notify(Info, "Session name: "+n)
		} else {
			h.Notify(Warning, "Usage: /name <name>")
		}
		return nil
	}
	got, err := a.SetSessionName(args)
	if err != nil {
		return fail(h, "%s", err.Error())
	}
	if got != args {
		w, _ := json.Marshal(args)
		g, _ := json.Marshal(got)
		h.Notify(Warning, fmt.Sprintf("Session name was normalized from %s to %s", w, g))
	}
	h.Notify(Info, "Session name set: "+got)
	return nil
}

func runExport(_ context.Context, h Host, args string) error {
	a := h.Agent()
	path := pathArgument(args)
	var out string
	// A long session takes a while to render as HTML: off the UI
	// goroutine.
	background(h, func() error {
		var err error
		if strings.HasSuffix(path, ".jsonl") {
			out, err = a.ExportJSONL(path)
		} else {
			out, err = a.ExportHTML(path)
		}
		return err
	}, func(err error) {
		if err != nil {
			_ = fail(h, "Failed to export session: %w", err)
			return
		}
		h.Notify(Info, "Session exported to: "+out)
	})
	return nil
}

func runImport(ctx context.Context, h Host, args string) error {
	path := pathArgument(args)
	if path == "" {
		return fail(h, "Usage: /import <path.jsonl>")
	}
	a := h.Agent()
	h.ShowDialog(dialogs.NewConfirm(h.Style(), dialogs.ConfirmOptions{
		Title: "Import session", Message: "Replace current session with " + path + "?",
		OnDone: func(yes bool) {
			h.CloseDialog()
			if !yes {
				h.Notify(Info, "Import cancelled")
				return
			}
			replaceSession(h, func() (bool, error) { return a.ImportSession(ctx, path) },
				"Import cancelled", "Failed to import session: %w", func() { h.Notify(Info, "Session imported from: "+path) })
		},
	}))
	return nil
}

// lastAssistantText is the text of the active branch's last assistant
// message that has any.
func lastAssistantText(store *session.File) string {
	branch := store.Branch()
	for i := len(branch) - 1; i >= 0; i-- {
		e := branch[i]
		if e.Type == engine.EntryMessage && e.Message != nil && e.Message.Role == engine.RoleAssistant {
			if t := strings.TrimSpace(messageText(e.Message)); t != "" {
				return t
			}
		}
	}
	return ""
}

func runCopy(_ context.Context, h Host, _ string) error {
	text := lastAssistantText(h.Agent().Store())
	if text == "" {
		return fail(h, "No agent messages to copy yet.")
	}
	if err := h.Copy(text); err != nil {
		return fail(h, "%s", err.Error())
	}
	h.Notify(Info, "Copied last agent message to clipboard")
	return nil
}

func runCompact(ctx context.Context, h Host, args string) error {
	a := h.Agent()
	// The outcome (the summary, or "Compaction failed: …") arrives as the
	// session's compaction events, which the transcript shows.
	h.Go(func() { _, _ = a.Compact(ctx, args) })
	return nil
}

func runReload(ctx context.Context, h Host, _ string) error {
	a := h.Agent()
	switch {
	case a.IsStreaming():
		h.Notify(Warning, "Wait for the current response to finish before reloading.")
		return nil
	case a.IsCompacting():
		h.Notify(Warning, "Wait for compaction to finish before reloading.")
		return nil
	}
	h.Notify(Info, "Reloading keybindings, extensions, skills, prompts, themes, and context files...")
	background(h, func() error { return a.Reload(ctx) }, func(err error) {
		if err != nil {
			_ = fail(h, "Reload failed: %w", err)
			return
		}
		h.Reloaded()
		h.Reprint()
		h.Notify(Info, "Reloaded keybindings, extensions, skills, prompts, themes, and context files")
	})
	return nil
}
