package interactive

import (
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/tui"
)

// The header starts with the two-row logo carrying the version and the
// first hint line, as the reference's; without it (Apple Terminal) the
// wordmark line comes first and the hints below it.
func TestHeaderLogo(t *testing.T) {
	t.Parallel()
	keys := func(string) string { return "ctrl+o" }
	for _, logo := range []bool{true, false} {
		h := &header{v: testView(), version: "9.9.9", keys: keys, logo: logo}
		rows := h.Render(100)
		first, second := tui.Strip(rows[1]), tui.Strip(rows[2])
		if logo && (first != " ▀▀█  v9.9.9" || !strings.HasPrefix(second, " █▀ █ ctrl+o interrupt")) {
			t.Fatalf("logo rows %q %q", first, second)
		}
		if !logo && (first != " Pi v9.9.9" || !strings.HasPrefix(second, " ctrl+o interrupt")) {
			t.Fatalf("wordmark rows %q %q", first, second)
		}
		if last := tui.Strip(rows[len(rows)-2]); last != " "+onboarding || rows[len(rows)-1] != "" {
			t.Fatalf("last row %q", last)
		}
	}
}
