package theme

// deriveSystem builds the system theme from a reported background. Not
// derived yet: nil makes System use the palette-index fallback.
func deriveSystem(tc *TerminalColors, mode Mode) *Theme { return nil }
