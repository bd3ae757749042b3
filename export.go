package pi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/engine/rpc"
	"github.com/pi-go/pi/engine/session"
)

// ExportSessionFile writes the session file at inputPath as HTML, as
// `pi --export <file> [out]` does, without building an agent: no
// settings, models or extensions are read. outPath "" is
// pi-session-<file name>.html in the working directory. It returns the
// path written. A missing file fails with "File not found: <absolute
// path>" and a file that is not a session with the store's refusal, the
// reference's words; an empty file is opened as a new session (the store
// writes its header), as the reference does.
func ExportSessionFile(inputPath, outPath string) (string, error) {
	abs := inputPath
	if abs == "~" || strings.HasPrefix(abs, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			abs = filepath.Join(home, strings.TrimPrefix(abs, "~"))
		}
	}
	abs, err := filepath.Abs(abs)
	if err != nil {
		return "", fmt.Errorf("export %s: %w", inputPath, err)
	}
	if _, err := os.Stat(abs); err != nil {
		return "", fmt.Errorf("File not found: %s", abs)
	}
	f, err := session.Open(abs)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return rpc.ExportSessionHTML(f.Header(), f.Entries(), outPath,
		rpc.ExportOptions{SessionFile: abs, LeafID: f.LeafID()})
}
