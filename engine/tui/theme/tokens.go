package theme

// tokenInfo describes one colour token of pi's theme format: whether it is
// a background colour, and the token it falls back to when a theme file
// omits it (only the optional tokens have one).
type tokenInfo struct {
	name       string
	background bool
	fallback   string
}

// tokens lists every colour token in the order theme files and the
// reference's schema use. It is an array of plain values so it costs
// nothing at start.
var tokens = [...]tokenInfo{
	{name: "accent"},
	{name: "border"},
	{name: "borderAccent"},
	{name: "borderMuted"},
	{name: "success"},
	{name: "error"},
	{name: "warning"},
	{name: "muted"},
	{name: "dim"},
	{name: "text"},
	{name: "thinkingText"},
	{name: "scrollbarTrack", fallback: "muted"},
	{name: "scrollbarThumb", fallback: "text"},
	{name: "selectedBg", background: true},
	{name: "searchMatchBg", background: true, fallback: "selectedBg"},
	{name: "searchMatchText", fallback: "text"},
	{name: "userMessageBg", background: true},
	{name: "userMessageText"},
	{name: "customMessageBg", background: true},
	{name: "customMessageText"},
	{name: "customMessageLabel"},
	{name: "toolPendingBg", background: true},
	{name: "toolSuccessBg", background: true},
	{name: "toolErrorBg", background: true},
	{name: "toolTitle"},
	{name: "toolOutput"},
	{name: "mdHeading"},
	{name: "mdLink"},
	{name: "mdLinkUrl"},
	{name: "mdCode"},
	{name: "mdCodeBlock"},
	{name: "mdCodeBlockBorder"},
	{name: "mdQuote"},
	{name: "mdQuoteBorder"},
	{name: "mdHr"},
	{name: "mdListBullet"},
	{name: "toolDiffAdded"},
	{name: "toolDiffRemoved"},
	{name: "toolDiffContext"},
	{name: "syntaxComment"},
	{name: "syntaxKeyword"},
	{name: "syntaxFunction"},
	{name: "syntaxVariable"},
	{name: "syntaxString"},
	{name: "syntaxNumber"},
	{name: "syntaxType"},
	{name: "syntaxOperator"},
	{name: "syntaxPunctuation"},
	{name: "thinkingOff"},
	{name: "thinkingMinimal"},
	{name: "thinkingLow"},
	{name: "thinkingMedium"},
	{name: "thinkingHigh"},
	{name: "thinkingXhigh"},
	{name: "thinkingMax", fallback: "thinkingXhigh"},
	{name: "bashMode"},
}

func lookupToken(name string) (tokenInfo, bool) {
	for _, t := range tokens {
		if t.name == name {
			return t, true
		}
	}
	return tokenInfo{}, false
}

// Tokens returns every colour token name in the theme format's order.
func Tokens() []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = t.name
	}
	return out
}

// IsBackground reports whether token is a background token (…Bg).
func IsBackground(token string) bool {
	t, _ := lookupToken(token)
	return t.background
}
