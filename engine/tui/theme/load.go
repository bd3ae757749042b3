package theme

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The built-in themes are the reference's dark.json and light.json (token
// names and colour values are facts of pi's look). They are parsed when
// asked for, not at start.
var (
	//go:embed builtin/dark.json
	darkJSON []byte
	//go:embed builtin/light.json
	lightJSON []byte
)

// SystemName is the theme generated from the terminal's own colours, the
// default.
const SystemName = "system"

// ErrNotFound is returned (wrapped) by Load for a theme name that is neither
// built in nor in any of the directories.
var ErrNotFound = errors.New("theme not found")

// Options control how a theme is resolved.
type Options struct {
	// Dirs are searched in order for <name>.json (and for files whose
	// "name" says name): <agentDir>/themes, then a trusted project's
	// .pi/themes. The first match wins; built-in names always win.
	Dirs []string
	// Mode is the colour depth; ModeAuto detects it with DetectMode.
	Mode Mode
	// TrueColor is the terminal.trueColor setting (nil = "auto").
	TrueColor *bool
	// Terminal holds the terminal's reported colours (OSC 10/11/4 replies);
	// nil when it did not answer. The system theme and light/dark pairs
	// use it.
	Terminal *TerminalColors
	// Scheme is the terminal's light/dark report (mode 2031), "" if none;
	// used for light/dark pairs when the background is unknown.
	Scheme string
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
}

func (o *Options) getenv(k string) string {
	if o.Getenv != nil {
		return o.Getenv(k)
	}
	return os.Getenv(k)
}

func (o *Options) mode() Mode {
	if o.Mode != ModeAuto {
		return o.Mode
	}
	return DetectMode(o.getenv, o.TrueColor)
}

// Dark is the built-in dark theme in the environment's colour depth.
func Dark() *Theme { return mustBuiltin("dark", Options{}) }

// Light is the built-in light theme in the environment's colour depth.
func Light() *Theme { return mustBuiltin("light", Options{}) }

func mustBuiltin(name string, o Options) *Theme {
	src := darkJSON
	if name == "light" {
		src = lightJSON
	}
	t, err := parseTheme(name, src, o.mode())
	if err != nil {
		panic("theme: built-in " + name + ": " + err.Error())
	}
	return t
}

// Load resolves a theme setting with the environment's colour depth and no
// terminal colour reports: see LoadWith.
func Load(name string, dirs []string) (*Theme, error) {
	return LoadWith(name, Options{Dirs: dirs})
}

// LoadWith resolves a theme setting: "system" (also for ""), "dark",
// "light", a custom theme's name, or a "light/dark" pair of names, which
// picks one by the terminal's appearance.
func LoadWith(name string, o Options) (*Theme, error) {
	name = strings.TrimSpace(name)
	if strings.Contains(name, "/") {
		light, dark, ok := ParsePair(name)
		if !ok {
			return nil, fmt.Errorf("invalid theme setting %q: a light/dark pair is two names separated by one \"/\"", name)
		}
		name = dark
		if TerminalAppearance(o.Terminal, o.Scheme, o.getenv) == "light" {
			name = light
		}
	}
	switch name {
	case "", SystemName:
		return System(o.Terminal, o.Scheme, o.mode(), o.getenv), nil
	case "dark", "light":
		return mustBuiltin(name, o), nil
	}
	path, err := findTheme(name, o.Dirs)
	if err != nil {
		return nil, err
	}
	return LoadFile(path, o.mode())
}

// ParsePair splits a "light/dark" theme setting.
func ParsePair(setting string) (light, dark string, ok bool) {
	i := strings.IndexByte(setting, '/')
	if i < 0 || strings.IndexByte(setting[i+1:], '/') >= 0 {
		return "", "", false
	}
	light, dark = strings.TrimSpace(setting[:i]), strings.TrimSpace(setting[i+1:])
	return light, dark, light != "" && dark != ""
}

// findTheme looks for name in dirs: <dir>/<name>.json first, then any JSON
// file whose "name" field is name.
func findTheme(name string, dirs []string) (string, error) {
	for _, d := range dirs {
		p := filepath.Join(d, name+".json")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	for _, d := range dirs {
		for _, e := range customThemes(d) {
			if e.name == name {
				return e.path, nil
			}
		}
	}
	return "", fmt.Errorf("%w: %s", ErrNotFound, name)
}

type themeEntry struct{ name, path string }

// customThemes lists the valid themes of one directory, sorted by file
// name. Invalid files are skipped here; loading one by name reports why.
func customThemes(dir string) []themeEntry {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []themeEntry
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		src, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		f, err := decodeThemeFile(p, src)
		if err != nil || f.name == "" {
			continue
		}
		if _, err := f.resolve(p, ModeNone); err != nil {
			continue
		}
		out = append(out, themeEntry{f.name, p})
	}
	return out
}

// Names lists the selectable themes for the /settings picker: "system"
// first, then the built-in and valid custom themes of dirs sorted by name
// (a custom theme cannot shadow a built-in name, and the first directory
// wins among customs).
func Names(dirs []string) []string {
	seen := map[string]bool{SystemName: true, "dark": true, "light": true}
	names := []string{"dark", "light"}
	for _, d := range dirs {
		for _, e := range customThemes(d) {
			if !seen[e.name] {
				seen[e.name] = true
				names = append(names, e.name)
			}
		}
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := strings.ToLower(names[i]), strings.ToLower(names[j])
		if a != b {
			return a < b
		}
		return names[i] < names[j]
	})
	return append([]string{SystemName}, names...)
}

// LoadFile reads and validates one theme file.
func LoadFile(path string, mode Mode) (*Theme, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("theme: %w", err)
	}
	t, err := parseTheme(path, src, mode)
	if err != nil {
		return nil, err
	}
	t.Path = path
	return t, nil
}

// Parse validates a theme document; label names it in errors (its path).
func Parse(label string, src []byte, mode Mode) (*Theme, error) {
	return parseTheme(label, src, mode)
}

func parseTheme(label string, src []byte, mode Mode) (*Theme, error) {
	f, err := decodeThemeFile(label, src)
	if err != nil {
		return nil, err
	}
	return f.resolve(label, mode)
}

// themeFile is a decoded, not yet resolved theme document.
type themeFile struct {
	name, appearance string
	vars             map[string]any
	colors           map[string]any
	export           map[string]any
}

var exportKeys = [...]string{"pageBg", "cardBg", "infoBg"}

func decodeThemeFile(label string, src []byte) (*themeFile, error) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	var top map[string]json.RawMessage
	if err := json.Unmarshal(src, &top); err != nil {
		return nil, fmt.Errorf("failed to parse theme %s: %w", label, err)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("invalid theme %q: %s", label, fmt.Sprintf(format, a...))
	}
	f := &themeFile{}
	for k, raw := range top {
		var err error
		switch k {
		case "$schema":
			var s string
			err = json.Unmarshal(raw, &s)
		case "name":
			err = json.Unmarshal(raw, &f.name)
			if err == nil && strings.Contains(f.name, "/") {
				return nil, bad("theme names cannot contain \"/\" (it is reserved for light/dark theme pairs): %q", f.name)
			}
		case "appearance":
			err = json.Unmarshal(raw, &f.appearance)
			if err == nil && f.appearance != "dark" && f.appearance != "light" {
				return nil, bad("appearance must be \"dark\" or \"light\", not %q", f.appearance)
			}
		case "vars":
			err = decodeValues(raw, &f.vars)
		case "colors":
			err = decodeValues(raw, &f.colors)
		case "export":
			err = decodeValues(raw, &f.export)
		default:
			return nil, bad("unknown property %q", k)
		}
		if err != nil {
			return nil, bad("%s: %v", k, err)
		}
	}
	if _, ok := top["name"]; !ok {
		return nil, bad("missing \"name\"")
	}
	if f.colors == nil {
		return nil, bad("expected an object with a \"colors\" map")
	}
	var missing, unknown []string
	for _, info := range tokens {
		if _, ok := f.colors[info.name]; !ok && info.fallback == "" {
			missing = append(missing, info.name)
		}
	}
	for k := range f.colors {
		if _, ok := lookupToken(k); !ok {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if len(missing) > 0 {
		return nil, bad("missing required color tokens: %s (see the built-in dark and light themes for every token)", strings.Join(missing, ", "))
	}
	if len(unknown) > 0 {
		return nil, bad("unknown color tokens: %s", strings.Join(unknown, ", "))
	}
	for k := range f.export {
		known := false
		for _, e := range exportKeys {
			known = known || e == k
		}
		if !known {
			return nil, bad("unknown export color %q (known: pageBg, cardBg, infoBg)", k)
		}
	}
	return f, nil
}

// decodeValues decodes a map of colour values: strings or integers.
func decodeValues(raw json.RawMessage, out *map[string]any) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	*out = make(map[string]any, len(m))
	for k, v := range m {
		var s string
		if err := json.Unmarshal(v, &s); err == nil {
			(*out)[k] = s
			continue
		}
		var n float64
		if err := json.Unmarshal(v, &n); err != nil {
			return fmt.Errorf("%s: a color is a string or a palette index 0-255", k)
		}
		(*out)[k] = n
	}
	return nil
}

// resolveVar follows variable references until it reaches a colour value.
func resolveVar(v any, vars map[string]any, seen map[string]bool) (any, error) {
	s, ok := v.(string)
	if !ok || s == "" || strings.HasPrefix(s, "#") {
		return v, nil
	}
	l := strings.ToLower(s)
	if strings.HasPrefix(l, "oklch(") || strings.HasPrefix(l, "okhsl(") {
		return v, nil
	}
	if seen[s] {
		return nil, fmt.Errorf("circular variable reference: %s", s)
	}
	next, ok := vars[s]
	if !ok {
		return nil, fmt.Errorf("variable reference not found: %s", s)
	}
	if seen == nil {
		seen = map[string]bool{}
	}
	seen[s] = true
	return resolveVar(next, vars, seen)
}

func (f *themeFile) resolve(label string, mode Mode) (*Theme, error) {
	values := make(map[string]*Color, len(tokens))
	raw := make(map[string]any, len(tokens))
	for _, info := range tokens {
		v, ok := f.colors[info.name]
		if !ok {
			// Optional tokens take their fallback's value (tokens are
			// ordered so a fallback is always resolved first).
			raw[info.name] = raw[info.fallback]
			values[info.name] = values[info.fallback]
			continue
		}
		r, err := resolveVar(v, f.vars, nil)
		if err == nil && r != "" {
			var c Color
			c, err = ParseColor(r)
			values[info.name] = &c
		}
		if err != nil {
			return nil, fmt.Errorf("invalid theme %q: colors.%s: %w", label, info.name, err)
		}
		raw[info.name] = r
	}
	t := newTheme(f.name, f.appearance, values, mode, nil)
	for _, k := range exportKeys {
		v, ok := f.export[k]
		if !ok {
			continue
		}
		css, err := exportValue(v, f.vars)
		if err != nil {
			return nil, fmt.Errorf("invalid theme %q: export.%s: %w", label, k, err)
		}
		switch k {
		case "pageBg":
			t.export.PageBg = css
		case "cardBg":
			t.export.CardBg = css
		case "infoBg":
			t.export.InfoBg = css
		}
	}
	return t, nil
}

// exportValue turns an export colour into CSS: hex and oklch() pass
// through (CSS reads them), okhsl() and palette indices become hex.
func exportValue(v any, vars map[string]any) (string, error) {
	r, err := resolveVar(v, vars, nil)
	if err != nil || r == "" {
		return "", err
	}
	c, err := ParseColor(r)
	if err != nil {
		return "", err
	}
	if s, ok := r.(string); ok && !strings.HasPrefix(strings.ToLower(s), "okhsl(") {
		return s, nil
	}
	return c.RGB.Hex(), nil
}
