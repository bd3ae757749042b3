package interactive

import (
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
)

// programStatus follows the agent's events and reports what pi is doing
// to terminals that show a program status (OSC 7501), as the reference's
// reporter: working (with the session name) while a run or a compaction
// goes on, then done, error (with the error's first line) or idle (an
// abort); a report is written only when it changed.
type programStatus struct {
	runActive, compacting bool
	runResult, resting    tui.ProgramStatus
	last                  tui.ProgramStatus
	reported              bool
}

func newProgramStatus() *programStatus {
	return &programStatus{runResult: tui.ProgramStatus{State: "done"}, resting: tui.ProgramStatus{State: "idle"}}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if s = strings.TrimSpace(s); s == "" {
		return "Error"
	}
	return s
}

// handle applies one event; it reports whether the status may have
// changed.
func (ps *programStatus) handle(e engine.Event) bool {
	switch ev := e.(type) {
	case engine.AgentStart:
		ps.runActive, ps.runResult = true, tui.ProgramStatus{State: "done"}
	case engine.MessageEnd:
		if ev.Message == nil || ev.Message.Role != engine.RoleAssistant {
			return false
		}
		ps.runResult = tui.ProgramStatus{State: "done"}
		if ev.Message.StopReason == engine.StopError {
			ps.runResult = tui.ProgramStatus{State: "error", Message: firstLine(ev.Message.ErrorMessage)}
		}
	case engine.CompactionStart:
		ps.compacting = true
	case engine.CompactionEnd:
		ps.compacting = false
		switch {
		case ps.runActive && ev.Aborted:
			ps.runResult = tui.ProgramStatus{State: "idle"}
		case ps.runActive && ev.ErrorMessage != "":
			ps.runResult = tui.ProgramStatus{State: "error", Message: firstLine(ev.ErrorMessage)}
		case !ps.runActive && ev.Aborted:
			ps.resting = tui.ProgramStatus{State: "idle"}
		case !ps.runActive && ev.Reason == "manual" && ev.ErrorMessage != "":
			ps.resting = tui.ProgramStatus{State: "error", Message: firstLine(ev.ErrorMessage)}
		case !ps.runActive && ev.Reason == "manual":
			ps.resting = tui.ProgramStatus{State: "done"}
		}
	case engine.AgentSettled:
		ps.runActive = false
		ps.resting = ps.runResult
		if ev.Aborted {
			ps.resting = tui.ProgramStatus{State: "idle"}
		}
	case engine.SessionInfoChanged:
	default:
		return false
	}
	return true
}

// current is the status to show, the session name as the message of
// working and done.
func (ps *programStatus) current(sessionName string) tui.ProgramStatus {
	s := ps.resting
	switch {
	case ps.compacting:
		s = tui.ProgramStatus{State: "working", Message: "Compacting context"}
	case ps.runActive:
		s = tui.ProgramStatus{State: "working"}
	}
	if (s.State == "working" && !ps.compacting) || s.State == "done" {
		s.Message = sessionName
	}
	s.App = "pi"
	return s
}

// reportStatus writes the status when it changed.
func (a *app) reportStatus() {
	name := ""
	if _, store := a.c.Current(); store != nil {
		name = store.SessionName()
	}
	s := a.pstatus.current(name)
	if a.pstatus.reported && s == a.pstatus.last {
		return
	}
	a.pstatus.last, a.pstatus.reported = s, true
	a.p.SetProgramStatus(s)
}
