package jsruntime

import (
	"slices"
	"testing"
)

// TestRequiredModules checks the scan that finds the host modules a bundle
// requires (the prewarmer compiles them in the background).
func TestRequiredModules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      []string
	}{
		{"none", `const x = 1;`, nil},
		{"esbuild imports", "var import_fs = require(\"fs\");\nvar import_pi_tui = require(\"@earendil-works/pi-tui\");", []string{"fs", "@earendil-works/pi-tui"}},
		{"not a plain call", `require(name); require("a" + b); require("")`, nil},
		{"unterminated", `require("typebox`, nil},
		{"newline inside", "require(\"a\nb\"); require(\"c\")", []string{"c"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := requiredModules(tc.src); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCompileWrappedShares checks that a program is compiled once per
// name, wrapper and source, and that the wrapper is part of the key.
func TestCompileWrappedShares(t *testing.T) {
	t.Parallel()
	src := "exports.x = 1; // TestCompileWrappedShares"
	a, err := compileWrapped("test:shares", wrapModule, src, false)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := compileWrapped("test:shares", wrapModule, src, false)
	c, _ := compileWrapped("test:shares", wrapBundle, src, false)
	if a != b {
		t.Error("same key compiled twice")
	}
	if a == c {
		t.Error("different wrappers share a program")
	}
}
