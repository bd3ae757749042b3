package interactive

import (
	"time"

	"github.com/pi-go/pi/engine/tui"
)

// The terminal progress indicator (OSC 9;4), shown in the tab or the
// taskbar by terminals that draw it (Windows Terminal, ghostty, WezTerm,
// iTerm2, ConEmu) while the agent works, when terminal.showTerminalProgress
// is on. State 3 is "indeterminate"; some terminals drop a progress
// report after a few seconds of silence, so it is repeated every second
// while active, as the reference does.
const (
	progressActive    = tui.SeqProgressActive
	progressClear     = tui.SeqProgressClear
	progressKeepalive = time.Second
)

// setProgress turns the indicator on (a turn or a compaction started) or
// off (the run or the compaction ended, the mode exits). It does nothing
// unless the setting is on, read each time so /settings applies at once.
func (a *app) setProgress(active bool) {
	if !settingBool(a.c, "terminal.showTerminalProgress") && a.stopProgress == nil {
		return
	}
	if !active {
		if a.stopProgress == nil {
			return
		}
		a.stopProgress()
		a.stopProgress = nil
		a.p.SetProgress(false)
		return
	}
	if !settingBool(a.c, "terminal.showTerminalProgress") {
		return
	}
	a.p.SetProgress(true)
	if a.stopProgress == nil {
		a.stopProgress = a.p.Every(progressKeepalive, func() { a.p.SetProgress(true) })
	}
}
