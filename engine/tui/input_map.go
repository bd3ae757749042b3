package tui

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	uv "github.com/charmbracelet/ultraviolet"
)

// legacyKeys are pi's readings of byte strings that ultraviolet reads
// otherwise (or that depend on the Kitty protocol being on). The value
// for Kitty mode is in kittyKeys when it differs.
var legacyKeys = map[string]Key{
	"\x08":     {Code: "backspace"}, // BS: Backspace on most terminals, not Ctrl+H
	"\x1b\x08": {Code: "backspace", Mod: ModAlt},
	"\x1b\x7f": {Code: "backspace", Mod: ModAlt},
	"\x1f":     {Code: "-", Mod: ModCtrl}, // Ctrl+- and Ctrl+_ share the byte
	"\x1b\x1f": {Code: "-", Mod: ModCtrl | ModAlt},
	"\x1bB":    {Code: "left", Mod: ModAlt}, // Option+Left of macOS terminals
	"\x1bF":    {Code: "right", Mod: ModAlt},
	"\x1b\r":   {Code: "enter", Mod: ModAlt}, // tmux's Alt+Enter
	"\n":       {Code: "j", Mod: ModCtrl},
	"\x1bOM":   {Code: "enter"},
}

// kittyKeys: with the Kitty protocol on, real keys arrive as CSI u, so
// these legacy strings are terminals' custom Shift+Enter mappings (Kitty's
// "send_text \e\r", Ghostty's "text:\n").
var kittyKeys = map[string]Key{
	"\x1b\r": {Code: "enter", Mod: ModShift},
	"\n":     {Code: "enter", Mod: ModShift},
	"\x1bB":  {Code: "b", Mod: ModAlt | ModShift},
	"\x1bF":  {Code: "f", Mod: ModAlt | ModShift},
}

// decode appends the events of one framed unit.
func (d *Decoder) decode(out []Event, seq []byte) []Event {
	raw := string(seq)
	if d.lastKittyPrintable != 0 {
		last := d.lastKittyPrintable
		d.lastKittyPrintable = 0
		if len([]rune(raw)) == 1 && []rune(raw)[0] == last {
			return out
		}
	}
	if d.kitty {
		if k, ok := kittyKeys[raw]; ok {
			k.Raw = raw
			return append(out, k)
		}
	}
	if k, ok := legacyKeys[raw]; ok {
		k.Raw = raw
		return append(out, k)
	}
	for len(seq) > 0 {
		n, ev := d.uv.Decode(seq)
		if n <= 0 {
			n = len(seq)
		}
		out = d.convert(out, ev, string(seq[:n]))
		seq = seq[n:]
	}
	return out
}

func (d *Decoder) convert(out []Event, ev uv.Event, raw string) []Event {
	switch e := ev.(type) {
	case nil:
		return out
	case uv.MultiEvent:
		for _, sub := range e {
			out = d.convert(out, sub, raw)
		}
		return out
	case uv.KeyPressEvent:
		k := d.key(uv.Key(e), raw, false)
		if k.Mod == 0 && k.Text != "" && strings.HasPrefix(raw, "\x1b[") && strings.HasSuffix(raw, "u") && !strings.Contains(raw, ";") {
			if r := []rune(k.Text); len(r) == 1 && r[0] >= ' ' {
				d.lastKittyPrintable = r[0]
			}
		}
		return append(out, k)
	case uv.KeyReleaseEvent:
		return append(out, d.key(uv.Key(e), raw, true))
	case uv.FocusEvent:
		return append(out, Focus{Focused: true})
	case uv.BlurEvent:
		return append(out, Focus{Focused: false})
	case uv.MouseClickEvent:
		return append(out, mouse(uv.Mouse(e), MousePress, raw))
	case uv.MouseReleaseEvent:
		return append(out, mouse(uv.Mouse(e), MouseRelease, raw))
	case uv.MouseMotionEvent:
		return append(out, mouse(uv.Mouse(e), MouseMotion, raw))
	case uv.MouseWheelEvent:
		m := uv.Mouse(e)
		switch m.Button {
		case uv.MouseWheelUp, uv.MouseWheelDown:
			action := MouseWheelUp
			if m.Button == uv.MouseWheelDown {
				action = MouseWheelDown
			}
			ev := mouse(m, action, raw)
			ev.Button = -1
			return append(out, ev)
		}
		return append(out, mouse(m, MousePress, raw))
	case uv.KeyboardEnhancementsEvent:
		d.kitty = e.Flags > 0
		return append(out, Reply{Raw: raw})
	case uv.PasteStartEvent, uv.PasteEndEvent:
		// A paste end without a start (the start is framed by drain):
		// nothing to deliver.
		return out
	case uv.PrimaryDeviceAttributesEvent, uv.SecondaryDeviceAttributesEvent,
		uv.TertiaryDeviceAttributesEvent, uv.ModeReportEvent,
		uv.ForegroundColorEvent, uv.BackgroundColorEvent, uv.CursorColorEvent,
		uv.CursorPositionEvent, uv.WindowSizeEvent, uv.PixelSizeEvent, uv.CellSizeEvent,
		uv.WindowOpEvent, uv.TerminalVersionEvent, uv.CapabilityEvent, uv.ClipboardEvent,
		uv.KittyGraphicsEvent, uv.ProgramStatusSupportEvent, uv.ModifyOtherKeysEvent,
		uv.DarkColorSchemeEvent, uv.LightColorSchemeEvent:
		return append(out, Reply{Raw: raw})
	}
	// Unknown or ignored sequences: strings (OSC, DCS, APC…) and private
	// CSI answers are terminal replies; anything else is a key we cannot
	// name, delivered raw so extension components still see its bytes.
	if isReplyRaw(raw) {
		return append(out, Reply{Raw: raw})
	}
	return append(out, Key{Raw: raw})
}

func isReplyRaw(raw string) bool {
	if len(raw) < 2 || raw[0] != 0x1b {
		return false
	}
	switch raw[1] {
	case ']', 'P', '_', '^', 'X':
		return true
	case '[':
		return len(raw) > 2 && (raw[2] == '?' || raw[2] == '>' || raw[2] == '=')
	}
	return false
}

func (d *Decoder) key(k uv.Key, raw string, release bool) Key {
	out := Key{Raw: raw, Repeat: k.IsRepeat, Release: release}
	if k.Mod.Contains(uv.ModShift) {
		out.Mod |= ModShift
	}
	if k.Mod.Contains(uv.ModAlt) {
		out.Mod |= ModAlt
	}
	if k.Mod.Contains(uv.ModCtrl) {
		out.Mod |= ModCtrl
	}
	if k.Mod.Contains(uv.ModSuper) {
		out.Mod |= ModSuper
	}
	out.Code = codeName(k.Code, k.Text)
	if out.Mod&(ModCtrl|ModAlt|ModSuper) == 0 && !release {
		out.Text = k.Text
	}
	if strings.HasPrefix(raw, "\x1b[") && strings.HasSuffix(raw, "u") {
		shifted, base := kittyAlternates(raw)
		if shifted != 0 && out.Mod&ModShift != 0 && isSymbolRune(shifted) {
			out.Shifted = string(shifted)
		}
		if base != 0 {
			if b := codeName(base, ""); b != out.Code {
				out.Base = b
			}
		}
	}
	return out
}

// kittyAlternates reads the alternate keys of a Kitty CSI u key,
// "CSI code:shifted:base ; mods u" (either alternate may be empty).
// ultraviolet keeps only one of them, so they are read here.
func kittyAlternates(raw string) (shifted, base rune) {
	body := strings.TrimSuffix(strings.TrimPrefix(raw, "\x1b["), "u")
	first, _, _ := strings.Cut(body, ";")
	parts := strings.Split(first, ":")
	if len(parts) > 1 && parts[1] != "" {
		if n, err := strconv.Atoi(parts[1]); err == nil && n > 0 && n <= unicode.MaxRune {
			shifted = rune(n)
		}
	}
	if len(parts) > 2 && parts[2] != "" {
		if n, err := strconv.Atoi(parts[2]); err == nil && n > 0 && n <= unicode.MaxRune {
			base = rune(n)
		}
	}
	return shifted, base
}

func isSymbolRune(r rune) bool {
	return r > ' ' && r < 0x7f && !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

var specialCodes = map[rune]string{
	uv.KeyUp: "up", uv.KeyDown: "down", uv.KeyRight: "right", uv.KeyLeft: "left",
	uv.KeyBegin: "clear", uv.KeyFind: "home", uv.KeyInsert: "insert", uv.KeyDelete: "delete",
	uv.KeySelect: "end", uv.KeyPgUp: "pageUp", uv.KeyPgDown: "pageDown",
	uv.KeyHome: "home", uv.KeyEnd: "end",
	uv.KeyKpEnter: "enter", uv.KeyKpEqual: "=", uv.KeyKpMultiply: "*", uv.KeyKpPlus: "+",
	uv.KeyKpComma: ",", uv.KeyKpMinus: "-", uv.KeyKpDecimal: ".", uv.KeyKpDivide: "/",
	uv.KeyKpSep: ",", uv.KeyKpUp: "up", uv.KeyKpDown: "down", uv.KeyKpLeft: "left",
	uv.KeyKpRight: "right", uv.KeyKpPgUp: "pageUp", uv.KeyKpPgDown: "pageDown",
	uv.KeyKpHome: "home", uv.KeyKpEnd: "end", uv.KeyKpInsert: "insert",
	uv.KeyKpDelete: "delete", uv.KeyKpBegin: "clear",
	uv.KeyBackspace: "backspace", uv.KeyTab: "tab", uv.KeyEnter: "enter",
	uv.KeyEscape: "escape", uv.KeySpace: "space",
}

// codeName is a key's Code in pi's syntax.
func codeName(r rune, text string) string {
	if s, ok := specialCodes[r]; ok {
		return s
	}
	switch {
	case r == uv.KeyExtended:
		return text
	case r >= uv.KeyKp0 && r <= uv.KeyKp9:
		return string('0' + r - uv.KeyKp0)
	case r >= uv.KeyF1 && r <= uv.KeyF63:
		return fmt.Sprintf("f%d", r-uv.KeyF1+1)
	case r > unicode.MaxRune:
		// Lock, media and lone modifier keys: ultraviolet's name.
		return uv.Key{Code: r}.String()
	case r < ' ':
		return string(r + 0x60)
	}
	return string(unicode.ToLower(r))
}

func mouse(m uv.Mouse, action MouseAction, raw string) Mouse {
	out := Mouse{X: m.X, Y: m.Y, Action: action, Raw: raw, Button: -1}
	switch m.Button {
	case uv.MouseLeft:
		out.Button = 0
	case uv.MouseMiddle:
		out.Button = 1
	case uv.MouseRight:
		out.Button = 2
	case uv.MouseNone:
	default:
		out.Button = int(m.Button) - 1
	}
	if m.Mod.Contains(uv.ModShift) {
		out.Mod |= ModShift
	}
	if m.Mod.Contains(uv.ModAlt) {
		out.Mod |= ModAlt
	}
	if m.Mod.Contains(uv.ModCtrl) {
		out.Mod |= ModCtrl
	}
	return out
}
