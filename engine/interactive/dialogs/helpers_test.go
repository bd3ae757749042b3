package dialogs

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/tui"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// key builds the Key event of a spec in pi's syntax; a single printable
// character also carries its Text, as the decoder reports it.
func key(spec string) tui.Key {
	s, err := tui.ParseKey(spec)
	if err != nil {
		panic(err)
	}
	k := tui.Key{Code: s.Code, Mod: s.Mod}
	if s.Mod == 0 && len([]rune(s.Code)) == 1 {
		k.Text = s.Code
	}
	if s.Mod == tui.ModShift && len([]rune(s.Code)) == 1 {
		k.Text = strings.ToUpper(s.Code)
	}
	if s.Code == "space" && s.Mod == 0 {
		k.Text = " "
	}
	return k
}

// typeText sends each character of s as a key.
func typeText(h tui.InputHandler, s string) {
	for _, r := range s {
		c := string(r)
		k := tui.Key{Code: strings.ToLower(c), Text: c}
		if c == " " {
			k.Code = "space"
		}
		h.HandleKey(k)
	}
}

func press(h tui.InputHandler, specs ...string) {
	for _, s := range specs {
		h.HandleKey(key(s))
	}
}

// golden renders c at 40, 80 and 120 columns, checks that no row is wider
// than its width, and compares the rows (escapes stripped, the drawn
// cursor shown as ▮) with testdata/<name>.golden.
func golden(t *testing.T, name string, c tui.Component) {
	t.Helper()
	var b strings.Builder
	for _, w := range []int{40, 80, 120} {
		rows := c.Render(w)
		fmt.Fprintf(&b, "=== width %d\n", w)
		for i, r := range rows {
			if got := tui.Width(r); got > w {
				t.Errorf("%s: width %d row %d is %d cells wide: %q", name, w, i, got, r)
			}
			r = strings.ReplaceAll(r, "\x1b[7m", "▮")
			b.WriteString(strings.TrimRight(tui.Strip(r), " ") + "\n")
		}
	}
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != b.String() {
		t.Errorf("%s differs from %s:\n%s", name, path, b.String())
	}
}

// rowsText renders at width w and joins the stripped rows.
func rowsText(c tui.Component, w int) string {
	var b strings.Builder
	for _, r := range c.Render(w) {
		b.WriteString(strings.TrimRight(tui.Strip(r), " ") + "\n")
	}
	return b.String()
}
