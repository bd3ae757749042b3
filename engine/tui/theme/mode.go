package theme

import "strings"

// Mode is the terminal's colour depth as far as themes care.
type Mode int

const (
	// ModeAuto detects the depth from the environment (DetectMode).
	ModeAuto Mode = iota
	// ModeTrueColor writes 24-bit colours (38;2;r;g;b).
	ModeTrueColor
	// Mode256 maps colours to the nearest xterm palette entry (38;5;n).
	Mode256
	// ModeNone styles nothing with colour (NO_COLOR).
	ModeNone
)

// DetectMode decides the colour depth from the environment: NO_COLOR (set
// and non-empty) turns colour off; PI_TRUE_COLOR=1/0 forces true colour on
// or off; then trueColor, the terminal.trueColor setting when it is not
// "auto" (nil), decides; otherwise COLORTERM=truecolor|24bit, a TERM ending
// in -direct, or a terminal known to draw 24-bit colour (kitty, ghostty,
// WezTerm, iTerm2, Windows Terminal, Alacritty, VS Code, Zed, JetBrains,
// Warp) give true colour, and anything else 256 colours. Inside tmux and
// screen only the COLORTERM/TERM hints count, since the outer terminal is
// unknown. getenv is os.Getenv in production.
func DetectMode(getenv func(string) string, trueColor *bool) Mode {
	if getenv("NO_COLOR") != "" {
		return ModeNone
	}
	switch getenv("PI_TRUE_COLOR") {
	case "1":
		return ModeTrueColor
	case "0":
		return Mode256
	}
	if trueColor != nil {
		if *trueColor {
			return ModeTrueColor
		}
		return Mode256
	}
	if detectTrueColor(getenv) {
		return ModeTrueColor
	}
	return Mode256
}

func detectTrueColor(getenv func(string) string) bool {
	term := strings.ToLower(getenv("TERM"))
	colorTerm := strings.ToLower(getenv("COLORTERM"))
	prog := strings.ToLower(getenv("TERM_PROGRAM"))
	hint := colorTerm == "truecolor" || colorTerm == "24bit" || strings.HasSuffix(term, "-direct")
	if hint {
		return true
	}
	if getenv("TMUX") != "" || strings.HasPrefix(term, "tmux") || strings.HasPrefix(term, "screen") {
		return false
	}
	switch {
	case prog == "rex", getenv("KITTY_WINDOW_ID") != "", prog == "kitty",
		prog == "ghostty", strings.Contains(term, "ghostty"), getenv("GHOSTTY_RESOURCES_DIR") != "",
		getenv("WEZTERM_PANE") != "", prog == "wezterm",
		prog == "warpterminal", getenv("WARP_SESSION_ID") != "", getenv("WARP_TERMINAL_SESSION_UUID") != "",
		getenv("ITERM_SESSION_ID") != "", prog == "iterm.app",
		getenv("WT_SESSION") != "",
		prog == "alacritty", strings.HasPrefix(term, "alacritty"), getenv("ALACRITTY_WINDOW_ID") != "",
		prog == "vscode", prog == "zed",
		strings.ToLower(getenv("TERMINAL_EMULATOR")) == "jetbrains-jediterm":
		return true
	}
	return false
}
