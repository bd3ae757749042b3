package jsruntime

import "testing"

func TestV8Message(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, msg, line string
		col             int
		want            string
	}{
		{"read", "Cannot read property 'x' of undefined", "", 0, "Cannot read properties of undefined (reading 'x')"},
		{"read in a call chain", "Cannot read property 'c' of undefined or null", "a.b.c()", 2, "Cannot read properties of undefined (reading 'c')"},
		{"set", "Cannot convert undefined or null to object", "  cfg.opts.mode = 1;", 11, "Cannot set properties of undefined (setting 'mode')"},
		{"comparison is no assignment", "Cannot convert undefined or null to object", "  if (Object.keys(x) == 1) {}", 6, "Cannot convert undefined or null to object"},
		{"call", "Object has no member 'run'", "  await this.tools.run(args);", 23, "this.tools.run is not a function"},
		{"call of a variable", "Value is not an object: undefined", "  const r = handler(ev);", 20, "handler is not a function"},
		{"new", "Value is not an object: 5", "x = new Thing(1);", 4, "Thing is not a constructor"},
		{"a call further on is another expression", "Value is not an object: 5", "  x = a in b; run();", 5, "Value is not an object: 5"},
		{"no site", "Value is not an object: 5", "", 0, "Value is not an object: 5"},
		{"iterable", "object is not iterable", "  for (const t of this.items) {", 18, "this.items is not iterable"},
		{"tdz", "Cannot access a variable before initialization", "  return typeof later;", 9, "Cannot access 'later' before initialization"},
		{"other messages pass through", "Assignment to constant variable.", "c = 2", 1, "Assignment to constant variable."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := v8Message(c.msg, c.line, c.col); got != c.want {
				t.Errorf("v8Message(%q, %q, %d) = %q, want %q", c.msg, c.line, c.col, got, c.want)
			}
		})
	}
}

// TestV8WordingReachesHost checks the errors the host reads itself: a
// throwing timer and an unhandled rejection are reported in V8's words.
func TestV8WordingReachesHost(t *testing.T) {
	t.Parallel()
	h := runTS(t, map[string]string{"ext.ts": `export default function () {
  const cfg: any = {};
  setTimeout(() => { cfg.opts.mode; }, 1);
  Promise.resolve().then(() => cfg.run());
}
`})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	// Both are reported on the loop before it goes idle.
	got := map[string]bool{}
	for _, e := range h.extErrors() {
		got[e.Error] = true
	}
	for _, w := range []string{"Cannot read properties of undefined (reading 'mode')", "cfg.run is not a function"} {
		if !got[w] {
			t.Errorf("no extension error %q in %v", w, h.extErrors())
		}
	}
}
