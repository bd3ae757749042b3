package slash

import "testing"

func TestOSC52(t *testing.T) {
	t.Parallel()
	if got := OSC52("hi ✓"); got != "\x1b]52;c;aGkg4pyT\x07" {
		t.Fatalf("%q", got)
	}
}
