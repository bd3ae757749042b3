package interactive

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
)

// doubleCtrlC is how close two Ctrl+C must be to exit.
const doubleCtrlC = 500 * time.Millisecond

// appKey runs the app.* action bound to k. The editor asks it (its
// AppKeys option) after an open completion list and the history keys had
// their turn and before its own editing keys, as the reference orders
// them; keys nobody focused took come here through onEvent.
func (a *app) appKey(k tui.Key) bool {
	if k.Release {
		return false
	}
	km := a.km
	switch {
	case km.Matches(k, "app.interrupt"):
		a.interrupt()
	case km.Matches(k, "app.clear"):
		a.ctrlC()
	case km.Matches(k, "app.exit") && a.editor.Text() == "":
		a.exit()
	case km.Matches(k, "app.suspend"):
		if err := a.p.Suspend(); err != nil {
			a.showError("Error: " + err.Error())
		}
	case km.Matches(k, "app.thinking.cycle"):
		a.cycleThinking()
	case km.Matches(k, "app.model.cycleForward"):
		a.cycleModel()
	case km.Matches(k, "app.model.cycleBackward"):
		a.cycleModelBackward()
	case km.Matches(k, "app.message.copy"):
		a.runSlash("copy", "", "/copy")
	case km.Matches(k, "app.thinking.toggle"):
		a.v.hideThinking = !a.v.hideThinking
		a.v.changed()
		a.tr.invalidateAll()
		a.p.Reprint()
	case km.Matches(k, "app.tools.expand"):
		a.v.toolsExpanded = !a.v.toolsExpanded
		a.v.changed()
		a.tr.invalidateAll()
		a.p.Reprint()
	case km.Matches(k, "app.message.followUp"):
		a.followUp()
	case km.Matches(k, "app.message.dequeue"):
		a.dequeue()
	case km.Matches(k, "app.editor.external"):
		a.externalEditor()
	case km.Matches(k, "app.model.select"):
		a.openModelSelector()
	case km.Matches(k, "app.clipboard.pasteImage"):
		a.pasteClipboard()
	default:
		return false
	}
	a.p.RequestRender()
	return true
}

// onEvent gets what the focused component did not consume.
func (a *app) onEvent(ev tui.Event) {
	if r, ok := ev.(tui.Reply); ok {
		if c, ok := r.CellSizeReply(); ok {
			a.setCellSize(c)
			return
		}
		a.colorReply(r)
		return
	}
	if k, ok := ev.(tui.Key); ok && a.dialog == nil {
		a.appKey(k)
	}
}

func (a *app) ctrlC() {
	now := time.Now()
	if now.Sub(a.lastCtrlC) < doubleCtrlC {
		a.exit()
		return
	}
	a.lastCtrlC = now
	a.editor.SetText("")
}

// exit leaves the mode; the agent is closed by the caller.
func (a *app) exit() {
	if a.quitting {
		return
	}
	a.quitting = true
	a.p.Quit()
}

// interrupt is Escape: cancel a user command, else abort the run and put
// the queued messages back into the editor.
func (a *app) interrupt() {
	if a.bashCancel != nil {
		a.bashCancel()
		return
	}
	if a.streaming {
		a.restoreQueue(false)
		a.c.Abort()
		return
	}
	// Two Escapes on an empty editor run doubleEscapeAction: the tree
	// (default), the fork picker, or nothing.
	if a.editor.Text() != "" {
		a.lastEscape = time.Time{}
		return
	}
	now := time.Now()
	if now.Sub(a.lastEscape) >= doubleCtrlC {
		a.lastEscape = now
		return
	}
	a.lastEscape = time.Time{}
	switch action, _ := a.c.Setting("doubleEscapeAction").(string); action {
	case "none":
	case "fork":
		a.runSlash("fork", "", "/fork")
	default:
		a.runSlash("tree", "", "/tree")
	}
}

// restoreQueue moves the queued messages into the editor, before what it
// holds, separated by blank lines.
func (a *app) restoreQueue(announce bool) {
	steer, follow := a.c.Session().ClearQueue()
	all := append(append([]string(nil), steer...), follow...)
	if len(all) == 0 {
		if announce {
			a.showStatus("No queued messages to restore")
		}
		return
	}
	if t := a.editor.Text(); strings.TrimSpace(t) != "" {
		all = append(all, t)
	}
	a.editor.SetText(strings.Join(all, "\n\n"))
	a.queue.set(nil, nil)
	if announce {
		noun := "messages"
		if len(steer)+len(follow) == 1 {
			noun = "message"
		}
		a.showStatus(fmt.Sprintf("Restored %d queued %s to editor", len(steer)+len(follow), noun))
	}
}

func (a *app) dequeue() { a.restoreQueue(true) }

// submit is Enter in the editor.
func (a *app) submit(raw string) {
	text := strings.TrimSpace(raw)
	if text == "" {
		return
	}
	if strings.HasPrefix(text, "!") {
		excluded := strings.HasPrefix(text, "!!")
		cmd := strings.TrimSpace(strings.TrimLeft(text, "!"))
		if excluded {
			cmd = strings.TrimSpace(text[2:])
		} else {
			cmd = strings.TrimSpace(text[1:])
		}
		if cmd != "" {
			if a.bashCancel != nil {
				a.showWarning("A bash command is already running. Press Esc to cancel it first.")
				return
			}
			a.editor.AddHistory(text)
			a.editor.SetText("")
			a.runBash(cmd, excluded)
			return
		}
	}
	if strings.HasPrefix(text, "/") {
		name, args, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
		if a.runSlash(name, strings.TrimSpace(args), text) {
			a.editor.AddHistory(text)
			a.editor.SetText("")
			return
		}
	}
	a.editor.AddHistory(text)
	a.editor.SetText("")
	if a.streaming {
		go func() {
			if _, err := a.c.Steer(a.ctx, text); err != nil {
				a.p.Post(func() { a.showError("Error: " + err.Error()) })
			}
		}()
		return
	}
	a.prompt(text, nil)
}

// prompt sends text; the reply arrives as events. When the prompt is
// over, the next of Options.Messages goes out.
func (a *app) prompt(text string, images []engine.Content) {
	go func() {
		err := a.c.Prompt(a.ctx, text, images)
		a.p.Post(func() {
			if err != nil && a.ctx.Err() == nil {
				a.showError("Error: " + err.Error())
			}
			if len(a.messages) > 0 && err == nil {
				next := a.messages[0]
				a.messages = a.messages[1:]
				a.prompt(next, nil)
			}
		})
	}()
}

// followUp is Alt+Enter: queue the editor's text for after the run, or
// send it as a prompt when idle.
func (a *app) followUp() {
	text := strings.TrimSpace(a.editor.Text())
	if text == "" {
		return
	}
	if !a.streaming {
		a.submit(text)
		return
	}
	a.editor.AddHistory(text)
	a.editor.SetText("")
	go func() {
		if _, err := a.c.FollowUp(a.ctx, text); err != nil {
			a.p.Post(func() { a.showError("Error: " + err.Error()) })
		}
	}()
}

func (a *app) cycleThinking() {
	level, ok := a.c.CycleThinkingLevel()
	if !ok {
		a.showStatus("Current model does not support thinking")
		return
	}
	a.refreshFooter()
	a.showStatus("Thinking level: " + string(level))
}

func (a *app) cycleModel() {
	go func() {
		m, level, ok, err := a.c.CycleModel(a.ctx)
		a.p.Post(func() {
			switch {
			case err != nil:
				a.showError("Error: " + err.Error())
			case !ok:
				a.showStatus("Only one model available")
			default:
				a.refreshFooter()
				msg := "Switched to " + m.ID
				if m.Reasoning && level != "" {
					msg += " (thinking: " + string(level) + ")"
				}
				a.showStatus(msg)
			}
		})
	}()
}

// cycleModelBackward is Shift+Ctrl+P: the previous model of the scope
// (or of the models with credentials).
func (a *app) cycleModelBackward() {
	var choices []engine.ModelChoice
	if scoped := a.c.ScopedModels(); len(scoped) > 0 {
		choices = scoped
	} else {
		for _, m := range a.c.AvailableModels() {
			choices = append(choices, engine.ModelChoice{Model: m})
		}
	}
	if len(choices) < 2 {
		a.showStatus("Only one model available")
		return
	}
	cur := a.c.Model()
	i := 0
	for j, ch := range choices {
		if cur != nil && ch.Model.Provider == cur.Provider && ch.Model.ID == cur.ID {
			i = j
		}
	}
	prev := choices[(i-1+len(choices))%len(choices)]
	go func() {
		m, err := a.c.SetModel(a.ctx, prev.Model.Provider, prev.Model.ID)
		if err == nil && prev.ThinkingLevel != "" {
			a.c.SetThinkingLevel(prev.ThinkingLevel)
		}
		a.p.Post(func() {
			if err != nil {
				a.showError("Error: " + err.Error())
				return
			}
			a.refreshFooter()
			a.showStatus("Switched to " + m.ID)
		})
	}()
}

// runBash runs a user command (!cmd, !!cmd) with its output streaming
// into a bash block; Escape cancels it.
func (a *app) runBash(cmd string, excluded bool) {
	it := &bashItem{v: a.v, command: cmd, excluded: excluded}
	a.tr.add(it)
	ctx, cancel := context.WithCancel(a.ctx)
	a.bashCancel = cancel
	a.p.RequestRender()
	go func() {
		res, err := a.c.RunBash(ctx, cmd, excluded, func(chunk string) {
			a.p.Post(func() {
				it.append(chunk)
				a.tr.touch(it)
				a.p.RequestRender()
			})
		})
		a.p.Post(func() {
			cancel()
			a.bashCancel = nil
			if err != nil {
				it.append(err.Error())
				code := 1
				it.finish(&code, false)
			} else {
				it.finish(res.ExitCode, res.Cancelled)
			}
			a.tr.touch(it)
			a.p.RequestRender()
		})
	}()
}

// externalEditor is Ctrl+G: edit the editor's text in $VISUAL, $EDITOR
// or the externalEditor setting, with the screen released meanwhile.
func (a *app) externalEditor() {
	editor, _ := a.c.Setting("externalEditor").(string)
	if editor == "" {
		editor = os.Getenv("VISUAL")
	}
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "nano"
	}
	f, err := os.CreateTemp("", "pi-editor-*.md")
	if err != nil {
		a.showError("Error: " + err.Error())
		return
	}
	path := f.Name()
	defer os.Remove(path)
	_, _ = f.WriteString(a.editor.Text())
	_ = f.Close()
	if err := a.p.ReleaseTerminal(); err != nil {
		a.showError("Error: " + err.Error())
		return
	}
	parts := strings.Fields(editor)
	cmd := exec.Command(parts[0], append(parts[1:], path)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	runErr := cmd.Run()
	if err := a.p.RestoreTerminal(); err != nil {
		a.showError("Error: " + err.Error())
	}
	a.p.Reprint()
	if runErr != nil {
		a.showError("Error: external editor: " + runErr.Error())
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		a.showError("Error: " + err.Error())
		return
	}
	a.editor.SetText(strings.TrimRight(string(b), "\n"))
}
