package interactive

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/pi-go/pi/internal/mockllm"
)

// fakeClip answers the helper programs it knows; others are "not found".
func fakeClip(env map[string]string, goos string, answers map[string]string) clipboardReader {
	return clipboardReader{
		getenv: func(k string) string { return env[k] },
		goos:   goos,
		run: func(_ context.Context, name string, args ...string) ([]byte, error) {
			if out, ok := answers[strings.Join(append([]string{name}, args...), " ")]; ok {
				return []byte(out), nil
			}
			return nil, errors.New("exec: not found")
		},
	}
}

func TestClipboardPaste(t *testing.T) {
	t.Parallel()
	png := "\x89PNG\r\n\x1a\nfake"
	for _, tc := range []struct {
		name    string
		env     map[string]string
		goos    string
		answers map[string]string
		image   string // the saved file's extension and content ("" = text)
		want    string
		err     bool
	}{
		{"wayland image", map[string]string{"WAYLAND_DISPLAY": "w"}, "linux", map[string]string{
			"wl-paste --list-types":                  "text/plain\nimage/jpeg\nimage/png\n",
			"wl-paste --type image/png --no-newline": png,
		}, ".png", png, false},
		{"x11 image", map[string]string{"DISPLAY": ":0"}, "linux", map[string]string{
			"xclip -selection clipboard -t TARGETS -o":    "TARGETS\nimage/jpeg\n",
			"xclip -selection clipboard -t image/jpeg -o": "jpegdata",
		}, ".jpg", "jpegdata", false},
		{"x11 text", map[string]string{"DISPLAY": ":0"}, "linux", map[string]string{
			"xclip -selection clipboard -t TARGETS -o": "TARGETS\nUTF8_STRING\n",
			"xclip -selection clipboard -out":          "some text",
		}, "", "some text", false},
		// An empty Wayland clipboard does not fall back to X11's.
		{"wayland empty", map[string]string{"WAYLAND_DISPLAY": "w", "DISPLAY": ":0"}, "linux", map[string]string{
			"wl-paste --list-types":                    "text/plain\n",
			"xclip -selection clipboard -t TARGETS -o": "image/png\n",
			"wl-paste --no-newline --type text":        "wl text",
		}, "", "wl text", false},
		{"mac image", nil, "darwin", map[string]string{
			"osascript -e get the clipboard as «class PNGf»": "«data PNGf89504E47»\n",
		}, ".png", "\x89PNG", false},
		{"mac text", nil, "darwin", map[string]string{"pbpaste": "mac text"}, "", "mac text", false},
		{"no tools", map[string]string{"DISPLAY": ":0"}, "linux", nil, "", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			got, err := readClipboardPaste(context.Background(), fakeClip(tc.env, tc.goos, tc.answers), dir)
			if tc.err {
				if !errors.Is(err, errNoClipboardTool) {
					t.Fatalf("err %v, want errNoClipboardTool", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.image == "" {
				if got != tc.want {
					t.Fatalf("pasted %q, want %q", got, tc.want)
				}
				return
			}
			if !strings.HasPrefix(got, dir+string(os.PathSeparator)+"pi-clipboard-") || !strings.HasSuffix(got, tc.image) {
				t.Fatalf("path %q", got)
			}
			if b, _ := os.ReadFile(got); string(b) != tc.want {
				t.Fatalf("file holds %q, want %q", b, tc.want)
			}
		})
	}
}

// Ctrl+V puts the clipboard image's temporary path into the editor.
func TestPasteKeyInsertsImagePath(t *testing.T) {
	t.Parallel()
	ta := startApp(t, mockllm.Script{}, Options{})
	ta.waitFor("v0.0.0-test")
	ta.r.Do(func() {
		ta.a.clipboard = fakeClip(map[string]string{"DISPLAY": ":0"}, "linux", map[string]string{
			"xclip -selection clipboard -t TARGETS -o":   "image/png\n",
			"xclip -selection clipboard -t image/png -o": "\x89PNG",
		})
	})
	ta.r.Feed("see ")
	ta.r.Feed("\x16")
	ta.waitFor("see " + os.TempDir())
	var text string
	ta.r.Do(func() { text = ta.a.editor.Text() })
	p := strings.TrimPrefix(text, "see ")
	t.Cleanup(func() { os.Remove(p) })
	if !strings.HasSuffix(p, ".png") {
		t.Fatalf("editor %q", text)
	}
}
