package config

import "testing"

// TestResolveValueErr checks the reference's wording for values that do
// not resolve, and that resolvable ones do.
func TestResolveValueErr(t *testing.T) {
	t.Setenv("PI_RVE_SET", "v")
	t.Setenv("PI_RVE_EMPTY", "")
	cases := []struct{ in, want, err string }{
		{"Bearer ${PI_RVE_SET}", "Bearer v", ""},
		{"$PI_RVE_SET-$$", "v-$", ""},
		{"${PI_RVE_UNSET}", "", `Failed to resolve X from environment variable: PI_RVE_UNSET`},
		{"$PI_RVE_EMPTY ${PI_RVE_UNSET} $PI_RVE_EMPTY", "", `Failed to resolve X from environment variables: PI_RVE_EMPTY, PI_RVE_UNSET`},
		{"!printf ok", "ok", ""},
		{"!true", "", `Failed to resolve X from shell command: true`},
	}
	for _, c := range cases {
		got, err := ResolveValueErr(c.in, "X")
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
