package tui

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// Program status (OSC 7501), as the reference reports it to terminals
// that answer its query: what the program is doing ("working", "done",
// "error", "idle", "blocked", or "clear" to remove it), the program's
// name and a message. The query goes out with the start-up probes; the
// status is written only once the terminal answered, and cleared on exit.

// ProgramStatusQuery asks the terminal whether it takes OSC 7501.
const ProgramStatusQuery = "\x1b]7501;?\x1b\\"

// ProgramStatus is one report.
type ProgramStatus struct {
	State   string // working, done, error, idle, blocked, clear
	App     string // the program's name ("pi")
	Kind    string // for blocked: what it waits for
	Message string
}

// maxStatusMessage is the longest message in bytes.
const maxStatusMessage = 2048

func validApp(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_.+-", r)) {
			return false
		}
	}
	return true
}

// FormatProgramStatus is the OSC 7501 sequence of s:
// "state=…[:app=…][:kind=…][:msg=<base64>]".
func FormatProgramStatus(s ProgramStatus) string {
	pairs := []string{"state=" + s.State}
	if validApp(s.App) {
		pairs = append(pairs, "app="+s.App)
	}
	if s.State == "blocked" && s.Kind != "" {
		pairs = append(pairs, "kind="+s.Kind)
	}
	msg := strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s.Message))
	if len(msg) > maxStatusMessage {
		cut := maxStatusMessage
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut]
	}
	if msg != "" {
		pairs = append(pairs, "msg="+base64.StdEncoding.EncodeToString([]byte(msg)))
	}
	return "\x1b]7501;" + strings.Join(pairs, ":") + "\x1b\\"
}

// isProgramStatusReply reports the terminal's answer to the query.
func isProgramStatusReply(raw string) bool {
	return strings.HasPrefix(raw, "\x1b]7501;?") && (strings.HasSuffix(raw, "\a") || strings.HasSuffix(raw, "\x1b\\"))
}

// SetProgramStatus reports s (UI goroutine) when the terminal takes OSC
// 7501, and keeps it to report once the terminal answers, and again
// after a suspend.
func (p *Program) SetProgramStatus(s ProgramStatus) {
	p.status = &s
	if s.State == "clear" {
		p.status = nil
	}
	if p.modes.programStatus && p.running && !p.released {
		p.write(FormatProgramStatus(s))
		p.modes.statusShown = s.State != "clear"
	}
}
