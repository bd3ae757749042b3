package editor

import (
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/tui"
)

// BenchmarkTypeAndRender is the cost of one keystroke in a 200-line
// prompt: the edit plus the frame it invalidates.
func BenchmarkTypeAndRender(b *testing.B) {
	km, _ := tui.NewKeymap(tui.DefaultKeys())
	e := New(km, Options{})
	e.SetFocused(true)
	e.SetText(strings.Repeat("some words that wrap around the edge of a narrow terminal window\n", 200))
	k := tui.Key{Code: "a", Text: "a", Raw: "a"}
	b.ReportAllocs()
	for b.Loop() {
		e.HandleKey(k)
		e.Render(100)
	}
}

// BenchmarkRenderCached is a frame that did not change the editor.
func BenchmarkRenderCached(b *testing.B) {
	km, _ := tui.NewKeymap(tui.DefaultKeys())
	e := New(km, Options{})
	e.SetText(strings.Repeat("line\n", 200))
	e.Render(100)
	b.ReportAllocs()
	for b.Loop() {
		e.Render(100)
	}
}

// BenchmarkDecode is the decoder on a mixed stream of typed text,
// arrows and a Kitty key.
func BenchmarkDecode(b *testing.B) {
	in := []byte(strings.Repeat("hello \x1b[A\x1b[1;5C\x1b[97;5u", 20))
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		d := tui.NewDecoder()
		d.Feed(in)
	}
}
