package tui

import (
	"fmt"
	"testing"
)

// countTerm is a terminal that only counts the bytes written.
type countTerm struct{ w, h, n int }

func (t *countTerm) Write(p []byte) (int, error) { t.n += len(p); return len(p), nil }
func (t *countTerm) Size() (int, int, error)     { return t.w, t.h, nil }

// transcript builds a Column of n messages of a few wrapped rows each.
func transcript(n int) *Column {
	c := NewColumn()
	for i := range n {
		c.Add(NewText(fmt.Sprintf("message %d: %s", i, sample), 1, 1, nil))
	}
	return c
}

// BenchmarkKeystroke is one typed character in the dock's input with a
// long body: bytes written and time per frame must not grow with the
// body (compare body=100 and body=2000).
func BenchmarkKeystroke(b *testing.B) {
	for _, full := range []bool{false, true} {
		for _, n := range []int{100, 2000} {
			name := fmt.Sprintf("%s/body=%d", map[bool]string{false: "regular", true: "fullscreen"}[full], n)
			b.Run(name, func(b *testing.B) {
				term := &countTerm{w: 120, h: 40}
				km := testKeymap(b)
				p := NewProgram(term, nil, ProgramOptions{Fullscreen: full, Scrollbar: true})
				in := NewInput(km)
				p.SetBody(transcript(n))
				p.SetDock(in)
				p.SetFocus(in)
				p.running = true
				p.Render()
				term.n = 0
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					if i%50 == 49 {
						in.SetValue("") // keep the line short so every frame is alike
					}
					p.dispatch(Key{Code: "a", Text: "a", Raw: "a"})
					p.Render()
				}
				b.ReportMetric(float64(term.n)/float64(b.N), "bytes/frame")
			})
		}
	}
}

// BenchmarkStreamingDelta grows the last message of a long body by a
// few words per frame (a streamed reply), both renderers.
func BenchmarkStreamingDelta(b *testing.B) {
	for _, full := range []bool{false, true} {
		b.Run(map[bool]string{false: "regular", true: "fullscreen"}[full], func(b *testing.B) {
			term := &countTerm{w: 120, h: 40}
			p := NewProgram(term, nil, ProgramOptions{Fullscreen: full})
			col := transcript(2000)
			last := NewText("", 1, 0, nil)
			col.Add(last)
			p.SetBody(col)
			p.SetDock(Lines{"── editor ──", "", "footer"})
			p.running = true
			p.Render()
			term.n = 0
			text := ""
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if i%200 == 0 {
					text = ""
				}
				text += "streamed words "
				last.SetText(text)
				col.Changed(col.Len() - 1)
				p.Render()
			}
			b.ReportMetric(float64(term.n)/float64(b.N), "bytes/frame")
		})
	}
}
