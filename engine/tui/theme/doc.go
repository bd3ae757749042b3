// Package theme loads pi's colour themes (the built-in dark and light
// themes, the terminal-derived system theme, and JSON themes from disk)
// and turns a theme's colour tokens ("accent", "toolSuccessBg", "mdCode",
// …) into SGR escape sequences for the terminal's colour depth.
//
// Built-in themes are embedded and parsed when asked for; nothing runs at
// package init. Load/LoadWith resolve a theme setting ("system", "dark",
// "light", a custom name found in the directories the caller passes, or a
// "light/dark" pair chosen by the terminal's appearance). The system theme
// is generated from the terminal's reported colours (TerminalColors, from
// OSC 10/11/4 replies) or, when it did not answer, from ANSI palette
// indices that the terminal draws in its own theme. DetectMode picks true
// colour, 256 colours (nearest xterm palette entry) or none (NO_COLOR).
package theme
