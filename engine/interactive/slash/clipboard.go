package slash

import "encoding/base64"

// OSC52 is the escape sequence that asks the terminal to put text on the
// system clipboard (OSC 52, the "c" selection). Terminals that allow it
// need no helper program, and it works over SSH; inside tmux it needs
// tmux's set-clipboard option.
func OSC52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
}
