package tuitest_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/tui"
	"github.com/pi-go/pi/engine/tui/tuitest"
)

func testPNG(t *testing.T, w, h int) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// imageBody is text rows with a Kitty image in the middle.
type imageBody struct {
	before, after []string
	img           *tui.Image
}

func (b *imageBody) Render(w int) []string {
	out := append([]string(nil), b.before...)
	out = append(out, b.img.Render(w)...)
	return append(out, b.after...)
}

// Regular mode writes a Kitty image once, after the blank rows it covers,
// and leaves it alone while the rows below it change; the emulator shows
// the text around it intact.
func TestRegularKittyImage(t *testing.T) {
	t.Parallel()
	term := tuitest.NewTerm(40, 20)
	img := tui.NewImage(testPNG(t, 90, 36), "image/png", tui.ImageOptions{Protocol: tui.ImagesKitty, MaxWidthCells: 10})
	body := &imageBody{before: []string{"above"}, after: []string{"below 1"}, img: img}
	dock := &rowsBody{rows: []string{"-- dock --"}}
	r := tuitest.Start(t, term, tui.ProgramOptions{}, func(p *tui.Program) {
		p.SetBody(body)
		p.SetDock(dock)
	}, nil)
	out := term.Output()
	if n := strings.Count(out, "\x1b_Ga=T"); n != 1 {
		t.Fatalf("image written %d times", n)
	}
	if got := term.ScreenText(); got != "above\n\n\nbelow 1\n-- dock --" {
		t.Fatalf("screen:\n%q", got)
	}
	// The image (2 rows) is placed after its blank rows were written.
	at := strings.Index(out, "\x1b_Ga=T")
	if !strings.Contains(out[:at], "below 1") {
		t.Fatal("the image was written before the rows after it")
	}
	term.ResetOutput()
	r.Do(func() { body.after = []string{"below 2"}; r.P.RequestRender() })
	if strings.Contains(term.Output(), "\x1b_G") {
		t.Fatalf("a change below the image rewrote it: %q", term.Output())
	}
	// A reprint takes the old images down before drawing again.
	term.ResetOutput()
	r.Do(func() { r.P.Reprint() })
	out = term.Output()
	if del, draw := strings.Index(out, tui.KittyDeleteAll), strings.Index(out, "\x1b_Ga=T"); del < 0 || draw < del {
		t.Fatalf("reprint: delete at %d, draw at %d", del, draw)
	}
}

// Fullscreen re-places Kitty images when they move (scrolling), after
// deleting the old placements, and cuts one that reaches the dock.
func TestFullscreenKittyImage(t *testing.T) {
	t.Parallel()
	img := tui.NewImage(testPNG(t, 90, 90), "image/png", tui.ImageOptions{Protocol: tui.ImagesKitty, MaxWidthCells: 8})
	body := &imageBody{before: numbered("row", 3), after: numbered("after", 30), img: img}
	dock := &rowsBody{rows: []string{"-- dock --"}}
	term, r := startFull(t, 40, 10, tui.ProgramOptions{}, body, dock)
	r.Do(func() { r.P.ScrollToTop() })
	term.ResetOutput()
	r.Do(func() { r.P.RequestRender() })
	r.Do(func() { r.P.ScrollBy(1) })
	out := term.Output()
	if del, draw := strings.Index(out, tui.KittyDeletePlacements), strings.LastIndex(out, "\x1b_Ga=T"); del < 0 || draw < del {
		t.Fatalf("scroll: delete at %d, draw at %d in %q", del, draw, out)
	}
	// The image is 4 rows: starting on row 6 of a 9-row window whose
	// last row is the jump label, only 2 of them show.
	r.Do(func() { r.P.ScrollToTop() })
	term.ResetOutput()
	r.Do(func() { body.before = numbered("row", 6); r.P.Reprint() })
	out = term.Output()
	if !strings.Contains(out, ",r=2;") {
		t.Fatalf("the image reaching the dock was not cut: %q", out)
	}
}

// A Kitty image whose top is scrolled above the window shows its lower
// part from the window's first row.
func TestFullscreenKittyImageTopCut(t *testing.T) {
	t.Parallel()
	img := tui.NewImage(testPNG(t, 90, 90), "image/png", tui.ImageOptions{Protocol: tui.ImagesKitty, MaxWidthCells: 8})
	body := &imageBody{before: numbered("row", 3), after: numbered("after", 30), img: img}
	term, r := startFull(t, 40, 10, tui.ProgramOptions{}, body, &rowsBody{rows: []string{"dock"}})
	// The image is 4 rows at rows 3-6; with the window from row 5, its
	// last 2 rows show.
	r.Do(func() { r.P.ScrollToTop(); r.P.ScrollBy(5) })
	term.ResetOutput()
	r.Do(func() { r.P.Reprint() })
	if out := term.Output(); !strings.Contains(out, ",r=2;") || !strings.Contains(out, ",y=") {
		t.Fatalf("no lower part of the image: %q", out)
	}
}
