// Package imagetype recognises the image formats pi sends to models by
// their content. The read tool, @file arguments and the extensions'
// detectSupportedImageMimeTypeFromFile all use it, so they agree on what
// an image is.
package imagetype

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"
)

// SniffLen is how many leading bytes Sniff looks at, as the reference reads.
const SniffLen = 4100

// Sniff returns the MIME type of a supported image (jpeg, non-animated
// png, gif, webp, bmp) from its first bytes, ignoring any file name, or ""
// when the bytes are none of them. SniffLen bytes are enough.
func Sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		if len(b) > 3 && b[3] == 0xf7 {
			return ""
		}
		return "image/jpeg"
	case bytes.HasPrefix(b, []byte{0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a}):
		if len(b) >= 16 && binary.BigEndian.Uint32(b[8:]) == 13 && string(b[12:16]) == "IHDR" && !animatedPNG(b) {
			return "image/png"
		}
		return ""
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "image/gif"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "image/webp"
	case bytes.HasPrefix(b, []byte("BM")) && isBMP(b):
		return "image/bmp"
	}
	return ""
}

func animatedPNG(b []byte) bool {
	off := 8
	for off+8 <= len(b) {
		n := int(binary.BigEndian.Uint32(b[off:]))
		typ := string(b[off+4 : off+8])
		if typ == "acTL" {
			return true
		}
		if typ == "IDAT" {
			return false
		}
		next := off + 8 + n + 4
		if next <= off || next > len(b) {
			return false
		}
		off = next
	}
	return false
}

func isBMP(b []byte) bool {
	if len(b) < 26 {
		return false
	}
	size := binary.LittleEndian.Uint32(b[2:])
	dataOff := binary.LittleEndian.Uint32(b[10:])
	dib := binary.LittleEndian.Uint32(b[14:])
	if size != 0 && size < 26 || dataOff < 14+dib || size != 0 && dataOff >= size {
		return false
	}
	var planes, bpp uint16
	switch {
	case dib == 12:
		planes, bpp = binary.LittleEndian.Uint16(b[22:]), binary.LittleEndian.Uint16(b[24:])
	case dib >= 40 && dib <= 124:
		if len(b) < 30 {
			return false
		}
		planes, bpp = binary.LittleEndian.Uint16(b[26:]), binary.LittleEndian.Uint16(b[28:])
	default:
		return false
	}
	return planes == 1 && slices.Contains([]uint16{1, 4, 8, 16, 24, 32}, bpp)
}

// FromFile reads at most SniffLen bytes of path and sniffs them. An I/O
// error is returned as is (the caller words it).
func FromFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b := make([]byte, SniffLen)
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return Sniff(b[:n]), nil
}
