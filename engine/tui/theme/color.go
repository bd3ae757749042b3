package theme

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// RGB is an sRGB colour with 0-255 channels. Channels are floats because
// OKLCH colours keep their precision until they are written out.
type RGB struct{ R, G, B float64 }

// Hex is the colour as #rrggbb.
func (c RGB) Hex() string {
	ch := func(v float64) int { return int(math.Round(math.Min(255, math.Max(0, v)))) }
	return fmt.Sprintf("#%02x%02x%02x", ch(c.R), ch(c.G), ch(c.B))
}

// Color is one resolved theme colour: an sRGB value, or an index into the
// terminal's 256-colour palette (Indexed), which is written as 38;5;N in
// every colour mode so the terminal's own palette decides (indices 0-15
// follow the user's terminal theme).
type Color struct {
	RGB     RGB
	Index   int
	Indexed bool
}

// ParseColor reads one theme colour value: "#rgb", "#rrggbb",
// "oklch(L C H)" (L as 0-1 or a percentage), "okhsl(H S L)" (S and L as 0-1
// or percentages), or a palette index 0-255.
func ParseColor(v any) (Color, error) {
	switch x := v.(type) {
	case int:
		return indexColor(float64(x))
	case float64:
		return indexColor(x)
	case string:
		return parseColorString(x)
	}
	return Color{}, fmt.Errorf("invalid color value: %v", v)
}

func indexColor(f float64) (Color, error) {
	if f != math.Trunc(f) || f < 0 || f > 255 {
		return Color{}, fmt.Errorf("ANSI color index must be an integer from 0 to 255: %v", f)
	}
	return Color{Index: int(f), Indexed: true, RGB: indexedRGB(int(f))}, nil
}

func parseColorString(s string) (Color, error) {
	if strings.HasPrefix(s, "#") {
		d := s[1:]
		if len(d) == 3 {
			d = string([]byte{d[0], d[0], d[1], d[1], d[2], d[2]})
		}
		if len(d) == 6 {
			if n, err := strconv.ParseUint(d, 16, 32); err == nil {
				return Color{RGB: RGB{float64(n >> 16), float64(n >> 8 & 0xff), float64(n & 0xff)}}, nil
			}
		}
		return Color{}, fmt.Errorf("invalid color value: %s", s)
	}
	lower := strings.ToLower(s)
	for _, fn := range []string{"oklch", "okhsl"} {
		if !strings.HasPrefix(lower, fn+"(") || !strings.HasSuffix(lower, ")") {
			continue
		}
		args := strings.Fields(lower[len(fn)+1 : len(lower)-1])
		if len(args) != 3 {
			return Color{}, fmt.Errorf("invalid color value: %s", s)
		}
		// Which arguments may carry "%" or "deg" follows CSS: oklch(L% C H),
		// okhsl(H S% L%).
		pctOK := [3]bool{true, false, false}
		degOK := [3]bool{false, false, true}
		if fn == "okhsl" {
			pctOK = [3]bool{false, true, true}
			degOK = [3]bool{true, false, false}
		}
		var n [3]float64
		for i, a := range args {
			div := 1.0
			if pctOK[i] && strings.HasSuffix(a, "%") {
				a, div = a[:len(a)-1], 100
			} else if degOK[i] && strings.HasSuffix(a, "deg") {
				a = a[:len(a)-3]
			}
			f, err := strconv.ParseFloat(a, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return Color{}, fmt.Errorf("invalid color value: %s", s)
			}
			n[i] = f / div
		}
		if fn == "oklch" {
			if n[0] < 0 || n[0] > 1 {
				return Color{}, fmt.Errorf("invalid color value: %s: lightness must be between 0 and 1", s)
			}
			if n[1] < 0 {
				return Color{}, fmt.Errorf("invalid color value: %s: chroma must not be negative", s)
			}
			return Color{RGB: OKLCHToRGB(n[0], n[1], math.Mod(math.Mod(n[2], 360)+360, 360))}, nil
		}
		if n[1] < 0 || n[1] > 1 || n[2] < 0 || n[2] > 1 {
			return Color{}, fmt.Errorf("invalid color value: %s: saturation and lightness must be between 0 and 1", s)
		}
		return Color{RGB: OKHSLToRGB(n[0], n[1], n[2])}, nil
	}
	return Color{}, fmt.Errorf("invalid color value: %s", s)
}

// basic16 is xterm's default palette for indices 0-15 (what the index means
// when a 256-colour index has to be turned into a hex value, e.g. for HTML
// export; on screen the terminal's own palette applies).
var basic16 = [16][3]uint8{
	{0, 0, 0}, {128, 0, 0}, {0, 128, 0}, {128, 128, 0}, {0, 0, 128}, {128, 0, 128}, {0, 128, 128}, {192, 192, 192},
	{128, 128, 128}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {0, 0, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}

// cubeLevels are the channel values of xterm's 6×6×6 colour cube (16-231).
var cubeLevels = [6]float64{0, 95, 135, 175, 215, 255}

func indexedRGB(i int) RGB {
	switch {
	case i < 16:
		c := basic16[i]
		return RGB{float64(c[0]), float64(c[1]), float64(c[2])}
	case i < 232:
		i -= 16
		return RGB{cubeLevels[i/36], cubeLevels[i%36/6], cubeLevels[i%6]}
	default:
		g := float64(8 + (i-232)*10)
		return RGB{g, g, g}
	}
}

func nearest(levels []float64, v float64) int {
	best, bestD := 0, math.Inf(1)
	for i, l := range levels {
		if d := math.Abs(v - l); d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// weightedDistance weighs channels by their luma contribution.
func weightedDistance(a, b RGB) float64 {
	dr, dg, db := a.R-b.R, a.G-b.G, a.B-b.B
	return dr*dr*0.299 + dg*dg*0.587 + db*db*0.114
}

// Ansi256 maps an sRGB colour to the nearest entry of xterm's 256-colour
// palette: the nearest cube colour, or the nearest grey of the 24-step ramp
// when the colour is (almost) grey and the ramp is closer. Indices 0-15 are
// never chosen because their colours depend on the user's terminal theme.
func Ansi256(c RGB) int {
	ri, gi, bi := nearest(cubeLevels[:], c.R), nearest(cubeLevels[:], c.G), nearest(cubeLevels[:], c.B)
	cube := RGB{cubeLevels[ri], cubeLevels[gi], cubeLevels[bi]}
	cubeIndex := 16 + 36*ri + 6*gi + bi
	var greys [24]float64
	for i := range greys {
		greys[i] = float64(8 + i*10)
	}
	grey := math.Round(0.299*c.R + 0.587*c.G + 0.114*c.B)
	gi2 := nearest(greys[:], grey)
	gv := greys[gi2]
	spread := math.Max(c.R, math.Max(c.G, c.B)) - math.Min(c.R, math.Min(c.G, c.B))
	if spread < 10 && weightedDistance(c, RGB{gv, gv, gv}) < weightedDistance(c, cube) {
		return 232 + gi2
	}
	return cubeIndex
}

// sgr is the SGR parameter string of c for the foreground (38) or
// background (48) in mode m.
func (c Color) sgr(m Mode, background bool) string {
	base := "38"
	if background {
		base = "48"
	}
	if c.Indexed {
		return base + ";5;" + strconv.Itoa(c.Index)
	}
	if m == Mode256 {
		return base + ";5;" + strconv.Itoa(Ansi256(c.RGB))
	}
	r := func(v float64) string { return strconv.Itoa(int(math.Round(v))) }
	return base + ";2;" + r(c.RGB.R) + ";" + r(c.RGB.G) + ";" + r(c.RGB.B)
}

// SGR is the escape sequence that sets c as the foreground (or the
// background) in mode m, for colours that stay fixed across themes (the
// pi logo's); "" when colour is off.
func (c RGB) SGR(m Mode, background bool) string {
	if m == ModeNone {
		return ""
	}
	return "\x1b[" + Color{RGB: c}.sgr(m, background) + "m"
}
