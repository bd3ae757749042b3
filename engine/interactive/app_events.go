package interactive

import (
	"fmt"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

// spinnerFrames animate the working indicator in the editor's top rule.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

const spinnerInterval = 80 * time.Millisecond

// handleEvent applies one agent event on the UI goroutine.
func (a *app) handleEvent(e engine.Event) {
	if s := a.c.Session(); s != a.sess {
		// The session was replaced (an extension's newSession, a fork
		// from a command): show the new one's history.
		a.sess = s
		a.replay()
		a.refreshFooter()
	}
	changed := a.tr.Handle(e)
	if a.pstatus.handle(e) {
		a.reportStatus()
	}
	switch ev := e.(type) {
	case engine.AgentStart:
		a.streaming = true
		a.setWorking("Working...")
	case engine.TurnStart:
		a.setProgress(true)
	case engine.AgentEnd:
		a.setProgress(false)
	case engine.AgentSettled:
		a.streaming = false
		a.setWorking("")
		a.queue.set(nil, nil)
		a.refreshFooter()
	case engine.MessageStart:
		if ev.Message != nil && ev.Message.Role == engine.RoleUser {
			// A queued message went out: the queue_update that follows
			// redraws the pending area.
			changed = true
		}
	case engine.MessageEnd:
		if ev.Message != nil && ev.Message.Role == engine.RoleAssistant {
			a.refreshFooter()
			a.maybeSuggestBug(ev.Message)
		}
	case engine.QueueUpdate:
		a.queue.set(ev.Steering, ev.FollowUp)
		changed = true
	case engine.ThinkingLevelChanged, engine.SessionInfoChanged:
		a.refreshFooter()
	case engine.CompactionStart:
		label := "Compacting context..."
		if ev.Reason != "manual" {
			label = "Auto-compacting..."
		}
		a.setWorking(label)
		a.setProgress(true)
	case engine.CompactionEnd:
		a.setProgress(false)
		a.setWorking(a.workingAfter())
		switch {
		case ev.Aborted && ev.Reason == "manual":
			a.showError("Compaction cancelled")
		case ev.Aborted:
			a.showStatus("Auto-compaction cancelled")
		case len(ev.Result) > 0:
			a.replay()
		case ev.ErrorMessage != "":
			a.showError(ev.ErrorMessage)
		}
		a.refreshFooter()
	case engine.AutoRetryStart:
		a.setWorking(fmt.Sprintf("Retrying (%d/%d) in %ds...", ev.Attempt, ev.MaxAttempts, (ev.DelayMs+999)/1000))
	case engine.AutoRetryEnd:
		a.setWorking(a.workingAfter())
		if !ev.Success {
			msg := ev.FinalError
			if msg == "" {
				msg = "Unknown error"
			}
			a.showError(fmt.Sprintf("Retry failed after %d attempts: %s", ev.Attempt, msg))
		}
	case engine.SummarizationRetryScheduled:
		a.showError(ev.ErrorMessage)
	case engine.ExtensionError:
		a.showError(fmt.Sprintf("Extension error (%s, %s): %s", ev.ExtensionPath, ev.Event, ev.Error))
	}
	if changed {
		a.p.RequestRender()
	}
}

// workingAfter is the label once a compaction or retry is over.
func (a *app) workingAfter() string {
	if a.streaming {
		return "Working..."
	}
	return ""
}

// setWorking shows label with a spinner in the editor's top rule, or
// clears it ("").
func (a *app) setWorking(label string) {
	a.working = label
	if label == "" {
		if a.stopSpinner != nil {
			a.stopSpinner()
			a.stopSpinner = nil
		}
		a.editor.SetTopLabel("")
		a.p.RequestRender()
		return
	}
	a.drawSpinner()
	if a.stopSpinner == nil {
		a.stopSpinner = a.p.Every(spinnerInterval, func() {
			a.spinner = (a.spinner + 1) % len(spinnerFrames)
			a.drawSpinner()
		})
	}
}

func (a *app) drawSpinner() {
	frame := a.v.fg("accent", spinnerFrames[a.spinner])
	a.editor.SetTopLabels(frame+" "+a.v.fg("muted", a.working), frame)
	a.p.RequestRender()
}

// maybeSuggestBug points at /bug once per run of the mode, after a reply
// failed with an error that is neither transient (retried) nor the user's
// own abort, as the reference does.
func (a *app) maybeSuggestBug(m *engine.Message) {
	if a.bugHinted || m.StopReason != engine.StopError || engine.IsRetryableError(m) {
		return
	}
	low := strings.ToLower(m.ErrorMessage)
	for _, w := range []string{"abort", "cancel"} {
		if strings.Contains(low, w) {
			return
		}
	}
	a.bugHinted = true
	a.tr.notice("muted", "Looks like a bug in pi? /bug sends a report to its developers.")
}
