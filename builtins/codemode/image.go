package codemode

import (
	"encoding/base64"
	"os"
	"strings"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// imageExt are the image types image() accepts, with their file suffix.
var imageExt = map[string]string{"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp"}

// addImage is image(value): a base64 data: URL, an {image_url} object or
// an image block. The image is saved to a temp file whose path the result
// names before the image.
func (r *run) addImage(v goja.Value) {
	var data, mime string
	if v == nil {
		v = goja.Undefined()
	}
	switch x := v.Export().(type) {
	case string:
		data, mime = r.parseDataURL(x)
	case map[string]any:
		if u, ok := x["image_url"]; ok {
			s, _ := u.(string)
			if m, ok := u.(map[string]any); ok {
				s, _ = m["url"].(string)
			}
			data, mime = r.parseDataURL(s)
		} else {
			data, _ = x["data"].(string)
			mime, _ = x["mimeType"].(string)
			if t, _ := x["type"].(string); t != "image" || data == "" {
				r.throw(r.typeErrCtr, `image() takes a data: URL, an { image_url } object or an image block { type: "image", data, mimeType }`)
			}
		}
	default:
		r.throw(r.typeErrCtr, `image() takes a data: URL, an { image_url } object or an image block { type: "image", data, mimeType }`)
	}
	ext, ok := imageExt[mime]
	if !ok {
		r.throw(r.typeErrCtr, "image(): unsupported image type "+mime+"; PNG, JPEG, GIF and WebP are accepted")
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		r.throw(r.typeErrCtr, "image(): the image data is not valid base64")
	}
	r.count(len(data))
	f, err := os.CreateTemp(r.cfg.TempDir, "pi-codemode-*"+ext)
	path := ""
	if err == nil {
		_, werr := f.Write(raw)
		cerr := f.Close()
		if werr == nil && cerr == nil {
			path = f.Name()
		}
	}
	img := engine.ImageContent(data, mime)
	r.items = append(r.items, outItem{image: &img, path: path})
}

func (r *run) parseDataURL(s string) (data, mime string) {
	rest, ok := strings.CutPrefix(s, "data:")
	if !ok {
		r.throw(r.typeErrCtr, "image(): only base64 data: URLs are supported, not remote URLs")
	}
	meta, payload, ok := strings.Cut(rest, ",")
	mime, isB64 := strings.CutSuffix(meta, ";base64")
	if !ok || !isB64 {
		r.throw(r.typeErrCtr, "image(): the data: URL must be base64-encoded")
	}
	return payload, mime
}
