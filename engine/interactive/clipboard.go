package interactive

import (
	"context"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/google/uuid"
)

// The clipboard paste key (app.clipboard.pasteImage, Ctrl+V; Alt+V on
// Windows) reads the system clipboard through the platform's helper
// programs, as the reference does: an image is saved to a temporary file
// whose path goes into the editor (the prompt's @-less path is how the
// model is pointed at it), else the clipboard's text is inserted.

// clipboardImageTypes are the image types taken, in order of preference.
var clipboardImageTypes = []string{"image/png", "image/jpeg", "image/webp", "image/gif"}

// errNoClipboardTool says that no clipboard helper program could be run.
var errNoClipboardTool = errors.New("no clipboard tool found (install wl-clipboard, xclip or xsel)")

// clipboardReader reads the system clipboard. run is exec in
// production; tests give a fake.
type clipboardReader struct {
	getenv func(string) string
	goos   string
	run    func(ctx context.Context, name string, args ...string) ([]byte, error)
}

func systemClipboard() clipboardReader {
	return clipboardReader{getenv: os.Getenv, goos: runtime.GOOS, run: runCommand}
}

func runCommand(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, name, args...).Output()
}

// clipImage is an image read from the clipboard.
type clipImage struct {
	data []byte
	mime string
}

func baseMime(t string) string {
	b, _, _ := strings.Cut(t, ";")
	return strings.ToLower(strings.TrimSpace(b))
}

// preferredImageType picks the best image type of a clipboard's type
// list, "" when it holds no image.
func preferredImageType(types []string) string {
	for _, want := range clipboardImageTypes {
		for _, t := range types {
			if baseMime(t) == want {
				return strings.TrimSpace(t)
			}
		}
	}
	return ""
}

func splitTypes(out []byte) []string {
	var types []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			types = append(types, l)
		}
	}
	return types
}

// image reads an image from the clipboard: nil when it holds none;
// errNoClipboardTool when no helper could be asked.
func (c clipboardReader) image(ctx context.Context) (*clipImage, error) {
	if c.getenv("TERMUX_VERSION") != "" {
		return nil, nil
	}
	switch c.goos {
	case "darwin":
		// AppleScript hands the clipboard's PNG over as «data PNGf<hex>».
		out, err := c.run(ctx, "osascript", "-e", "get the clipboard as «class PNGf»")
		if err != nil {
			return nil, nil
		}
		s := strings.TrimSpace(string(out))
		s = strings.TrimSuffix(strings.TrimPrefix(s, "«data PNGf"), "»")
		data, err := hex.DecodeString(s)
		if err != nil || len(data) == 0 {
			return nil, nil
		}
		return &clipImage{data: data, mime: "image/png"}, nil
	case "linux", "freebsd", "openbsd", "netbsd":
	default:
		return nil, errNoClipboardTool
	}
	tried := false
	if c.getenv("WAYLAND_DISPLAY") != "" || c.getenv("XDG_SESSION_TYPE") == "wayland" {
		if list, err := c.run(ctx, "wl-paste", "--list-types"); err == nil {
			tried = true
			t := preferredImageType(splitTypes(list))
			if t == "" {
				// An empty Wayland clipboard must not fall through to a
				// stale X11 one.
				return nil, nil
			}
			if data, err := c.run(ctx, "wl-paste", "--type", t, "--no-newline"); err == nil && len(data) > 0 {
				return &clipImage{data: data, mime: baseMime(t)}, nil
			}
			return nil, nil
		}
	}
	if list, err := c.run(ctx, "xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"); err == nil {
		t := preferredImageType(splitTypes(list))
		if t == "" {
			return nil, nil
		}
		if data, err := c.run(ctx, "xclip", "-selection", "clipboard", "-t", t, "-o"); err == nil && len(data) > 0 {
			return &clipImage{data: data, mime: baseMime(t)}, nil
		}
		return nil, nil
	} else if tried {
		return nil, nil
	}
	return nil, errNoClipboardTool
}

// text reads the clipboard's text: "" when empty; errNoClipboardTool
// when no helper could be asked.
func (c clipboardReader) text(ctx context.Context) (string, error) {
	var cmds [][]string
	if c.getenv("TERMUX_VERSION") != "" {
		cmds = append(cmds, []string{"termux-clipboard-get"})
	}
	switch c.goos {
	case "darwin":
		cmds = append(cmds, []string{"pbpaste"})
	case "windows":
		cmds = append(cmds, []string{"powershell.exe", "-NoProfile", "-Command", "Get-Clipboard -Raw"})
	default:
		if c.getenv("WAYLAND_DISPLAY") != "" {
			cmds = append(cmds, []string{"wl-paste", "--no-newline", "--type", "text"})
		}
		if c.getenv("DISPLAY") != "" {
			cmds = append(cmds, []string{"xclip", "-selection", "clipboard", "-out"}, []string{"xsel", "--clipboard", "--output"})
		}
	}
	for _, cmd := range cmds {
		if out, err := c.run(ctx, cmd[0], cmd[1:]...); err == nil {
			return string(out), nil
		}
	}
	return "", errNoClipboardTool
}

func imageExt(mime string) string {
	switch mime {
	case "image/jpeg":
		return "jpg"
	case "image/webp":
		return "webp"
	case "image/gif":
		return "gif"
	}
	return "png"
}

// readClipboardPaste is what the paste key inserts: the path of a
// temporary file holding the clipboard's image, else its text.
func readClipboardPaste(ctx context.Context, c clipboardReader, tmpDir string) (string, error) {
	img, err := c.image(ctx)
	if img != nil {
		p := filepath.Join(tmpDir, "pi-clipboard-"+uuid.NewString()+"."+imageExt(img.mime))
		if werr := os.WriteFile(p, img.data, 0o600); werr != nil {
			return "", werr
		}
		return p, nil
	}
	text, terr := c.text(ctx)
	if terr != nil && err != nil {
		return "", terr
	}
	return text, nil
}

// pasteClipboard runs the paste key: the clipboard is read off the UI
// goroutine (helpers may take a moment) and the result inserted at the
// cursor.
func (a *app) pasteClipboard() {
	c := a.clipboard
	if c.run == nil {
		c = systemClipboard()
	}
	go func() {
		text, err := readClipboardPaste(a.ctx, c, os.TempDir())
		a.p.Post(func() {
			switch {
			case err != nil:
				a.showError("Failed to paste from clipboard: " + err.Error())
			case text == "":
				a.showStatus("The clipboard holds no image or text")
			default:
				a.editor.InsertText(text)
				a.editorChanged()
			}
			a.p.RequestRender()
		})
	}()
}
