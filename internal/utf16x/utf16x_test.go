package utf16x

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
)

// encodedLen is the definition Len must agree with: the units that
// encoding the string's runes gives.
func encodedLen(s string) int { return len(utf16.Encode([]rune(s))) }

func TestLen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		s    string
		want int
	}{
		{"empty", "", 0},
		{"ascii", "hello", 5},
		{"two-byte", "héllo", 5},
		{"three-byte", "世界", 2},
		{"emoji is a surrogate pair", "😀", 2},
		{"family emoji with joiners", "👨‍👩‍👧", 8},
		{"flag is two pairs", "🇩🇪", 4},
		{"invalid byte counts one", "a\xffb", 3},
		{"truncated sequence counts per byte", "\xe2\x80", 2},
		{"encoded surrogate is three invalid bytes", "\xed\xa0\x80", 3},
		{"replacement character itself", "\uFFFD", 1},
		{"line separators", "\u2028\u2029", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Len(tt.s); got != tt.want {
				t.Errorf("Len(%q) = %d, want %d", tt.s, got, tt.want)
			}
			if got := encodedLen(tt.s); got != tt.want {
				t.Errorf("utf16.Encode length of %q = %d, the table is wrong", tt.s, got)
			}
		})
	}
}

func TestCut(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		s       string
		max     int
		want    string
		wantCut bool
	}{
		{"empty", "", 3, "", false},
		{"empty at zero", "", 0, "", false},
		{"fits", "abc", 3, "abc", false},
		{"one over", "abcd", 3, "abc", true},
		{"zero max", "abc", 0, "", true},
		{"negative max", "abc", -1, "", true},
		{"bytes over but units fit", "éé", 2, "éé", false},
		{"pair fits exactly", "a😀", 3, "a😀", false},
		{"pair not split", "a😀b", 2, "a", true},
		{"pair at the start not split", "😀", 1, "", true},
		{"after the pair", "😀b", 2, "😀", true},
		{"invalid bytes kept as they are", "a\xffb\xfec", 3, "a\xffb", true},
		{"emoji run", "😀😀😀", 5, "😀😀", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, cut := Cut(tt.s, tt.max)
			if got != tt.want || cut != tt.wantCut {
				t.Errorf("Cut(%q, %d) = %q, %v; want %q, %v", tt.s, tt.max, got, cut, tt.want, tt.wantCut)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		s           string
		max         int
		want        string
		wantDropped int
		wantCut     bool
	}{
		{"fits", "abc", 3, "abc", 0, false},
		{"invalid kept when it fits", "a\xff", 2, "a\xff", 0, false},
		{"cut", "abcdef", 4, "abcd", 2, true},
		// The dropped count is past max, so a pair moved before the cut
		// is not counted again: JavaScript would have kept its half.
		{"pair at the cut", "ab😀cd", 3, "ab", 3, true},
		{"invalid replaced in the prefix", "a\xffbcd", 3, "a\uFFFDb", 2, true},
		{"zero", "ab", 0, "", 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, dropped, cut := Truncate(tt.s, tt.max)
			if got != tt.want || dropped != tt.wantDropped || cut != tt.wantCut {
				t.Errorf("Truncate(%q, %d) = %q, %d, %v; want %q, %d, %v", tt.s, tt.max, got, dropped, cut, tt.want, tt.wantDropped, tt.wantCut)
			}
		})
	}
}

func TestReplaceInvalid(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"ok é 😀", "ok é 😀"},
		{"\xff", "\uFFFD"},
		{"\xe2\x80x", "\uFFFD\uFFFDx"},
	} {
		if got := ReplaceInvalid(tt.in); got != tt.want {
			t.Errorf("ReplaceInvalid(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestRandomAgainstEncode checks Len and Cut against the utf16.Encode
// definition the former copies used, on random mixes of one-, two-, three-
// and four-byte runes and invalid bytes.
func TestRandomAgainstEncode(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "é", "世", "😀", "\xff", "\xe2\x80", "\xed\xa0\x80", "\uFFFD", "\n"}
	for range 3000 {
		var sb strings.Builder
		for range r.IntN(10) {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := sb.String()
		if got, want := Len(s), encodedLen(s); got != want {
			t.Fatalf("Len(%q) = %d, want %d", s, got, want)
		}
		max := r.IntN(12)
		units := utf16.Encode([]rune(s))
		got, _, cut := Truncate(s, max)
		if cut != (len(units) > max) {
			t.Fatalf("Truncate(%q, %d) cut = %v", s, max, cut)
		}
		if !cut {
			continue
		}
		end := max
		if end > 0 && units[end-1] >= 0xD800 && units[end-1] < 0xDC00 {
			end--
		}
		if want := string(utf16.Decode(units[:end])); got != want {
			t.Fatalf("Truncate(%q, %d) = %q, want %q", s, max, got, want)
		}
		p, _ := Cut(s, max)
		if !strings.HasPrefix(s, p) || Len(p) > max {
			t.Fatalf("Cut(%q, %d) = %q: not a prefix within the limit", s, max, p)
		}
	}
}
