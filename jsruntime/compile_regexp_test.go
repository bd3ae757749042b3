package jsruntime

import (
	"strings"
	"testing"
)

func TestLowerClassPropertyEscapes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, want string
	}{
		{"class literal", `const r = /^[\P{ASCII}]$/u;`, `const r = /^[\u{80}-\u{10FFFF}]$/u;`},
		{"two literals on a line", `f(/[\p{ASCII}]/gu, /[^\p{ASCII}]/u)`, `f(/[\u{0}-\u{7F}]/gu, /[^\u{0}-\u{7F}]/u)`},
		{"without u the escape is a plain p", `const r = /[\p{ASCII}]/;`, `const r = /[\p{ASCII}]/;`},
		{"a RegExp call's string is left to the wrapper", `new RegExp("[\\p{ASCII}]", "u")`, `new RegExp("[\\p{ASCII}]", "u")`},
		{"unknown property kept", `/[\p{NoSuchThing}]/u`, `/[\p{NoSuchThing}]/u`},
		{"code goja cannot parse is kept", `/[\p{ASCII}]/u; )(`, `/[\p{ASCII}]/u; )(`},
		{"nested in functions and templates", "x = () => `${[/[\\p{ASCII}]/u][0]}`;\ny = 1 / 2;", "x = () => `${[/[\\u{0}-\\u{7F}]/u][0]}`;\ny = 1 / 2;"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := lowerClassPropertyEscapes(c.in)
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if strings.Count(got, "\n") != strings.Count(c.in, "\n") {
				t.Errorf("line count changed: the inline source map would be off")
			}
		})
	}
}

func TestHasBarePropertyEscape(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		`/[\p{L}]/u`:          true,
		`/\\\P{L}/u`:          true,
		`"\\p{L}"`:            false,
		`"\\\\p{L}" + "\\P{"`: false,
		`plain code`:          false,
	} {
		if got := hasBarePropertyEscape(in); got != want {
			t.Errorf("hasBarePropertyEscape(%s) = %v, want %v", in, got, want)
		}
	}
}
