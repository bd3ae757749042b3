package dialogs

import (
	"maps"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
)

type fakeSettings struct {
	vals   map[string]any
	writes []string
}

func (f *fakeSettings) env() PiSettingsEnv {
	return PiSettingsEnv{
		Get: func(k string) any { return f.vals[k] },
		Set: func(k string, v any) error {
			f.vals[k] = v
			f.writes = append(f.writes, k)
			return nil
		},
		Themes: []string{"system", "dark", "light"},
		Models: []*engine.Model{{Provider: "mock", ID: "m-1.5", Reasoning: true}, {Provider: "mock", ID: "plain"}},
	}
}

func TestPiSettingsRows(t *testing.T) {
	t.Parallel()
	if PiSettingsCount != 33 {
		t.Fatalf("%d rows, the reference lists 33", PiSettingsCount)
	}
	f := &fakeSettings{vals: map[string]any{"compaction.enabled": false, "httpIdleTimeoutMs": float64(60000), "theme": "dark"}}
	s := PiSettings(Style{}, f.env(), nil)
	golden(t, "settings", s)
	if s.Value("compaction.enabled") != "false" || s.Value("httpIdleTimeoutMs") != "1 min" || s.Value("transport") != "auto" {
		t.Fatalf("values: %q %q %q", s.Value("compaction.enabled"), s.Value("httpIdleTimeoutMs"), s.Value("transport"))
	}
}

func TestPiSettingsChanges(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		typed string
		keys  []string
		key   string
		want  any
	}{
		{"bool cycles", "auto-comp", []string{"enter"}, "compaction.enabled", false},
		{"space cycles too", "block", []string{"space"}, "images.blockImages", true},
		{"int", "editorpad", []string{"enter", "enter"}, "editorPaddingX", 2},
		{"timeout", "idle", []string{"enter"}, "httpIdleTimeoutMs", 0},
		{"trust", "trust", []string{"enter"}, "defaultProjectTrust", "always"},
		{"quiet header", "quiet", []string{"enter"}, "quietStartup", true},
		{"wheel", "wheel", []string{"enter"}, "fullscreenWheelScrollLines", 1},
		{"theme sub-list", "theme", []string{"enter", "down", "enter"}, "theme", "light"},
		{"warnings sub", "warnings", []string{"enter", "enter"}, "warnings.anthropicExtraUsage", false},
		{"enum", "tuimode", []string{"enter"}, "tuiMode", "regular"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeSettings{vals: map[string]any{"theme": "dark"}}
			s := PiSettings(Style{}, f.env(), nil)
			typeText(s, c.typed)
			press(s, c.keys...)
			if got := f.vals[c.key]; got != c.want {
				t.Fatalf("%s = %#v, want %#v (writes %v)\n%s", c.key, got, c.want, f.writes, rowsText(s, 80))
			}
		})
	}
}

func TestPiSettingsModelLevels(t *testing.T) {
	t.Parallel()
	f := &fakeSettings{vals: map[string]any{"modelThinkingLevels": map[string]any{"other/x": "low"}}}
	s := PiSettings(Style{}, f.env(), nil)
	typeText(s, "permodel")
	press(s, "enter")
	if txt := rowsText(s, 80); !strings.Contains(txt, "mock/m-1.5") || strings.Contains(txt, "plain") {
		t.Fatalf("model list:\n%s", txt)
	}
	press(s, "enter", "down", "down", "enter") // (clear), off, minimal
	got, _ := f.vals["modelThinkingLevels"].(map[string]any)
	if !maps.Equal(got, map[string]any{"other/x": "low", "mock/m-1.5": "minimal"}) {
		t.Fatalf("modelThinkingLevels = %v", got)
	}
	if txt := rowsText(s, 80); !strings.Contains(txt, "Type to search") {
		t.Fatalf("did not return to the list:\n%s", txt)
	}
	closed := false
	s2 := PiSettings(Style{}, f.env(), func() { closed = true })
	typeText(s2, "x")
	press(s2, "escape")
	if closed {
		t.Fatal("first escape should clear the search")
	}
	press(s2, "escape")
	if !closed {
		t.Fatal("second escape should close")
	}
}

// The theme list previews each theme the selection moves to, and Escape
// previews the saved one again; the image rows follow Auto-compact only
// where the terminal draws images.
func TestPiSettingsThemePreviewAndImageRows(t *testing.T) {
	t.Parallel()
	f := &fakeSettings{vals: map[string]any{"theme": "dark"}}
	env := f.env()
	var previews []string
	env.Preview = func(name string) { previews = append(previews, name) }
	s := PiSettings(Style{}, env, nil)
	typeText(s, "theme")
	press(s, "enter", "down", "up", "escape")
	if got := strings.Join(previews, ","); got != "light,dark,dark" {
		t.Fatalf("previews %q, want light,dark,dark", got)
	}
	if len(f.writes) != 0 {
		t.Fatalf("a preview wrote %v", f.writes)
	}
	if strings.Contains(rowsText(s, 100), "Show images") {
		t.Fatal("image rows without image support")
	}
	env.Images = true
	s = PiSettings(Style{}, env, nil)
	text := rowsText(s, 100)
	ac, si, iw := strings.Index(text, "Auto-compact"), strings.Index(text, "Show images"), strings.Index(text, "Image width")
	if ac < 0 || si < ac || iw < si {
		t.Fatalf("image rows misplaced:\n%s", text)
	}
	typeText(s, "image width")
	press(s, "enter")
	if f.vals["terminal.imageWidthCells"] != 80 {
		t.Fatalf("image width %v", f.vals["terminal.imageWidthCells"])
	}
}

// Automatic mode picks a light and a dark theme and saves the pair;
// Change mode goes back to one theme; a saved pair opens in automatic
// mode.
func TestPiSettingsAutomaticTheme(t *testing.T) {
	t.Parallel()
	f := &fakeSettings{vals: map[string]any{"theme": "dark"}}
	env := f.env()
	var previews []string
	env.Preview = func(name string) { previews = append(previews, name) }
	env.Appearance = "dark"
	s := PiSettings(Style{}, env, nil)
	typeText(s, "theme")
	press(s, "enter", "up", "enter") // automatic
	if text := rowsText(s, 100); !strings.Contains(text, "Automatic Theme") || !strings.Contains(text, "Light theme") {
		t.Fatalf("no automatic menu:\n%s", text)
	}
	press(s, "enter", "down", "enter") // Light theme: dark → light
	press(s, "down", "down", "enter")  // Apply
	if f.vals["theme"] != "light/dark" {
		t.Fatalf("theme %v (previews %v)", f.vals["theme"], previews)
	}
	if got := strings.Join(previews, ","); got != "dark/dark,dark/dark,light,light/dark" {
		t.Fatalf("previews %q", got)
	}
	// Reopened on the pair: automatic mode; Change mode shows the dark
	// side (the terminal is dark) as the single theme.
	press(s, "enter")
	if text := rowsText(s, 100); !strings.Contains(text, "Automatic Theme") {
		t.Fatalf("a pair did not open in automatic mode:\n%s", text)
	}
	press(s, "down", "down", "down", "enter")
	if text := rowsText(s, 100); !strings.Contains(text, "Select a theme, or choose automatic") || !strings.Contains(text, "→ ✓ dark") {
		t.Fatalf("single mode:\n%s", text)
	}
}
