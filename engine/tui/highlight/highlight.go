package highlight

import (
	"strings"

	"github.com/pi-go/pi/engine/tui/theme"
)

// Lines highlights code in lang with th's syntax* tokens, one string per
// line.
func Lines(lang, code string, th *theme.Theme) []string {
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		lines[i] = th.Fg("mdCodeBlock", l)
	}
	return lines
}
