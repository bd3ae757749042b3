// Package theme loads pi's colour themes (the built-in dark and light
// themes, the terminal-derived system theme, and JSON themes from disk)
// and turns a theme's colour tokens ("accent", "toolSuccessBg", "mdCode",
// …) into SGR escape sequences for the terminal's colour depth.
package theme
