package jsruntime

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDetectSupportedImageMimeTypeFromFile checks the SDK export against
// the answers the reference's own function gave for the same files (run
// with Node 22 over the installed reference): formats by content,
// animated PNG and text as null, Node's errors for a missing file and a
// directory.
func TestDetectSupportedImageMimeTypeFromFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b64 := func(s string) []byte { b, _ := base64.StdEncoding.DecodeString(s); return b }
	files := map[string][]byte{
		"a.png":    b64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"),
		"anim.png": b64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACGFjVEwAAAABAAAAALQt6aAAAAAMSURBVHicY2BgYAAAAAQAAfYXOFUAAAAASUVORK5CYII="),
		"a.jpg":    append([]byte{0xff, 0xd8, 0xff, 0xe0}, make([]byte, 20)...),
		"a.gif":    append([]byte("GIF89a"), make([]byte, 20)...),
		"a.webp":   append([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "), make([]byte, 20)...),
		"a.bmp":    b64("Qk1GAAAAAAAAADYAAAAoAAAAAQAAAAEAAAABABgAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="),
		"text.txt": []byte("hello"),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	dirLit := strings.ReplaceAll(dir, `\`, `\\`)
	h := runTS(t, map[string]string{"ext.ts": `import { detectSupportedImageMimeTypeFromFile as d } from "@earendil-works/pi-coding-agent";
export default async function () {
  for (const f of ["a.png", "anim.png", "a.jpg", "a.gif", "a.webp", "a.bmp", "text.txt", "missing.png", "adir"]) {
    try { console.log(f, await d("` + dirLit + `/" + f)); } catch (e) { console.log(f, "error", e.code, e.syscall); }
  }
}
`})
	if len(h.loadErrs) > 0 {
		t.Fatal(h.loadErrs)
	}
	h.settle(t)
	want := `a.png image/png
anim.png null
a.jpg image/jpeg
a.gif image/gif
a.webp image/webp
a.bmp image/bmp
text.txt null
missing.png error ENOENT open
adir error EISDIR read
`
	if got := h.stderr.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
