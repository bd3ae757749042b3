package tui

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	_ "image/gif"  // decoded for Kitty, which takes only PNG
	_ "image/jpeg" // decoded for Kitty, which takes only PNG
	"image/png"
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
)

// ImageProtocol is how the terminal draws inline images: "kitty" (the
// Kitty graphics protocol: kitty, ghostty, WezTerm, Warp, rex, herdr,
// Orca), "iterm2" (OSC 1337 File=), or "" when it cannot, and images are
// shown as a text placeholder.
type ImageProtocol string

const (
	ImagesNone   ImageProtocol = ""
	ImagesKitty  ImageProtocol = "kitty"
	ImagesITerm2 ImageProtocol = "iterm2"
)

// DetectImageProtocol decides the image protocol from the environment, as
// the reference does: PI_IMAGE_PROTOCOL (kitty, iterm2, none or 0) wins;
// inside tmux and screen there are none (their image passthrough is
// unreliable); then the terminal is recognised by its variables. getenv is
// os.Getenv in production.
func DetectImageProtocol(getenv func(string) string) ImageProtocol {
	switch strings.ToLower(getenv("PI_IMAGE_PROTOCOL")) {
	case "kitty":
		return ImagesKitty
	case "iterm2":
		return ImagesITerm2
	case "none", "0":
		return ImagesNone
	}
	prog := strings.ToLower(getenv("TERM_PROGRAM"))
	term := strings.ToLower(getenv("TERM"))
	switch {
	case getenv("TMUX") != "", strings.HasPrefix(term, "tmux"), strings.HasPrefix(term, "screen"):
		return ImagesNone
	case prog == "herdr", prog == "rex",
		prog == "orca" && getenv("ORCA_IMAGE_PROTOCOL") == "kitty",
		getenv("KITTY_WINDOW_ID") != "", prog == "kitty",
		prog == "ghostty", strings.Contains(term, "ghostty"), getenv("GHOSTTY_RESOURCES_DIR") != "",
		getenv("WEZTERM_PANE") != "", prog == "wezterm",
		prog == "warpterminal", getenv("WARP_SESSION_ID") != "", getenv("WARP_TERMINAL_SESSION_UUID") != "":
		return ImagesKitty
	case getenv("ITERM_SESSION_ID") != "", prog == "iterm.app":
		return ImagesITerm2
	}
	return ImagesNone
}

// CellSize is a terminal cell in pixels; the terminal reports it (CSI 16 t
// answered by CSI 6;h;w t), and 9x18 stands in until it does.
type CellSize struct{ Width, Height int }

// DefaultCellSize is the cell size assumed before the terminal reports one.
var DefaultCellSize = CellSize{Width: 9, Height: 18}

// CellSizeQuery asks the terminal for its cell size in pixels.
const CellSizeQuery = "\x1b[16t"

// CellSizeReply reads the answer to CellSizeQuery (CSI 6;height;width t).
func (r Reply) CellSizeReply() (CellSize, bool) {
	s, ok := strings.CutPrefix(r.Raw, "\x1b[6;")
	if !ok {
		return CellSize{}, false
	}
	s, ok = strings.CutSuffix(s, "t")
	if !ok {
		return CellSize{}, false
	}
	hs, ws, ok := strings.Cut(s, ";")
	h, err1 := strconv.Atoi(hs)
	w, err2 := strconv.Atoi(ws)
	if !ok || err1 != nil || err2 != nil || h <= 0 || w <= 0 {
		return CellSize{}, false
	}
	return CellSize{Width: w, Height: h}, true
}

// ImageSize reads an image's pixel size from its header (PNG, JPEG, GIF,
// WebP); ok is false for anything else or a damaged header.
func ImageSize(data []byte, mimeType string) (w, h int, ok bool) {
	switch mimeType {
	case "image/png":
		if len(data) >= 24 && bytes.HasPrefix(data, []byte("\x89PNG")) {
			return int(binary.BigEndian.Uint32(data[16:])), int(binary.BigEndian.Uint32(data[20:])), true
		}
	case "image/jpeg":
		return jpegSize(data)
	case "image/gif":
		if len(data) >= 10 && (bytes.HasPrefix(data, []byte("GIF87a")) || bytes.HasPrefix(data, []byte("GIF89a"))) {
			return int(binary.LittleEndian.Uint16(data[6:])), int(binary.LittleEndian.Uint16(data[8:])), true
		}
	case "image/webp":
		return webpSize(data)
	}
	return 0, 0, false
}

func jpegSize(b []byte) (int, int, bool) {
	if len(b) < 2 || b[0] != 0xff || b[1] != 0xd8 {
		return 0, 0, false
	}
	off := 2
	for off < len(b)-9 {
		if b[off] != 0xff {
			off++
			continue
		}
		marker := b[off+1]
		if marker >= 0xc0 && marker <= 0xc2 {
			return int(binary.BigEndian.Uint16(b[off+7:])), int(binary.BigEndian.Uint16(b[off+5:])), true
		}
		n := int(binary.BigEndian.Uint16(b[off+2:]))
		if n < 2 {
			return 0, 0, false
		}
		off += 2 + n
	}
	return 0, 0, false
}

func webpSize(b []byte) (int, int, bool) {
	if len(b) < 30 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	switch string(b[12:16]) {
	case "VP8 ":
		return int(binary.LittleEndian.Uint16(b[26:]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:]) & 0x3fff), true
	case "VP8L":
		bits := binary.LittleEndian.Uint32(b[21:])
		return int(bits&0x3fff) + 1, int((bits>>14)&0x3fff) + 1, true
	case "VP8X":
		return int(b[24]) | int(b[25])<<8 | int(b[26])<<16 + 1, int(b[27]) | int(b[28])<<8 | int(b[29])<<16 + 1, true
	}
	return 0, 0, false
}

// ImageCells is how many cells an image of w x h pixels takes when it
// may be at most maxCols wide and maxRows high (0: unbounded), scaled
// to fit and kept in proportion. For Kitty, which stretches the image
// over whole cells, the row or column count that distorts it least is
// chosen (the reference's choice).
func ImageCells(w, h, maxCols, maxRows int, cell CellSize, leastDistorted bool) (cols, rows int) {
	maxCols = max(1, maxCols)
	w, h = max(1, w), max(1, h)
	if cell.Width <= 0 || cell.Height <= 0 {
		cell = DefaultCellSize
	}
	widthScale := float64(maxCols*cell.Width) / float64(w)
	heightScale := widthScale
	if maxRows > 0 {
		heightScale = float64(maxRows*cell.Height) / float64(h)
	}
	scale := math.Min(widthScale, heightScale)
	cols = max(1, min(maxCols, int(math.Ceil(float64(w)*scale/float64(cell.Width)))))
	rows = max(1, int(math.Ceil(float64(h)*scale/float64(cell.Height))))
	if maxRows > 0 {
		rows = min(maxRows, rows)
	}
	if !leastDistorted {
		return cols, rows
	}
	pick := func(upper int, ideal float64) int {
		if upper <= 1 {
			return upper
		}
		lower := upper - 1
		du := math.Max(float64(upper)/ideal, ideal/float64(upper))
		dl := math.Max(float64(lower)/ideal, ideal/float64(lower))
		if dl < du {
			return lower
		}
		return upper
	}
	if widthScale <= heightScale {
		rows = pick(rows, float64(cols*cell.Width*h)/float64(w*cell.Height))
	} else {
		cols = pick(cols, float64(rows*cell.Height*w)/float64(h*cell.Width))
	}
	return cols, rows
}

// Kitty graphics commands. Every one has q=2 so the terminal sends no
// answer that would reach the editor as input.
const (
	kittyPrefix  = "\x1b_G"
	iterm2Prefix = "\x1b]1337;File="
	// KittyDeletePlacements removes every visible Kitty image placement
	// and keeps the images' data.
	KittyDeletePlacements = "\x1b_Ga=d,d=a,q=2\x1b\\"
	// KittyDeleteAll removes every Kitty image and frees its data.
	KittyDeleteAll = "\x1b_Ga=d,d=A,q=2\x1b\\"
)

// EncodeKitty is a Kitty "transmit and display" command for PNG data
// (base64), cols x rows cells, the cursor left where it was (C=1), in
// 4096-byte chunks as the protocol requires.
func EncodeKitty(b64 string, cols, rows int, id uint32) string {
	const chunk = 4096
	params := "a=T,f=100,q=2,C=1"
	if cols > 0 {
		params += ",c=" + strconv.Itoa(cols)
	}
	if rows > 0 {
		params += ",r=" + strconv.Itoa(rows)
	}
	if id != 0 {
		params += ",i=" + strconv.FormatUint(uint64(id), 10)
	}
	if len(b64) <= chunk {
		return kittyPrefix + params + ";" + b64 + "\x1b\\"
	}
	var b strings.Builder
	for off := 0; off < len(b64); off += chunk {
		end := min(off+chunk, len(b64))
		switch {
		case off == 0:
			b.WriteString(kittyPrefix + params + ",m=1;")
		case end == len(b64):
			b.WriteString(kittyPrefix + "m=0;")
		default:
			b.WriteString(kittyPrefix + "m=1;")
		}
		b.WriteString(b64[off:end])
		b.WriteString("\x1b\\")
	}
	return b.String()
}

// EncodeITerm2 is an iTerm2 inline-image command (OSC 1337 File=) for
// data (base64) cols cells wide, its height following the proportions.
func EncodeITerm2(b64 string, cols int) string {
	size := base64.StdEncoding.DecodedLen(len(b64)) - strings.Count(b64[max(0, len(b64)-2):], "=")
	return iterm2Prefix + "inline=1;size=" + strconv.Itoa(size) + ";width=" + strconv.Itoa(cols) + ";height=auto:" + b64 + "\a"
}

// IsImageLine reports whether a rendered line draws an image: renderers
// never cut such a line to the width, and redraw images when one moves.
func IsImageLine(line string) bool {
	return strings.Contains(line, kittyPrefix) || strings.Contains(line, iterm2Prefix)
}

// KittyRows is how many rows the Kitty image placed on line covers (its
// r= control), 0 when the line places none.
func KittyRows(line string) int {
	i := strings.Index(line, kittyPrefix)
	if i < 0 {
		return 0
	}
	controls, _, _ := strings.Cut(line[i+len(kittyPrefix):], ";")
	for _, c := range strings.Split(controls, ",") {
		if v, ok := strings.CutPrefix(c, "r="); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 1
}

// ImageFallback is the text shown for an image the terminal cannot draw:
// "[Image: <path> [mime] WxH]", the path shortened to ~ and, when
// hyperlinks are on and it is absolute, linked to the file.
func ImageFallback(mimeType string, w, h int, filename string, hyperlinks bool) string {
	var parts []string
	if filename != "" {
		display := filename
		if home, err := os.UserHomeDir(); err == nil && home != "" && (filename == home || strings.HasPrefix(filename, home+string(filepath.Separator))) {
			display = "~" + filename[len(home):]
		}
		if hyperlinks && filepath.IsAbs(filename) {
			u := url.URL{Scheme: "file", Path: filepath.ToSlash(filename)}
			display = Hyperlink(display, u.String())
		}
		parts = append(parts, display)
	}
	parts = append(parts, "["+mimeType+"]")
	if w > 0 && h > 0 {
		parts = append(parts, strconv.Itoa(w)+"x"+strconv.Itoa(h))
	}
	return "[Image: " + strings.Join(parts, " ") + "]"
}

// Hyperlink wraps text in an OSC 8 link to target.
func Hyperlink(text, target string) string {
	return "\x1b]8;;" + target + "\x1b\\" + text + "\x1b]8;;\x1b\\"
}

// ImageOptions shape an Image.
type ImageOptions struct {
	// Protocol is the terminal's image protocol; ImagesNone shows the
	// placeholder.
	Protocol ImageProtocol
	// MaxWidthCells caps the width (60 when 0, the reference's default
	// terminal.imageWidthCells); the width is also kept 2 cells inside
	// the line.
	MaxWidthCells int
	// MaxHeightCells caps the height (0: as high as a square image that
	// wide would be).
	MaxHeightCells int
	// Cell is the terminal's cell size (DefaultCellSize when zero).
	Cell CellSize
	// Filename, when known, is shown in the placeholder.
	Filename string
	// Hyperlinks links the placeholder's path to the file.
	Hyperlinks bool
	// Fallback styles the placeholder (nil: unstyled).
	Fallback func(string) string
}

// Image draws an image inline (Kitty or iTerm2) or, where the terminal
// cannot, its placeholder. It caches its lines by width.
type Image struct {
	data     []byte // the image bytes
	b64      string // data as base64 (iTerm2), or the PNG's for Kitty
	mimeType string
	w, h     int
	o        ImageOptions
	id       uint32
	png      string // the Kitty PNG as base64, once converted
	pngTried bool
	cache    rowCache
}

// NewImage makes an image component from base64 data.
func NewImage(b64, mimeType string, o ImageOptions) *Image {
	data, _ := base64.StdEncoding.DecodeString(b64)
	im := &Image{data: data, b64: b64, mimeType: mimeType, o: o}
	var ok bool
	if im.w, im.h, ok = ImageSize(data, mimeType); !ok {
		im.w, im.h = 0, 0
	}
	return im
}

// SetOptions changes the options (a setting or the cell size changed).
func (im *Image) SetOptions(o ImageOptions) {
	im.o = o
	im.cache = rowCache{}
}

// Placeholder is the image's text form.
func (im *Image) Placeholder() string {
	return ImageFallback(im.mimeType, im.w, im.h, im.o.Filename, im.o.Hyperlinks)
}

// kittyData is the image as PNG in base64: Kitty's f=100 takes only PNG,
// so JPEG and GIF are converted once; "" when the image cannot be.
func (im *Image) kittyData() string {
	if im.mimeType == "image/png" {
		return im.b64
	}
	if !im.pngTried {
		im.pngTried = true
		if img, _, err := image.Decode(bytes.NewReader(im.data)); err == nil {
			var b bytes.Buffer
			if png.Encode(&b, img) == nil {
				im.png = base64.StdEncoding.EncodeToString(b.Bytes())
				bnd := img.Bounds()
				im.w, im.h = bnd.Dx(), bnd.Dy()
			}
		}
	}
	return im.png
}

// Render draws the image's rows: for Kitty the command on the first row
// and blank rows under it (the image covers them), for iTerm2 blank rows
// and, on the last, a cursor move back up to the first and the command,
// so the cursor ends inside the rows the image took, as the reference
// lays them out.
func (im *Image) Render(width int) []string {
	if r, ok := im.cache.get(width, 0); ok {
		return r
	}
	return im.cache.put(width, 0, im.render(width))
}

func (im *Image) render(width int) []string {
	maxW := im.o.MaxWidthCells
	if maxW <= 0 {
		maxW = 60
	}
	maxW = max(1, min(width-2, maxW))
	cell := im.o.Cell
	if cell.Width <= 0 || cell.Height <= 0 {
		cell = DefaultCellSize
	}
	maxH := im.o.MaxHeightCells
	if maxH <= 0 {
		maxH = max(1, int(math.Ceil(float64(maxW*cell.Width)/float64(cell.Height))))
	}
	w, h := im.w, im.h
	if w <= 0 || h <= 0 {
		w, h = 800, 600
	}
	switch im.o.Protocol {
	case ImagesKitty:
		data := im.kittyData()
		if data == "" {
			break
		}
		w, h = max(im.w, 1), max(im.h, 1)
		cols, rows := ImageCells(w, h, maxW, maxH, cell, true)
		if im.id == 0 {
			im.id = rand.Uint32N(0xfffffffe) + 1
		}
		out := make([]string, rows)
		out[0] = EncodeKitty(data, cols, rows, im.id)
		kittyDrawn.Store(true)
		return out
	case ImagesITerm2:
		cols, rows := ImageCells(w, h, maxW, maxH, cell, false)
		out := make([]string, rows)
		up := ""
		if rows > 1 {
			up = "\x1b[" + strconv.Itoa(rows-1) + "A"
		}
		out[rows-1] = up + EncodeITerm2(im.b64, cols)
		return out
	}
	text := im.Placeholder()
	if im.o.Fallback != nil {
		text = im.o.Fallback(text)
	}
	return []string{Truncate(text, width, "")}
}

// Invalidate drops the cached rows (the cell size changed).
func (im *Image) Invalidate() { im.cache.valid = false }

// cropKittyLine shows visible rows of the Kitty image placed on line,
// hidden rows down from its top (the rows above the window, or past the
// transcript's end that would cover the dock): the placement gets
// r=visible and the matching source rectangle of the image, in
// proportion. Lines without one, or whose image is not a readable PNG,
// are returned as they are.
func cropKittyLine(line string, hidden, visible int) string {
	i := strings.Index(line, kittyPrefix)
	rows := KittyRows(line)
	if i < 0 || visible <= 0 || hidden < 0 || hidden >= rows || (hidden == 0 && visible >= rows) {
		return line
	}
	visible = min(visible, rows-hidden)
	start := i + len(kittyPrefix)
	semi := strings.IndexByte(line[start:], ';')
	if semi < 0 {
		return line
	}
	payload := line[start+semi+1:]
	if len(payload) < 32 {
		return line
	}
	head, err := base64.StdEncoding.DecodeString(payload[:32])
	if err != nil || len(head) < 24 || !bytes.HasPrefix(head, []byte("\x89PNG")) {
		return line
	}
	hpx := int(binary.BigEndian.Uint32(head[20:]))
	y := hpx * hidden / rows
	end := int(math.Ceil(float64(hpx*(hidden+visible)) / float64(rows)))
	srcH := max(1, min(hpx, end)-y)
	var controls []string
	for _, c := range strings.Split(line[start:start+semi], ",") {
		if !strings.HasPrefix(c, "r=") && !strings.HasPrefix(c, "h=") && !strings.HasPrefix(c, "y=") {
			controls = append(controls, c)
		}
	}
	controls = append(controls, "y="+strconv.Itoa(y), "h="+strconv.Itoa(srcH), "r="+strconv.Itoa(visible))
	return line[:start] + strings.Join(controls, ",") + line[start+semi:]
}

// kittyLookback is how far above the window the fullscreen renderer
// looks for a Kitty image reaching into it: the tallest image an
// imageWidthCells of 120 gives.
const kittyLookback = 120

// kittyDrawn is set once any Kitty image was rendered: only then does the
// fullscreen renderer look above its window for one reaching into it.
var kittyDrawn atomic.Bool

// imageRows marks the rows of screen that place an image, and the rows
// a Kitty image covers below its line (within the first limit rows).
func imageRows(screen []string, limit int) (anchors, covered []bool, any bool) {
	anchors, covered = make([]bool, len(screen)), make([]bool, len(screen))
	for i, row := range screen {
		if !IsImageLine(row) {
			continue
		}
		anchors[i], any = true, true
		for j := i; j < min(limit, i+KittyRows(row)); j++ {
			covered[j] = true
		}
	}
	return anchors, covered, any
}
