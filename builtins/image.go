package builtins

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // decoders for resizing
	"image/jpeg"
	"image/png"

	"github.com/pi-go/pi/engine"
)

// Inline image limits: dimensions and base64 size.
const (
	maxImageSide   = 2000
	maxImageBase64 = 4.5 * 1024 * 1024
)

// readImage builds the read result for an image file.
func readImage(data []byte, mime string, opts ReadOptions) engine.ToolResult {
	var hints []string
	if mime == "image/bmp" {
		img, err := decodeBMP(data)
		var buf bytes.Buffer
		if err == nil {
			err = png.Encode(&buf, img)
		}
		if err != nil {
			return textResult(fmt.Sprintf("Read image file [%s]\n[Image omitted: could not be converted to a supported inline image format.]", mime), nil)
		}
		data, mime = buf.Bytes(), "image/png"
		hints = append(hints, "[Image converted from image/bmp to image/png.]")
	}
	if !opts.NoAutoResize {
		resized, newMime, note, ok := fitImage(data, mime)
		if !ok {
			return textResult(fmt.Sprintf("Read image file [%s]\n[Image omitted: could not be resized below the inline image size limit.]", mime), nil)
		}
		data, mime = resized, newMime
		if note != "" {
			hints = append(hints, note)
		}
	}
	text := fmt.Sprintf("Read image file [%s]", mime)
	for _, h := range hints {
		text += "\n" + h
	}
	res := engine.ToolResult{Content: []engine.Content{engine.TextContent(text), engine.ImageContent(base64.StdEncoding.EncodeToString(data), mime)}}
	if opts.ModelSupportsImages != nil {
		if id, ok := opts.ModelSupportsImages(); !ok {
			res.Details = mustJSON("imageUnsupportedByModel", id)
		}
	}
	return res
}

// fitImage keeps an image that is within the limits and otherwise scales
// it down, trying PNG and JPEG at falling quality before shrinking more.
func fitImage(data []byte, mime string) ([]byte, string, string, bool) {
	cfg, _, cfgErr := image.DecodeConfig(bytes.NewReader(data))
	fits := func(n int) bool { return float64(base64.StdEncoding.EncodedLen(n)) <= maxImageBase64 }
	if cfgErr != nil {
		// Formats Go cannot decode (WebP) pass through when small enough.
		return data, mime, "", fits(len(data))
	}
	if cfg.Width <= maxImageSide && cfg.Height <= maxImageSide && fits(len(data)) {
		return data, mime, "", true
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, "", "", false
	}
	w, h := cfg.Width, cfg.Height
	scale := min(1, float64(maxImageSide)/float64(w), float64(maxImageSide)/float64(h))
	for range 20 {
		nw, nh := max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale))
		small := scaleImage(img, nw, nh)
		for _, enc := range []func() ([]byte, string){
			func() ([]byte, string) { var b bytes.Buffer; _ = png.Encode(&b, small); return b.Bytes(), "image/png" },
			func() ([]byte, string) { return encodeJPEG(small, 80), "image/jpeg" },
			func() ([]byte, string) { return encodeJPEG(small, 85), "image/jpeg" },
			func() ([]byte, string) { return encodeJPEG(small, 70), "image/jpeg" },
			func() ([]byte, string) { return encodeJPEG(small, 55), "image/jpeg" },
			func() ([]byte, string) { return encodeJPEG(small, 40), "image/jpeg" },
		} {
			out, m := enc()
			if len(out) > 0 && fits(len(out)) {
				note := ""
				if nw != w || nh != h {
					note = fmt.Sprintf("[Image: original %dx%d, displayed at %dx%d. Multiply coordinates by %s to map to original image.]",
						w, h, nw, nh, fmt.Sprintf("%.2f", float64(w)/float64(nw)))
				}
				return out, m, note, true
			}
		}
		scale *= 0.75
	}
	return nil, "", "", false
}

func encodeJPEG(img image.Image, q int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		return nil
	}
	return b.Bytes()
}

// scaleImage resizes by averaging the source pixels under each target
// pixel, which keeps downscaled screenshots legible.
func scaleImage(src image.Image, w, h int) image.Image {
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	sw, sh := b.Dx(), b.Dy()
	for y := range h {
		y0, y1 := y*sh/h, max((y+1)*sh/h, y*sh/h+1)
		for x := range w {
			x0, x1 := x*sw/w, max((x+1)*sw/w, x*sw/w+1)
			var r, g, bl, a, n uint64
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					cr, cg, cb, ca := src.At(b.Min.X+sx, b.Min.Y+sy).RGBA()
					r, g, bl, a, n = r+uint64(cr), g+uint64(cg), bl+uint64(cb), a+uint64(ca), n+1
				}
			}
			dst.Set(x, y, color.RGBA64{uint16(r / n), uint16(g / n), uint16(bl / n), uint16(a / n)})
		}
	}
	return dst
}

// decodeBMP reads uncompressed 24- and 32-bit BMPs, the common kinds.
func decodeBMP(b []byte) (image.Image, error) {
	if len(b) < 54 {
		return nil, fmt.Errorf("bmp: too short")
	}
	dataOff := int(binary.LittleEndian.Uint32(b[10:]))
	w := int(int32(binary.LittleEndian.Uint32(b[18:])))
	h := int(int32(binary.LittleEndian.Uint32(b[22:])))
	bpp := int(binary.LittleEndian.Uint16(b[28:]))
	comp := binary.LittleEndian.Uint32(b[30:])
	if (bpp != 24 && bpp != 32) || (comp != 0 && comp != 3) || w <= 0 || h == 0 {
		return nil, fmt.Errorf("bmp: unsupported format")
	}
	topDown := h < 0
	if topDown {
		h = -h
	}
	stride := (w*bpp/8 + 3) &^ 3
	if dataOff+stride*h > len(b) {
		return nil, fmt.Errorf("bmp: truncated")
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		row := b[dataOff+y*stride:]
		dy := h - 1 - y
		if topDown {
			dy = y
		}
		for x := range w {
			p := row[x*bpp/8:]
			a := uint8(255)
			if bpp == 32 && comp == 0 {
				a = 255
			}
			img.SetNRGBA(x, dy, color.NRGBA{p[2], p[1], p[0], a})
		}
	}
	return img, nil
}
