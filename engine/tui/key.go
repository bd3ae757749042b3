package tui

import (
	"fmt"
	"strings"
)

// Mod is a set of key modifiers.
type Mod uint8

// The modifiers of pi's key syntax.
const (
	ModShift Mod = 1 << iota
	ModAlt
	ModCtrl
	ModSuper
)

// Key is one decoded key event.
//
// Code is the base key in pi's keybinding syntax: a lower-case letter,
// a digit, a symbol ("[", "-", …), or one of "escape", "enter", "tab",
// "space", "backspace", "delete", "insert", "clear", "home", "end",
// "pageUp", "pageDown", "up", "down", "left", "right", "f1"…"f12".
// Shift with a letter is reported as ModShift plus the lower-case
// letter; Text then holds the upper-case letter.
//
// Text is what the key types into an editor: the printable characters
// for plain and shifted keys, "" for control keys and for chords with
// Ctrl, Alt or Super.
//
// Raw is the exact byte sequence the terminal sent for this key, which
// extension components receive unchanged.
//
// Shifted and Base come from the Kitty protocol's alternate keys: Shifted
// is the symbol a Shift chord produced ("+" for shift+=), so "ctrl++"
// matches ctrl+shift+= as pi's bindings name the produced symbol; Base is
// the key at the same place on a US PC-101 layout, so ctrl+с on a
// Cyrillic layout matches "ctrl+c".
type Key struct {
	Code    string
	Text    string
	Mod     Mod
	Repeat  bool // a Kitty-protocol auto-repeat
	Release bool // a Kitty-protocol key release
	Raw     string
	Shifted string
	Base    string
}

// String is the key in pi's syntax with modifiers in a fixed order,
// e.g. "ctrl+shift+p".
func (k Key) String() string { return KeySpec{Code: k.Code, Mod: k.Mod}.String() }

// Is reports whether the key matches spec ("ctrl+c", "shift+enter").
// An unparsable spec matches nothing.
func (k Key) Is(spec string) bool {
	s, err := ParseKey(spec)
	return err == nil && s.Matches(k)
}

// KeySpec is a parsed key of pi's syntax.
type KeySpec struct {
	Code string
	Mod  Mod
}

// Matches reports whether k is this key with exactly these modifiers.
// Releases never match. A Kitty key also matches by the symbol its Shift
// produced (with Shift consumed) and, when its own code is not a Latin
// letter, digit or symbol, by its base-layout key.
func (s KeySpec) Matches(k Key) bool {
	if k.Release {
		return false
	}
	if k.Code == s.Code && k.Mod == s.Mod {
		return true
	}
	if k.Shifted != "" && k.Mod&ModShift != 0 && k.Shifted == s.Code && k.Mod&^ModShift == s.Mod {
		return true
	}
	return k.Base != "" && k.Base == s.Code && k.Mod == s.Mod && !isLatinKey(k.Code)
}

// isLatinKey reports whether code names a key that is authoritative on
// its own: a named key, an ASCII letter, digit or symbol. Remapped
// layouts (Dvorak, Colemak) report such keys at other physical places,
// so their base-layout key must not be consulted.
func isLatinKey(code string) bool {
	if len(code) != 1 {
		return namedKeys[code] || (len(code) > 1 && code[0] == 'f')
	}
	return code[0] > ' ' && code[0] < 0x7f
}

// String renders the spec in pi's syntax.
func (s KeySpec) String() string {
	var b strings.Builder
	for _, m := range [...]struct {
		mod  Mod
		name string
	}{{ModCtrl, "ctrl"}, {ModShift, "shift"}, {ModAlt, "alt"}, {ModSuper, "super"}} {
		if s.Mod&m.mod != 0 {
			b.WriteString(m.name)
			b.WriteByte('+')
		}
	}
	b.WriteString(s.Code)
	return b.String()
}

var keyAliases = map[string]string{"esc": "escape", "return": "enter"}

var namedKeys = map[string]bool{
	"escape": true, "enter": true, "tab": true, "space": true, "backspace": true,
	"delete": true, "insert": true, "clear": true, "home": true, "end": true,
	"pageUp": true, "pageDown": true, "up": true, "down": true, "left": true, "right": true,
}

// ParseKey parses pi's key syntax: modifiers ctrl, shift, alt, super in
// any order joined by "+", then the key ("ctrl+shift+x", "alt+enter",
// "ctrl++" is ctrl with the plus key). Modifier and named-key matching
// ignores case; "esc" and "return" are aliases.
func ParseKey(spec string) (KeySpec, error) {
	var out KeySpec
	rest := spec
	for {
		i := strings.IndexByte(rest, '+')
		if i <= 0 || i == len(rest)-1 {
			break
		}
		switch strings.ToLower(rest[:i]) {
		case "ctrl":
			out.Mod |= ModCtrl
		case "shift":
			out.Mod |= ModShift
		case "alt":
			out.Mod |= ModAlt
		case "super":
			out.Mod |= ModSuper
		default:
			return KeySpec{}, fmt.Errorf("key %q: unknown modifier %q", spec, rest[:i])
		}
		rest = rest[i+1:]
	}
	if rest == "" {
		return KeySpec{}, fmt.Errorf("key %q: no key", spec)
	}
	code := rest
	if a, ok := keyAliases[strings.ToLower(code)]; ok {
		code = a
	}
	switch {
	case len([]rune(code)) == 1:
		code = strings.ToLower(code)
	case namedKeys[code]:
	default:
		found := false
		for n := range namedKeys {
			if strings.EqualFold(n, code) {
				code, found = n, true
				break
			}
		}
		if !found && len(code) >= 2 && (code[0] == 'f' || code[0] == 'F') {
			var n int
			if _, err := fmt.Sscanf(code[1:], "%d", &n); err == nil && n >= 1 && n <= 12 && fmt.Sprint(n) == code[1:] {
				code, found = "f"+code[1:], true
			}
		}
		if !found {
			return KeySpec{}, fmt.Errorf("key %q: unknown key %q", spec, rest)
		}
	}
	out.Code = code
	return out, nil
}

// Keymap maps action ids ("tui.editor.cursorLeft", "app.interrupt") to
// keys. Set replaces an action's keys (an empty list disables it), as a
// keybindings.json entry does.
type Keymap struct {
	bindings map[string][]KeySpec
}

// NewKeymap builds a keymap from defaults (action → key specs). Invalid
// specs are reported, and the valid rest is kept.
func NewKeymap(defaults map[string][]string) (*Keymap, []error) {
	m := &Keymap{bindings: make(map[string][]KeySpec, len(defaults))}
	var errs []error
	for action, specs := range defaults {
		errs = append(errs, m.Set(action, specs)...)
	}
	return m, errs
}

// Set replaces the keys of action.
func (m *Keymap) Set(action string, specs []string) []error {
	if m.bindings == nil {
		m.bindings = map[string][]KeySpec{}
	}
	var errs []error
	keys := make([]KeySpec, 0, len(specs))
	for _, s := range specs {
		k, err := ParseKey(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", action, err))
			continue
		}
		keys = append(keys, k)
	}
	m.bindings[action] = keys
	return errs
}

// Keys returns the keys bound to action.
func (m *Keymap) Keys(action string) []KeySpec {
	if m == nil {
		return nil
	}
	return m.bindings[action]
}

// Matches reports whether k is bound to action.
func (m *Keymap) Matches(k Key, action string) bool {
	for _, s := range m.Keys(action) {
		if s.Matches(k) {
			return true
		}
	}
	return false
}

// Has reports whether the keymap knows action (bound or disabled).
func (m *Keymap) Has(action string) bool {
	if m == nil {
		return false
	}
	_, ok := m.bindings[action]
	return ok
}

// Actions returns every action id the keymap knows, in no set order.
func (m *Keymap) Actions() []string {
	out := make([]string, 0, len(m.bindings))
	for a := range m.bindings {
		out = append(out, a)
	}
	return out
}
