package markdown

import (
	"strings"

	"github.com/pi-go/pi/engine/tui/highlight"
	"github.com/pi-go/pi/engine/tui/theme"
)

// Styles say how each Markdown element is painted. Every func field may be
// nil (no styling).
type Styles struct {
	Heading, Link, LinkURL, Code, CodeBlock, CodeBlockBorder func(string) string
	Quote, QuoteBorder, HR, ListBullet                       func(string) string
	Bold, Italic, Underline, Strike                          func(string) string
	// Text is the default style of plain text (nil: none), for example
	// italic thinkingText for thinking blocks. Headings and quotes use
	// their own styles instead.
	Text func(string) string
	// Highlight colours a fenced code block's body, one string per line;
	// nil paints every line with CodeBlock.
	Highlight func(lang, code string) []string
	// CodeBlockIndent indents code block bodies (the
	// markdown.codeBlockIndent setting); "" means the default, two spaces.
	CodeBlockIndent string
	// Hyperlinks wraps link text in OSC 8 hyperlinks and leaves the URL out
	// (for terminals that support them); otherwise a link whose text is not
	// its URL shows "text (url)".
	Hyperlinks bool
	// Transform rewrites the Markdown before it is parsed (extension
	// Markdown transformers, chained by the caller).
	Transform func(string) string
}

// StylesFromTheme paints Markdown with th's md* tokens and highlights code
// with its syntax* tokens.
func StylesFromTheme(th *theme.Theme) *Styles {
	fg := func(token string) func(string) string {
		return func(s string) string { return th.Fg(token, s) }
	}
	return &Styles{
		Heading:         fg("mdHeading"),
		Link:            fg("mdLink"),
		LinkURL:         fg("mdLinkUrl"),
		Code:            fg("mdCode"),
		CodeBlock:       fg("mdCodeBlock"),
		CodeBlockBorder: fg("mdCodeBlockBorder"),
		Quote:           fg("mdQuote"),
		QuoteBorder:     fg("mdQuoteBorder"),
		HR:              fg("mdHr"),
		ListBullet:      fg("mdListBullet"),
		Bold:            theme.Bold,
		Italic:          theme.Italic,
		Underline:       theme.Underline,
		Strike:          theme.Strike,
		Highlight: func(lang, code string) []string {
			return highlight.Lines(lang, code, th)
		},
	}
}

// DetectHyperlinks reports whether the terminal is known to show OSC 8
// hyperlinks: PI_HYPERLINKS=1/0 decides; tmux and screen are assumed not to
// forward them; kitty, Ghostty, WezTerm, Warp, iTerm2, Windows Terminal,
// Alacritty, VS Code and Zed show them; unknown terminals do not (the link
// would vanish into its text there).
func DetectHyperlinks(getenv func(string) string) bool {
	switch getenv("PI_HYPERLINKS") {
	case "1":
		return true
	case "0":
		return false
	}
	term := strings.ToLower(getenv("TERM"))
	prog := strings.ToLower(getenv("TERM_PROGRAM"))
	if getenv("TMUX") != "" || strings.HasPrefix(term, "tmux") || strings.HasPrefix(term, "screen") {
		return false
	}
	switch {
	case prog == "herdr", prog == "rex", getenv("KITTY_WINDOW_ID") != "", prog == "kitty",
		prog == "ghostty", strings.Contains(term, "ghostty"), getenv("GHOSTTY_RESOURCES_DIR") != "",
		getenv("WEZTERM_PANE") != "", prog == "wezterm",
		prog == "warpterminal", getenv("WARP_SESSION_ID") != "", getenv("WARP_TERMINAL_SESSION_UUID") != "",
		getenv("ITERM_SESSION_ID") != "", prog == "iterm.app", getenv("WT_SESSION") != "",
		prog == "alacritty", strings.HasPrefix(term, "alacritty"), getenv("ALACRITTY_WINDOW_ID") != "",
		prog == "vscode", prog == "zed":
		return true
	}
	return false
}

func apply(f func(string) string, s string) string {
	if f == nil {
		return s
	}
	return f(s)
}

// prefixOf is the escape sequence f puts before its text, found by styling
// a sentinel: it re-opens f's style after an inner style closed its own.
func prefixOf(f func(string) string) string {
	if f == nil {
		return ""
	}
	const sentinel = "\x00"
	s := f(sentinel)
	if i := strings.Index(s, sentinel); i >= 0 {
		return s[:i]
	}
	return ""
}
