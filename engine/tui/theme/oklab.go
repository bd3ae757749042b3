package theme

import "math"

// The OKLab, OKLCH and OKHSL conversions follow Björn Ottosson's published
// definitions (https://bottosson.github.io/posts/colorpicker/): OKHSL is
// OKLab with a lightness "toe" and a saturation relative to the sRGB gamut
// at each hue and lightness. Theme files use it so that equal saturation
// looks equally colourful across hues.

// Constants of the lightness toe.
const (
	toeK1 = 0.206
	toeK2 = 0.03
	toeK3 = (1 + toeK1) / (1 + toeK2)
)

// toe maps OKLab lightness to OKHSL lightness.
func toe(x float64) float64 {
	return 0.5 * (toeK3*x - toeK1 + math.Sqrt((toeK3*x-toeK1)*(toeK3*x-toeK1)+4*toeK2*toeK3*x))
}

// toeInv maps OKHSL lightness to OKLab lightness.
func toeInv(x float64) float64 { return (x*x + toeK1*x) / (toeK3 * (x + toeK2)) }

func srgbToLinear(v float64) float64 {
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

func linearToSrgb(v float64) float64 {
	if v > 0.0031308 {
		return 1.055*math.Pow(v, 1/2.4) - 0.055
	}
	return 12.92 * v
}

// oklabToLinear converts OKLab to linear sRGB (channels may leave 0..1).
func oklabToLinear(L, a, b float64) (float64, float64, float64) {
	l := L + 0.3963377774*a + 0.2158037573*b
	m := L - 0.1055613458*a - 0.0638541728*b
	s := L - 0.0894841775*a - 1.2914855480*b
	l, m, s = l*l*l, m*m*m, s*s*s
	return 4.0767416621*l - 3.3077115913*m + 0.2309699292*s,
		-1.2684380046*l + 2.6097574011*m - 0.3413193965*s,
		-0.0041960863*l - 0.7034186147*m + 1.7076147010*s
}

// linearToOklab converts linear sRGB to OKLab.
func linearToOklab(r, g, b float64) (float64, float64, float64) {
	l := math.Cbrt(0.4122214708*r + 0.5363325363*g + 0.0514459929*b)
	m := math.Cbrt(0.2119034982*r + 0.6806995451*g + 0.1073969566*b)
	s := math.Cbrt(0.0883024619*r + 0.2817188376*g + 0.6299787005*b)
	return 0.2104542553*l + 0.7936177850*m - 0.0040720468*s,
		1.9779984951*l - 2.4285922050*m + 0.4505937099*s,
		0.0259040371*l + 0.7827717662*m - 0.8086757660*s
}

// rgbToOklab converts 0-255 sRGB channels to OKLab.
func rgbToOklab(c RGB) (float64, float64, float64) {
	return linearToOklab(srgbToLinear(c.R/255), srgbToLinear(c.G/255), srgbToLinear(c.B/255))
}

// linearToRGB encodes linear sRGB as rounded 0-255 channels, clipping
// out-of-gamut values.
func linearToRGB(r, g, b float64) RGB {
	ch := func(v float64) float64 {
		return math.Round(math.Min(1, math.Max(0, linearToSrgb(v))) * 255)
	}
	return RGB{ch(r), ch(g), ch(b)}
}

// maxSaturation is the largest saturation S = C/L at which the hue (a, b),
// a unit vector, stays inside sRGB: a polynomial guess refined by one
// Halley step.
func maxSaturation(a, b float64) float64 {
	var k0, k1, k2, k3, k4, wl, wm, ws float64
	switch {
	case -1.88170328*a-0.80936493*b > 1: // red is the first channel to clip
		k0, k1, k2, k3, k4 = 1.19086277, 1.76576728, 0.59662641, 0.75515197, 0.56771245
		wl, wm, ws = 4.0767416621, -3.3077115913, 0.2309699292
	case 1.81444104*a-1.19445276*b > 1: // green
		k0, k1, k2, k3, k4 = 0.73956515, -0.45954404, 0.08285427, 0.12541070, 0.14503204
		wl, wm, ws = -1.2684380046, 2.6097574011, -0.3413193965
	default: // blue
		k0, k1, k2, k3, k4 = 1.35733652, -0.00915799, -1.15130210, -0.50559606, 0.00692167
		wl, wm, ws = -0.0041960863, -0.7034186147, 1.7076147010
	}
	S := k0 + k1*a + k2*b + k3*a*a + k4*a*b
	kl := 0.3963377774*a + 0.2158037573*b
	km := -0.1055613458*a - 0.0638541728*b
	ks := -0.0894841775*a - 1.2914855480*b
	l_, m_, s_ := 1+S*kl, 1+S*km, 1+S*ks
	l, m, s := l_*l_*l_, m_*m_*m_, s_*s_*s_
	ldS, mdS, sdS := 3*kl*l_*l_, 3*km*m_*m_, 3*ks*s_*s_
	ldS2, mdS2, sdS2 := 6*kl*kl*l_, 6*km*km*m_, 6*ks*ks*s_
	f := wl*l + wm*m + ws*s
	f1 := wl*ldS + wm*mdS + ws*sdS
	f2 := wl*ldS2 + wm*mdS2 + ws*sdS2
	return S - f*f1/(f1*f1-0.5*f*f2)
}

// cusp is the lightness and chroma of the most saturated colour of a hue.
func cusp(a, b float64) (L, C float64) {
	S := maxSaturation(a, b)
	r, g, bl := oklabToLinear(1, S*a, S*b)
	L = math.Cbrt(1 / math.Max(math.Max(r, g), bl))
	return L, L * S
}

// gamutIntersection finds t where the line from (L0, 0) to (L1, C1) leaves
// the sRGB gamut of the hue (a, b).
func gamutIntersection(a, b, L1, C1, L0, cuspL, cuspC float64) float64 {
	if (L1-L0)*cuspC-(cuspL-L0)*C1 <= 0 {
		return cuspC * L0 / (C1*cuspL + cuspC*(L0-L1))
	}
	t := cuspC * (L0 - 1) / (C1*(cuspL-1) + cuspC*(L0-L1))
	dL, dC := L1-L0, C1
	kl := 0.3963377774*a + 0.2158037573*b
	km := -0.1055613458*a - 0.0638541728*b
	ks := -0.0894841775*a - 1.2914855480*b
	ldt, mdt, sdt := dL+dC*kl, dL+dC*km, dL+dC*ks
	L := L0*(1-t) + t*L1
	C := t * C1
	l_, m_, s_ := L+C*kl, L+C*km, L+C*ks
	l, m, s := l_*l_*l_, m_*m_*m_, s_*s_*s_
	lt, mt, st := 3*ldt*l_*l_, 3*mdt*m_*m_, 3*sdt*s_*s_
	lt2, mt2, st2 := 6*ldt*ldt*l_, 6*mdt*mdt*m_, 6*sdt*sdt*s_
	step := func(w1, w2, w3 float64) float64 {
		v := w1*l + w2*m + w3*s - 1
		v1 := w1*lt + w2*mt + w3*st
		v2 := w1*lt2 + w2*mt2 + w3*st2
		u := v1 / (v1*v1 - 0.5*v*v2)
		if u >= 0 {
			return -v * u
		}
		return math.MaxFloat64
	}
	tr := step(4.0767416621, -3.3077115913, 0.2309699292)
	tg := step(-1.2684380046, 2.6097574011, -0.3413193965)
	tb := step(-0.0041960863, -0.7034186147, 1.7076147010)
	return t + math.Min(tr, math.Min(tg, tb))
}

// chromaStops returns the chroma at OKHSL saturation 0.8-ish (mid), the
// gamut's edge (max) and the low-saturation slope (c0) for lightness L and
// the unit hue vector (a, b).
func chromaStops(L, a, b float64) (c0, cMid, cMax float64) {
	cl, cc := cusp(a, b)
	cMax = gamutIntersection(a, b, L, 1, L, cl, cc)
	stMaxS, stMaxT := cc/cl, cc/(1-cl)
	k := cMax / math.Min(L*stMaxS, (1-L)*stMaxT)
	midS := 0.11516993 + 1/(7.44778970+4.15901240*b+
		a*(-2.19557347+1.75198401*b+
			a*(-2.13704948-10.02301043*b+
				a*(-4.24894561+5.38770819*b+4.69891013*a))))
	midT := 0.11239642 + 1/(1.61320320-0.68124379*b+
		a*(0.40370612+0.90148123*b+
			a*(-0.27087943+0.61223990*b+
				a*(0.00299215-0.45399568*b-0.14661872*a))))
	ca, cb := L*midS, (1-L)*midT
	cMid = 0.9 * k * math.Sqrt(math.Sqrt(1/(1/(ca*ca*ca*ca)+1/(cb*cb*cb*cb))))
	ca, cb = L*0.4, (1-L)*0.8
	c0 = math.Sqrt(1 / (1/(ca*ca) + 1/(cb*cb)))
	return c0, cMid, cMax
}

// OKHSLToRGB converts an OKHSL colour (hue in degrees, saturation and
// lightness 0-1) to rounded sRGB channels.
func OKHSLToRGB(h, s, l float64) RGB {
	L := toeInv(l)
	var A, B float64
	if L > 0 && L < 1 && s > 0 {
		rad := 2 * math.Pi * math.Mod(math.Mod(h, 360)+360, 360) / 360
		a, b := math.Cos(rad), math.Sin(rad)
		c0, cMid, cMax := chromaStops(L, a, b)
		var C float64
		if s < 0.8 {
			t := 1.25 * s
			k1 := 0.8 * c0
			C = t * k1 / (1 - (1-k1/cMid)*t)
		} else {
			t := 5 * (s - 0.8)
			k1 := 0.2 * cMid * cMid * 1.25 * 1.25 / c0
			C = cMid + t*k1/(1-(1-k1/(cMax-cMid))*t)
		}
		A, B = C*a, C*b
	}
	return linearToRGB(oklabToLinear(L, A, B))
}

// RGBToOKHSL converts sRGB channels to OKHSL (hue in degrees, 0 for greys).
func RGBToOKHSL(c RGB) (h, s, l float64) {
	L, a, b := rgbToOklab(c)
	C := math.Hypot(a, b)
	l = toe(L)
	if C < 1e-6 || l <= 0 || l >= 1 {
		return 0, 0, l
	}
	h = math.Mod(math.Atan2(b, a)*180/math.Pi+360, 360)
	c0, cMid, cMax := chromaStops(L, a/C, b/C)
	if C < cMid {
		k1 := 0.8 * c0
		s = 0.8 * (C / (k1 + (1-k1/cMid)*C))
	} else {
		k1 := 0.2 * cMid * cMid * 1.25 * 1.25 / c0
		off := C - cMid
		s = 0.8 + 0.2*(off/(k1+(1-k1/(cMax-cMid))*off))
	}
	return h, math.Min(1, math.Max(0, s)), l
}

// OKLCHToRGB converts OKLCH (lightness 0-1, chroma, hue in degrees) to sRGB,
// reducing chroma at a fixed hue until the colour fits the gamut.
func OKLCHToRGB(l, c, h float64) RGB {
	rad := h * math.Pi / 180
	cos, sin := math.Cos(rad), math.Sin(rad)
	in := func(r, g, b float64) bool {
		const eps = 1e-7
		return r >= -eps && r <= 1+eps && g >= -eps && g <= 1+eps && b >= -eps && b <= 1+eps
	}
	r, g, b := oklabToLinear(l, c*cos, c*sin)
	if in(r, g, b) {
		return linearToRGB(r, g, b)
	}
	// The achromatic colour always fits, so it is the answer when no
	// bisection step does (oklch(100% 0.3 150) is white).
	r, g, b = oklabToLinear(l, 0, 0)
	lo, hi := 0.0, c
	for range 20 {
		mid := (lo + hi) / 2
		cr, cg, cb := oklabToLinear(l, mid*cos, mid*sin)
		if in(cr, cg, cb) {
			lo, r, g, b = mid, cr, cg, cb
		} else {
			hi = mid
		}
	}
	return linearToRGB(r, g, b)
}

// RGBToOKLCH converts sRGB channels to OKLCH (hue in degrees).
func RGBToOKLCH(c RGB) (l, ch, h float64) {
	L, a, b := rgbToOklab(c)
	return L, math.Hypot(a, b), math.Mod(math.Atan2(b, a)*180/math.Pi+360, 360)
}
