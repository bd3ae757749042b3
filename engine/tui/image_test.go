package tui

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

// pngOf is a w x h PNG in base64.
func pngOf(t testing.TB, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

func TestDetectImageProtocol(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want ImageProtocol
	}{
		{map[string]string{"TERM": "xterm-256color"}, ImagesNone},
		{map[string]string{"KITTY_WINDOW_ID": "1"}, ImagesKitty},
		{map[string]string{"TERM_PROGRAM": "ghostty"}, ImagesKitty},
		{map[string]string{"TERM": "xterm-ghostty"}, ImagesKitty},
		{map[string]string{"WEZTERM_PANE": "3"}, ImagesKitty},
		{map[string]string{"TERM_PROGRAM": "WarpTerminal"}, ImagesKitty},
		{map[string]string{"TERM_PROGRAM": "orca"}, ImagesNone},
		{map[string]string{"TERM_PROGRAM": "orca", "ORCA_IMAGE_PROTOCOL": "kitty"}, ImagesKitty},
		{map[string]string{"ITERM_SESSION_ID": "w0"}, ImagesITerm2},
		{map[string]string{"TERM_PROGRAM": "iTerm.app"}, ImagesITerm2},
		{map[string]string{"TERM_PROGRAM": "vscode"}, ImagesNone},
		// tmux hides the outer terminal: no images, even in kitty.
		{map[string]string{"KITTY_WINDOW_ID": "1", "TMUX": "/tmp/tmux"}, ImagesNone},
		{map[string]string{"KITTY_WINDOW_ID": "1", "TERM": "screen-256color"}, ImagesNone},
		{map[string]string{"TMUX": "x", "PI_IMAGE_PROTOCOL": "kitty"}, ImagesKitty},
		{map[string]string{"KITTY_WINDOW_ID": "1", "PI_IMAGE_PROTOCOL": "none"}, ImagesNone},
		{map[string]string{"PI_IMAGE_PROTOCOL": "iTerm2"}, ImagesITerm2},
	} {
		if got := DetectImageProtocol(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestImageSize(t *testing.T) {
	t.Parallel()
	p, _ := base64.StdEncoding.DecodeString(pngOf(t, 37, 11))
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, image.NewRGBA(image.Rect(0, 0, 20, 30)), nil); err != nil {
		t.Fatal(err)
	}
	gif := []byte("GIF89a\x05\x00\x07\x00")
	for _, tc := range []struct {
		data []byte
		mime string
		w, h int
		ok   bool
	}{
		{p, "image/png", 37, 11, true},
		{jb.Bytes(), "image/jpeg", 20, 30, true},
		{gif, "image/gif", 5, 7, true},
		{p, "image/jpeg", 0, 0, false},
		{[]byte("nope"), "image/webp", 0, 0, false},
	} {
		w, h, ok := ImageSize(tc.data, tc.mime)
		if w != tc.w || h != tc.h || ok != tc.ok {
			t.Errorf("%s: %d x %d %v, want %d x %d %v", tc.mime, w, h, ok, tc.w, tc.h, tc.ok)
		}
	}
}

func TestImageCells(t *testing.T) {
	t.Parallel()
	cell := CellSize{Width: 9, Height: 18}
	for _, tc := range []struct {
		w, h, maxC, maxR int
		least            bool
		cols, rows       int
	}{
		{900, 900, 60, 0, false, 60, 30},   // square: half as many rows as columns
		{1800, 180, 60, 0, false, 60, 3},   // wide
		{90, 90, 60, 0, false, 60, 30},     // small images are scaled up to the width
		{900, 1800, 60, 30, false, 30, 30}, // tall: the height limit wins
		{1000, 333, 10, 0, true, 10, 2},    // 1.85 rows: Kitty picks the less distorting 2
		{1000, 600, 10, 0, true, 10, 3},    // 3.33 rows: 3 distorts less than 4
	} {
		c, r := ImageCells(tc.w, tc.h, tc.maxC, tc.maxR, cell, tc.least)
		if c != tc.cols || r != tc.rows {
			t.Errorf("%dx%d in %dx%d: %d x %d, want %d x %d", tc.w, tc.h, tc.maxC, tc.maxR, c, r, tc.cols, tc.rows)
		}
	}
}

func TestEncodeKittyChunks(t *testing.T) {
	t.Parallel()
	small := EncodeKitty("QUJD", 4, 2, 9)
	if small != "\x1b_Ga=T,f=100,q=2,C=1,c=4,r=2,i=9;QUJD\x1b\\" {
		t.Fatalf("small: %q", small)
	}
	big := EncodeKitty(strings.Repeat("A", 4096*2+10), 4, 2, 0)
	parts := strings.Split(strings.TrimSuffix(big, "\x1b\\"), "\x1b\\")
	if len(parts) != 3 || !strings.HasPrefix(parts[0], "\x1b_Ga=T,f=100,q=2,C=1,c=4,r=2,m=1;") ||
		!strings.HasPrefix(parts[1], "\x1b_Gm=1;") || parts[2] != "\x1b_Gm=0;"+strings.Repeat("A", 10) {
		t.Fatalf("chunks: %d %q", len(parts), []string{parts[0][:40], parts[1][:10], parts[len(parts)-1]})
	}
	if got := EncodeITerm2("QUJD", 5); got != "\x1b]1337;File=inline=1;size=3;width=5;height=auto:QUJD\a" {
		t.Fatalf("iterm2: %q", got)
	}
}

func TestImageRenderByProtocol(t *testing.T) {
	t.Parallel()
	data := pngOf(t, 180, 90)
	kitty := NewImage(data, "image/png", ImageOptions{Protocol: ImagesKitty, MaxWidthCells: 20}).Render(80)
	if len(kitty) != 5 || !strings.HasPrefix(kitty[0], "\x1b_Ga=T,f=100,q=2,C=1,c=20,r=5,i=") || kitty[1] != "" {
		t.Fatalf("kitty rows: %d %q", len(kitty), kitty[0][:min(50, len(kitty[0]))])
	}
	if KittyRows(kitty[0]) != 5 || !IsImageLine(kitty[0]) || IsImageLine("text") {
		t.Fatal("kitty line not recognised")
	}
	it := NewImage(data, "image/png", ImageOptions{Protocol: ImagesITerm2, MaxWidthCells: 20}).Render(80)
	if len(it) != 5 || it[0] != "" || !strings.HasPrefix(it[4], "\x1b[4A\x1b]1337;File=inline=1;") {
		t.Fatalf("iterm2 rows: %q", it)
	}
	// The width keeps 2 cells inside the line.
	narrow := NewImage(data, "image/png", ImageOptions{Protocol: ImagesKitty}).Render(12)
	if !strings.Contains(narrow[0], ",c=10,") {
		t.Fatalf("narrow: %q", narrow[0][:50])
	}
	none := NewImage(data, "image/png", ImageOptions{Fallback: func(s string) string { return "<" + s + ">" }}).Render(80)
	if len(none) != 1 || none[0] != "<[Image: [image/png] 180x90]>" {
		t.Fatalf("placeholder: %q", none)
	}
	// JPEG goes to Kitty as PNG.
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, image.NewRGBA(image.Rect(0, 0, 18, 18)), nil); err != nil {
		t.Fatal(err)
	}
	jl := NewImage(base64.StdEncoding.EncodeToString(jb.Bytes()), "image/jpeg", ImageOptions{Protocol: ImagesKitty, MaxWidthCells: 4}).Render(80)
	payload := jl[0][strings.IndexByte(jl[0], ';')+1:]
	if head, _ := base64.StdEncoding.DecodeString(payload[:12]); !bytes.HasPrefix(head, []byte("\x89PNG")) {
		t.Fatalf("jpeg not converted: %q", payload[:12])
	}
	// WebP cannot be converted here: the placeholder, as without a transcoder.
	webp := NewImage("UklGRg==", "image/webp", ImageOptions{Protocol: ImagesKitty}).Render(80)
	if len(webp) != 1 || webp[0] != "[Image: [image/webp]]" {
		t.Fatalf("webp: %q", webp)
	}
}

func TestImageFallbackAndCrop(t *testing.T) {
	t.Parallel()
	if got := ImageFallback("image/png", 3, 4, "rel/a.png", true); got != "[Image: rel/a.png [image/png] 3x4]" {
		t.Errorf("relative: %q", got)
	}
	if got := ImageFallback("image/png", 3, 4, "/abs/a.png", true); got != "[Image: "+Hyperlink("/abs/a.png", "file:///abs/a.png")+" [image/png] 3x4]" {
		t.Errorf("linked: %q", got)
	}
	line := NewImage(pngOf(t, 90, 180), "image/png", ImageOptions{Protocol: ImagesKitty, MaxWidthCells: 10, MaxHeightCells: 20}).Render(80)[0]
	if KittyRows(line) != 10 {
		t.Fatalf("rows %d", KittyRows(line))
	}
	cut := cropKittyLine(line, 0, 4)
	if KittyRows(cut) != 4 || !strings.Contains(cut, ",y=0,h=72,r=4;") {
		t.Fatalf("crop: %q", cut[:60])
	}
	// The lower part: 6 rows hidden above the window, 4 shown.
	if low := cropKittyLine(line, 6, 10); KittyRows(low) != 4 || !strings.Contains(low, ",y=108,h=72,r=4;") {
		t.Fatalf("lower crop: %q", low[:60])
	}
	if cropKittyLine(line, 0, 10) != line || cropKittyLine("plain", 0, 2) != "plain" {
		t.Fatal("crop changed a line that fits")
	}
	if c, ok := (Reply{Raw: "\x1b[6;20;10t"}).CellSizeReply(); !ok || c != (CellSize{Width: 10, Height: 20}) {
		t.Fatalf("cell size %v %v", c, ok)
	}
	if _, ok := (Reply{Raw: "\x1b[6;0;10t"}).CellSizeReply(); ok {
		t.Fatal("zero cell size accepted")
	}
}
