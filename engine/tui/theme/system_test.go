package theme

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func hexRGB(t *testing.T, h string) RGB {
	c, err := ParseColor(h)
	if err != nil {
		t.Fatal(err)
	}
	return c.RGB
}

// nearHex allows one step per channel: floating-point rounding of a
// channel that lands on .5.
func nearHex(t *testing.T, a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	x, y := hexRGB(t, a), hexRGB(t, b)
	d := func(p, q float64) bool { return p-q <= 1 && q-p <= 1 }
	return d(x.R, y.R) && d(x.G, y.G) && d(x.B, y.B)
}

// TestSystemThemeMatchesReference derives the system theme for several
// terminals (a palette-reporting dark theme, bare black and white, a
// mid-grey that needs relaxed levels, a light theme with a low-contrast
// foreground) and compares every token with the reference's derivation
// (testdata/ref-system.txt: terminal, token, hex or "-" for the
// terminal's default colour), within one step per channel.
func TestSystemThemeMatchesReference(t *testing.T) {
	t.Parallel()
	frappe := []string{"#51576d", "#e78284", "#a6d189", "#e5c890", "#8caaee", "#f4b8e4", "#81c8be", "#b5bfe2", "#626880", "#e78284", "#a6d189", "#e5c890", "#8caaee", "#f4b8e4", "#81c8be", "#a5adce"}
	rgb := func(h string) *RGB { c := hexRGB(t, h); return &c }
	var pal []RGB
	for _, h := range frappe {
		pal = append(pal, hexRGB(t, h))
	}
	inputs := map[string]*TerminalColors{
		"frappe":     {Background: rgb("#303446"), Foreground: rgb("#c6d0f5"), Palette: pal},
		"black":      {Background: rgb("#000000")},
		"white":      {Background: rgb("#ffffff"), Foreground: rgb("#000000")},
		"grey":       {Background: rgb("#808080"), Foreground: rgb("#ffffff")},
		"solarlight": {Background: rgb("#fdf6e3"), Foreground: rgb("#657b83")},
	}
	got := map[string]map[string]string{}
	apps := map[string]string{}
	for n, tc := range inputs {
		got[n], apps[n] = deriveColors(tc)
	}
	f, err := os.Open(filepath.Join("testdata", "ref-system.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		term, tok, want := fs[0], fs[1], fs[2]
		if tok == "appearance" {
			if apps[term] != want {
				t.Errorf("%s: appearance %s, want %s", term, apps[term], want)
			}
			continue
		}
		if want == "-" {
			want = ""
		}
		n++
		if g := got[term][tok]; g != want && !nearHex(t, g, want) {
			t.Errorf("%s.%s: %q, want %q", term, tok, g, want)
		}
	}
	if n != 5*len(tokens) {
		t.Errorf("%d reference values", n)
	}
	// The derived theme is what System returns for a reported background.
	th := System(inputs["frappe"], "", ModeTrueColor, nil)
	if th.Appearance != "dark" || th.Hex("accent") != got["frappe"]["accent"] {
		t.Errorf("System: %s %s", th.Appearance, th.Hex("accent"))
	}
}
