package interactive

import (
	"fmt"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/editor"
)

// BenchmarkKeypressFrame is the UI work of one typed key with a long
// session on screen: the editor takes the key, then a frame renders the
// dock and the transcript rows in a 40-row window at the bottom. It must
// not grow with the session (compare the sizes).
func BenchmarkKeypressFrame(b *testing.B) {
	for _, n := range []int{20, 2000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			v := testView()
			tr := newTranscript(v)
			for i := range n / 2 {
				tr.addMessage(&engine.Message{Role: engine.RoleUser, Content: engine.StringContents(fmt.Sprintf("question %d about something", i))}, false)
				tr.addMessage(assistant(engine.TextContent(fmt.Sprintf("Answer %d: a reply long enough to wrap over more than one row of the terminal at eighty columns, with some more words.", i))), false)
			}
			km, _ := buildKeymap("")
			ed := editor.New(km, editor.Options{})
			foot := &footer{v: v, cwd: "/tmp/project", statuses: map[string]string{}}
			dock := &tui.Container{}
			dock.Add(&pendingArea{v: v}, ed, foot)
			const width, height = 120, 40
			tr.Height(width)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				ed.HandleKey(tui.Key{Code: "a", Text: "a"})
				if i%64 == 63 {
					ed.SetText("")
				}
				d := dock.Render(width)
				h := tr.Height(width)
				rows := tr.RenderRange(width, h-(height-len(d)), h)
				if len(rows) == 0 {
					b.Fatal("no rows")
				}
			}
		})
	}
}

// BenchmarkStreamDelta is the UI work of one streamed text delta at the
// end of a long session: the reply's item takes the new partial, and a
// frame renders the bottom 40 rows. It must not grow with the session.
func BenchmarkStreamDelta(b *testing.B) {
	for _, n := range []int{20, 2000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			v := testView()
			tr := newTranscript(v)
			for i := range n / 2 {
				tr.addMessage(&engine.Message{Role: engine.RoleUser, Content: engine.StringContents(fmt.Sprintf("question %d", i))}, false)
				tr.addMessage(assistant(engine.TextContent(fmt.Sprintf("Answer %d with a few words in it.", i))), false)
			}
			const width = 120
			partial := assistant(engine.TextContent(""))
			tr.Handle(engine.MessageStart{Message: partial})
			tr.Height(width)
			text := ""
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if i%200 == 0 {
					text = "" // a new paragraph block every 200 deltas keeps the reply bounded
				}
				text += "word "
				m := assistant(engine.TextContent("Intro paragraph.\n\n" + text))
				tr.Handle(engine.MessageUpdate{Message: m})
				h := tr.Height(width)
				if rows := tr.RenderRange(width, h-40, h); len(rows) == 0 {
					b.Fatal("no rows")
				}
			}
		})
	}
}
