package theme

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOKHSLKnownValues(t *testing.T) {
	t.Parallel()
	// Expected values are what the reference computes for the same inputs.
	cases := []struct {
		in, hex, ansi256 string
	}{
		{"okhsl(234 3% 89%)", "#dee0e1", "38;5;254"},
		{"okhsl(295 50% 67%)", "#a798d7", "38;5;140"},
		{"okhsl(233 41% 24%)", "#213b49", "38;5;23"},
		{"okhsl(20 99% 63%)", "#fe5462", "38;5;203"},
		{"okhsl(83 99% 47%)", "#8f6802", "38;5;94"},
		{"okhsl(0 0% 50%)", "#777777", "38;5;243"},
		{"okhsl(120 100% 100%)", "#ffffff", "38;5;231"},
		{"okhsl(120 100% 0%)", "#000000", "38;5;16"},
		{"okhsl(159 75% 46%)", "#337e58", "38;5;65"},
		{"OKHSL(159deg 0.75 0.46)", "#337e58", "38;5;65"},
		{"oklch(70% 0.1 200)", "#40b1b7", "38;5;73"},
		{"oklch(0.5 0.4 30)", "#bb0c00", "38;5;124"},
		{"oklch(100% 0.3 150)", "#ffffff", "38;5;231"},
		{"#abc", "#aabbcc", "38;5;146"},
		{"#102030", "#102030", "38;5;17"},
	}
	for _, c := range cases {
		col, err := ParseColor(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := col.RGB.Hex(); got != c.hex {
			t.Errorf("%s: hex %s, want %s", c.in, got, c.hex)
		}
		if got := col.sgr(Mode256, false); got != c.ansi256 {
			t.Errorf("%s: 256 %s, want %s", c.in, got, c.ansi256)
		}
	}
}

func TestRGBToOKHSL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in      RGB
		h, s, l float64
	}{
		{RGB{33, 59, 73}, 233.2731, 0.4134, 0.2391},
		{RGB{255, 0, 0}, 29.2339, 1, 0.5681},
		{RGB{128, 128, 128}, 0, 0, 0.5357},
		{RGB{10, 200, 30}, 143.1646, 0.9976, 0.6778},
	}
	near := func(a, b float64) bool { return a-b < 1e-3 && b-a < 1e-3 }
	for _, c := range cases {
		h, s, l := RGBToOKHSL(c.in)
		if !near(h, c.h) || !near(s, c.s) || !near(l, c.l) {
			t.Errorf("%v: got %.4f %.4f %.4f, want %.4f %.4f %.4f", c.in, h, s, l, c.h, c.s, c.l)
		}
		// Round trip through OKHSL stays on the same sRGB colour.
		if back := OKHSLToRGB(h, s, l); back != c.in {
			t.Errorf("%v: round trip %v", c.in, back)
		}
	}
}

func TestParseColorErrors(t *testing.T) {
	t.Parallel()
	for _, v := range []any{"#12", "#ggg", "okhsl(1 2)", "okhsl(10 120% 50%)", "oklch(2 0.1 10)", "red", 256.0, -1.0, 1.5, true} {
		if _, err := ParseColor(v); err == nil {
			t.Errorf("%v: no error", v)
		}
	}
	c, err := ParseColor(100.0)
	if err != nil || !c.Indexed || c.Index != 100 || c.RGB.Hex() != "#878700" {
		t.Errorf("index 100: %+v %v", c, err)
	}
}

// TestBuiltinsMatchReference checks every token of the built-in themes
// against the reference's resolved colours (testdata/ref-*.txt: token, hex,
// 256-colour SGR).
func TestBuiltinsMatchReference(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"dark", "light"} {
		tc, err := LoadWith(name, Options{Mode: ModeTrueColor})
		if err != nil {
			t.Fatal(err)
		}
		t256, _ := LoadWith(name, Options{Mode: Mode256})
		f, err := os.Open(filepath.Join("testdata", "ref-"+name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		n := 0
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			tok, hex, a256 := fs[0], fs[1], fs[2]
			n++
			if got := tc.Hex(tok); got != hex {
				t.Errorf("%s.%s: %s, want %s", name, tok, got, hex)
			}
			m := t256.fg
			if IsBackground(tok) {
				m = t256.bg
			}
			if m[tok] != a256 {
				t.Errorf("%s.%s 256: %s, want %s", name, tok, m[tok], a256)
			}
		}
		f.Close()
		if n != len(tokens) {
			t.Errorf("%s: %d reference tokens, we have %d", name, n, len(tokens))
		}
		if tc.Appearance != name {
			t.Errorf("appearance %s", tc.Appearance)
		}
	}
	d, _ := LoadWith("dark", Options{Mode: ModeTrueColor})
	if got := d.Bg("userMessageBg", "x"); got != "\x1b[48;2;33;59;73mx\x1b[49m" {
		t.Errorf("userMessageBg: %q", got)
	}
	if got := d.Fg("accent", "x"); got != "\x1b[38;2;167;152;215mx\x1b[39m" {
		t.Errorf("accent: %q", got)
	}
	if e := d.Export(); e.PageBg == "" || !strings.HasPrefix(e.PageBg, "#") {
		t.Errorf("export: %+v", e)
	}
}

func TestDetectMode(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	cases := []struct {
		env  map[string]string
		opt  *bool
		want Mode
	}{
		{map[string]string{}, nil, Mode256},
		{map[string]string{"COLORTERM": "truecolor"}, nil, ModeTrueColor},
		{map[string]string{"COLORTERM": "24bit"}, nil, ModeTrueColor},
		{map[string]string{"TERM": "xterm-direct"}, nil, ModeTrueColor},
		{map[string]string{"TERM_PROGRAM": "ghostty"}, nil, ModeTrueColor},
		{map[string]string{"TMUX": "x", "TERM_PROGRAM": "ghostty"}, nil, Mode256},
		{map[string]string{"COLORTERM": "truecolor"}, &no, Mode256},
		{map[string]string{}, &yes, ModeTrueColor},
		{map[string]string{"PI_TRUE_COLOR": "1"}, &no, ModeTrueColor},
		{map[string]string{"PI_TRUE_COLOR": "0", "COLORTERM": "truecolor"}, nil, Mode256},
		{map[string]string{"NO_COLOR": "1", "COLORTERM": "truecolor"}, nil, ModeNone},
	}
	for i, c := range cases {
		if got := DetectMode(func(k string) string { return c.env[k] }, c.opt); got != c.want {
			t.Errorf("%d %v: %v, want %v", i, c.env, got, c.want)
		}
	}
}

func TestNoColorStylesNothing(t *testing.T) {
	t.Parallel()
	th, err := LoadWith("dark", Options{Getenv: func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := th.Fg("accent", "x") + th.Bg("toolErrorBg", "y"); got != "xy" {
		t.Errorf("NO_COLOR styled: %q", got)
	}
	var nilTheme *Theme
	if nilTheme.Fg("accent", "x") != "x" {
		t.Error("nil theme styled")
	}
}

func writeTheme(t *testing.T, dir, file, body string) string {
	t.Helper()
	p := filepath.Join(dir, file)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// customBody is a valid theme with every required token set to one var.
func customBody(name string, extra string) string {
	var b strings.Builder
	b.WriteString(`{"name":"` + name + `","vars":{"c":"#336699","bgc":22},"colors":{`)
	first := true
	for _, info := range tokens {
		if info.fallback != "" {
			continue
		}
		if !first {
			b.WriteString(",")
		}
		first = false
		v := `"c"`
		if info.background {
			v = `"bgc"`
		}
		if info.name == "text" {
			v = `""`
		}
		b.WriteString(`"` + info.name + `":` + v)
	}
	b.WriteString("}" + extra + "}")
	return b.String()
}

func TestLoadCustomThemes(t *testing.T) {
	t.Parallel()
	agent, project := t.TempDir(), t.TempDir()
	writeTheme(t, agent, "ocean.json", customBody("ocean", `,"export":{"pageBg":"okhsl(262 14% 16%)","cardBg":"oklch(50% 0.1 20)","infoBg":"c"}`))
	writeTheme(t, project, "ocean.json", customBody("ocean-project", ""))
	writeTheme(t, project, "renamed.json", customBody("sunset", ""))
	writeTheme(t, project, "broken.json", `{"name":"broken","colors":{}}`)
	writeTheme(t, project, "dark.json", customBody("dark", ""))
	dirs := []string{agent, project}

	th, err := LoadWith("ocean", Options{Dirs: dirs, Mode: ModeTrueColor})
	if err != nil {
		t.Fatal(err)
	}
	if th.Name != "ocean" || th.Path != filepath.Join(agent, "ocean.json") {
		t.Errorf("loaded %s from %s", th.Name, th.Path)
	}
	if got := th.Fg("accent", "x"); got != "\x1b[38;2;51;102;153mx\x1b[39m" {
		t.Errorf("var colour: %q", got)
	}
	if got := th.Bg("toolErrorBg", "x"); got != "\x1b[48;5;22mx\x1b[49m" {
		t.Errorf("index colour: %q", got)
	}
	if got := th.Fg("text", "x"); got != "\x1b[39mx\x1b[39m" {
		t.Errorf("terminal default: %q", got)
	}
	// Optional tokens take their fallback.
	if th.fg["thinkingMax"] != th.fg["thinkingXhigh"] || th.bg["searchMatchBg"] != th.bg["selectedBg"] {
		t.Error("fallbacks not applied")
	}
	e := th.Export()
	if e.PageBg != "#2a2535" && !strings.HasPrefix(e.PageBg, "#") || e.CardBg != "oklch(50% 0.1 20)" || e.InfoBg != "#336699" {
		t.Errorf("export: %+v", e)
	}
	if th.Appearance != "dark" {
		t.Errorf("detected appearance %s", th.Appearance)
	}

	if _, err := LoadWith("sunset", Options{Dirs: dirs}); err != nil {
		t.Errorf("by name field: %v", err)
	}
	if _, err := LoadWith("nope", Options{Dirs: dirs}); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing: %v", err)
	}
	_, err = LoadWith("broken", Options{Dirs: dirs})
	if err == nil || !strings.Contains(err.Error(), "broken.json") || !strings.Contains(err.Error(), "accent") {
		t.Errorf("broken: %v", err)
	}
	// A custom file named like a built-in does not shadow it.
	if d, _ := LoadWith("dark", Options{Dirs: dirs}); d.Path != "" {
		t.Error("custom dark shadowed the built-in")
	}

	got := strings.Join(Names(dirs), ",")
	if got != "system,dark,light,ocean,ocean-project,sunset" {
		t.Errorf("names: %s", got)
	}
}

func TestValidationErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		body, want string
	}{
		{`{"name":"a/b","colors":{}}`, `cannot contain "/"`},
		{`{"name":"x","colors":{"accent":"#fff"}}`, "missing required color tokens: border"},
		{customBody("x", `,"bogus":1`), `unknown property "bogus"`},
		{strings.Replace(customBody("x", ""), `"accent":"c"`, `"accent":"c","nope":"c"`, 1), "unknown color tokens: nope"},
		{strings.Replace(customBody("x", ""), `"accent":"c"`, `"accent":"missingVar"`, 1), "colors.accent: variable reference not found: missingVar"},
		{strings.Replace(customBody("x", ""), `"accent":"c"`, `"accent":"okhsl(1 2 3 4)"`, 1), "colors.accent: invalid color value"},
		{strings.Replace(customBody("x", ""), `"accent":"c"`, `"accent":300`, 1), "colors.accent: ANSI color index"},
		{strings.Replace(customBody("x", ""), `"vars":{"c":"#336699"`, `"vars":{"c":"d","d":"c"`, 1), "circular variable reference"},
		{customBody("x", `,"export":{"pageColor":"#fff"}`), `unknown export color "pageColor"`},
		{customBody("x", `,"appearance":"dim"`), `appearance must be`},
		{`{"name":"x","colors":`, "failed to parse theme"},
	}
	for i, c := range cases {
		p := writeTheme(t, dir, "t.json", c.body)
		_, err := LoadFile(p, ModeTrueColor)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%d: %v, want %q and the path", i, err, c.want)
		}
	}
}

func TestPairsAndSystem(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	white, black := RGB{255, 255, 255}, RGB{0, 0, 0}
	cases := []struct {
		o    Options
		want string
	}{
		{Options{}, "dark"},
		{Options{Scheme: "light"}, "light"},
		{Options{Terminal: &TerminalColors{Background: &white, Foreground: &black}}, "light"},
		{Options{Terminal: &TerminalColors{Background: &black}}, "dark"},
		{Options{Getenv: env(map[string]string{"COLORFGBG": "0;15"})}, "light"},
		{Options{Getenv: env(map[string]string{"COLORFGBG": "15;default;0"})}, "dark"},
	}
	for i, c := range cases {
		th, err := LoadWith("light/dark", c.o)
		if err != nil || th.Name != c.want {
			t.Errorf("%d: %v %v, want %s", i, th, err, c.want)
		}
	}
	if _, err := LoadWith("a/b/c", Options{}); err == nil {
		t.Error("bad pair accepted")
	}
	// Without terminal colours the system theme uses palette indices,
	// faint neutrals and no panel backgrounds.
	sys, err := LoadWith("system", Options{Mode: ModeTrueColor})
	if err != nil {
		t.Fatal(err)
	}
	if got := sys.Fg("accent", "x"); got != "\x1b[38;5;5mx\x1b[39m" {
		t.Errorf("accent: %q", got)
	}
	if got := sys.Fg("muted", "x"); got != "\x1b[39m\x1b[2mx\x1b[22;39m" {
		t.Errorf("muted: %q", got)
	}
	if got := sys.Fg("text", "x"); got != "\x1b[39mx\x1b[39m" {
		t.Errorf("text: %q", got)
	}
	if got := sys.Bg("toolSuccessBg", "x"); got != "\x1b[49mx\x1b[49m" {
		t.Errorf("panel: %q", got)
	}
	if got := sys.Fg("syntaxString", "x"); got != "\x1b[38;5;2mx\x1b[39m" {
		t.Errorf("syntaxString slot: %q", got)
	}
	if e := sys.Export(); e != (ExportColors{}) {
		t.Errorf("system export: %+v", e)
	}
}
