package interactive

import (
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/tui/theme"
)

// TestBoxKeepsBackground checks that a reset inside a row does not end
// the box's background.
func TestBoxKeepsBackground(t *testing.T) {
	t.Parallel()
	v := &view{th: theme.Dark()}
	on := strings.TrimSuffix(v.th.Bg("customMessageBg", "x"), "x\x1b[49m")
	rows := box(v, 20, 1, 0, "customMessageBg", []string{"\x1b[1mbold\x1b[0m rest"})
	if !strings.Contains(rows[0], "\x1b[0m"+on) {
		t.Errorf("background not restored after the reset: %q", rows[0])
	}
}
