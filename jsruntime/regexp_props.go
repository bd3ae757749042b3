package jsruntime

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// goja's regular expressions do not know Unicode property escapes: /\p{L}/u
// never matches. The prelude's RegExp wrapper hands the source of every
// u- or v-flag pattern containing \p{…} or \P{…} to expandUnicodeProps,
// which replaces each escape with the equivalent code point ranges from
// Go's Unicode tables (esbuild turns such regex literals into RegExp calls,
// so literals pass through the wrapper too).

// categoryAliases are the long General_Category names and the one-letter
// groups Go's table lacks under those names.
var categoryAliases = map[string]string{
	"Letter": "L", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Titlecase_Letter": "Lt",
	"Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M", "Combining_Mark": "M", "Nonspacing_Mark": "Mn",
	"Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Number": "N", "Decimal_Number": "Nd", "digit": "Nd",
	"Letter_Number": "Nl", "Other_Number": "No", "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc",
	"Dash_Punctuation": "Pd", "Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
	"Final_Punctuation": "Pf", "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm",
	"Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z",
	"Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Other": "C", "Control": "Cc",
	"cntrl": "Cc", "Format": "Cf", "Private_Use": "Co", "Surrogate": "Cs",
}

// pictographic approximates Extended_Pictographic (emoji-data.txt), which
// Go's tables lack; emojiPresentation likewise.
var pictographic = [][2]rune{
	{0xA9, 0xA9}, {0xAE, 0xAE}, {0x203C, 0x203C}, {0x2049, 0x2049}, {0x2122, 0x2122}, {0x2139, 0x2139},
	{0x2194, 0x2199}, {0x21A9, 0x21AA}, {0x231A, 0x231B}, {0x2328, 0x2328}, {0x2388, 0x2388}, {0x23CF, 0x23CF},
	{0x23E9, 0x23F3}, {0x23F8, 0x23FA}, {0x24C2, 0x24C2}, {0x25AA, 0x25AB}, {0x25B6, 0x25B6}, {0x25C0, 0x25C0},
	{0x25FB, 0x25FE}, {0x2600, 0x2605}, {0x2607, 0x2612}, {0x2614, 0x2685}, {0x2690, 0x2705}, {0x2708, 0x2712},
	{0x2714, 0x2714}, {0x2716, 0x2716}, {0x271D, 0x271D}, {0x2721, 0x2721}, {0x2728, 0x2728}, {0x2733, 0x2734},
	{0x2744, 0x2744}, {0x2747, 0x2747}, {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757},
	{0x2763, 0x2767}, {0x2795, 0x2797}, {0x27A1, 0x27A1}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF}, {0x2934, 0x2935},
	{0x2B05, 0x2B07}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}, {0x3030, 0x3030}, {0x303D, 0x303D},
	{0x3297, 0x3297}, {0x3299, 0x3299}, {0x1F000, 0x1F0FF}, {0x1F10D, 0x1F10F}, {0x1F12F, 0x1F12F},
	{0x1F16C, 0x1F171}, {0x1F17E, 0x1F17F}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F1AD, 0x1F1E5},
	{0x1F201, 0x1F20F}, {0x1F21A, 0x1F21A}, {0x1F22F, 0x1F22F}, {0x1F232, 0x1F23A}, {0x1F23C, 0x1F23F},
	{0x1F249, 0x1F3FA}, {0x1F400, 0x1F53D}, {0x1F546, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F774, 0x1F77F},
	{0x1F7D5, 0x1F7FF}, {0x1F80C, 0x1F80F}, {0x1F848, 0x1F84F}, {0x1F85A, 0x1F85F}, {0x1F888, 0x1F88F},
	{0x1F8AE, 0x1F8FF}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1FAFF}, {0x1FC00, 0x1FFFD},
}

var emojiPresentation = [][2]rune{
	{0x231A, 0x231B}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0}, {0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615},
	{0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693}, {0x26A1, 0x26A1}, {0x26AA, 0x26AB}, {0x26BD, 0x26BE},
	{0x26C4, 0x26C5}, {0x26CE, 0x26CE}, {0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
	{0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B}, {0x2728, 0x2728}, {0x274C, 0x274C},
	{0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF},
	{0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF},
	{0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F1E6, 0x1F1FF}, {0x1F201, 0x1F201}, {0x1F21A, 0x1F21A},
	{0x1F22F, 0x1F22F}, {0x1F232, 0x1F236}, {0x1F238, 0x1F23A}, {0x1F250, 0x1F251}, {0x1F300, 0x1F320},
	{0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3},
	{0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E}, {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC},
	{0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567}, {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596},
	{0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5}, {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2},
	{0x1F6D5, 0x1F6D7}, {0x1F6DC, 0x1F6DF}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB},
	{0x1F7F0, 0x1F7F0}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAFF},
}

// propertyRanges returns the code point ranges of a \p{name} escape.
func propertyRanges(name string) ([][2]rune, bool) {
	if k, v, ok := strings.Cut(name, "="); ok {
		switch k {
		case "General_Category", "gc":
			name = v
		case "Script", "sc", "Script_Extensions", "scx":
			if t, ok := unicode.Scripts[v]; ok {
				return tableRanges(t), true
			}
			return nil, false
		default:
			return nil, false
		}
	}
	if a, ok := categoryAliases[name]; ok {
		name = a
	}
	switch name {
	case "Any":
		return [][2]rune{{0, unicode.MaxRune}}, true
	case "ASCII":
		return [][2]rune{{0, 0x7F}}, true
	case "LC", "Cased_Letter":
		return mergeRanges(tableRanges(unicode.Lu), tableRanges(unicode.Ll), tableRanges(unicode.Lt)), true
	case "Alphabetic", "Alpha":
		return mergeRanges(tableRanges(unicode.L), tableRanges(unicode.Nl), tableRanges(unicode.Other_Alphabetic)), true
	case "Uppercase", "Upper":
		return mergeRanges(tableRanges(unicode.Lu), tableRanges(unicode.Other_Uppercase)), true
	case "Lowercase", "Lower":
		return mergeRanges(tableRanges(unicode.Ll), tableRanges(unicode.Other_Lowercase)), true
	case "Extended_Pictographic", "ExtPict":
		return pictographic, true
	case "Emoji_Presentation", "EPres":
		return emojiPresentation, true
	case "Emoji":
		return mergeRanges(pictographic, [][2]rune{{'#', '#'}, {'*', '*'}, {'0', '9'}, {0x1F1E6, 0x1F1FF}}), true
	case "Emoji_Modifier", "EMod":
		return [][2]rune{{0x1F3FB, 0x1F3FF}}, true
	case "Emoji_Component", "EComp":
		return [][2]rune{{'#', '#'}, {'*', '*'}, {'0', '9'}, {0x200D, 0x200D}, {0x20E3, 0x20E3}, {0xFE0F, 0xFE0F}, {0x1F1E6, 0x1F1FF}, {0x1F3FB, 0x1F3FF}, {0x1F9B0, 0x1F9B3}, {0xE0020, 0xE007F}}, true
	}
	if t, ok := unicode.Categories[name]; ok {
		return tableRanges(t), true
	}
	if t, ok := unicode.Properties[name]; ok {
		return tableRanges(t), true
	}
	if t, ok := unicode.Scripts[name]; ok {
		return tableRanges(t), true
	}
	return nil, false
}

func tableRanges(t *unicode.RangeTable) [][2]rune {
	var out [][2]rune
	for _, r := range t.R16 {
		if r.Stride == 1 {
			out = append(out, [2]rune{rune(r.Lo), rune(r.Hi)})
			continue
		}
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			out = append(out, [2]rune{c, c})
		}
	}
	for _, r := range t.R32 {
		if r.Stride == 1 {
			out = append(out, [2]rune{rune(r.Lo), rune(r.Hi)})
			continue
		}
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			out = append(out, [2]rune{c, c})
		}
	}
	return mergeRanges(out)
}

func mergeRanges(sets ...[][2]rune) [][2]rune {
	var all [][2]rune
	for _, s := range sets {
		all = append(all, s...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i][0] < all[j][0] })
	var out [][2]rune
	for _, r := range all {
		if n := len(out); n > 0 && r[0] <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

func complementRanges(rs [][2]rune) [][2]rune {
	var out [][2]rune
	next := rune(0)
	for _, r := range rs {
		if r[0] > next {
			out = append(out, [2]rune{next, r[0] - 1})
		}
		next = r[1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, [2]rune{next, unicode.MaxRune})
	}
	return out
}

func writeRanges(b *strings.Builder, rs [][2]rune) {
	for _, r := range rs {
		if r[0] == r[1] {
			fmt.Fprintf(b, `\u{%X}`, r[0])
		} else {
			fmt.Fprintf(b, `\u{%X}-\u{%X}`, r[0], r[1])
		}
	}
}

// expandUnicodeProps rewrites \p{…} and \P{…} in a u-mode pattern source.
// An unknown property is left as it was.
func expandUnicodeProps(src string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\\' && i+1 < len(src) {
			if (src[i+1] == 'p' || src[i+1] == 'P') && i+2 < len(src) && src[i+2] == '{' {
				if end := strings.IndexByte(src[i+3:], '}'); end >= 0 {
					name := src[i+3 : i+3+end]
					if rs, ok := propertyRanges(name); ok {
						if src[i+1] == 'P' {
							rs = complementRanges(rs)
						}
						if !inClass {
							b.WriteByte('[')
						}
						writeRanges(&b, rs)
						if !inClass {
							b.WriteByte(']')
						}
						i += 3 + end
						continue
					}
				}
			}
			b.WriteByte(c)
			b.WriteByte(src[i+1])
			i++
			continue
		}
		switch c {
		case '[':
			inClass = true
		case ']':
			inClass = false
		}
		b.WriteByte(c)
	}
	return b.String()
}
