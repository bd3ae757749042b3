package pi

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/imagetype"
)

// InitialMessage is the first prompt of a print/json run and its image
// attachments.
type InitialMessage struct {
	Text   string
	Images []engine.Content
}

// ReadPipedStdin reads all of stdin and trims it; empty input counts as
// none. The caller only calls it when stdin is not a terminal, because the
// read blocks until EOF.
func ReadPipedStdin(r io.Reader) (string, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("read stdin: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// fileArgError is an @file problem; its text is the exact stderr line.
type fileArgError struct{ msg string }

func (e *fileArgError) Error() string { return e.msg }

// expandHome resolves a leading "~" or "~/" against the home directory.
func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	return p
}

// ProcessFileArgs turns @file arguments into prompt text and images: a
// text file becomes a <file name="ABS"> block with its content, an image
// an empty block plus an attachment; empty files are skipped.
func ProcessFileArgs(cwd string, files []string) (string, []engine.Content, error) {
	var text strings.Builder
	var images []engine.Content
	for _, f := range files {
		abs := expandHome(f)
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, abs)
		}
		abs = filepath.Clean(abs)
		st, err := os.Stat(abs)
		if err != nil {
			return "", nil, &fileArgError{"Error: File not found: " + abs}
		}
		if st.Size() == 0 {
			continue
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return "", nil, &fileArgError{fmt.Sprintf("Error: Could not read file %s: %v", abs, err)}
		}
		if mt := imagetype.Sniff(data); mt != "" {
			images = append(images, engine.ImageContent(base64.StdEncoding.EncodeToString(data), mt))
			fmt.Fprintf(&text, "<file name=\"%s\"></file>\n", abs)
			continue
		}
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		fmt.Fprintf(&text, "<file name=\"%s\">\n%s\n</file>\n", abs, data)
	}
	return text.String(), images, nil
}

// BuildInitialMessage joins stdin, @file text and the first message with
// no separator; the remaining messages are returned for sequential
// prompts.
func BuildInitialMessage(stdin, fileText string, images []engine.Content, messages []string) (InitialMessage, []string) {
	first := ""
	rest := messages
	if len(messages) > 0 {
		first, rest = messages[0], messages[1:]
	}
	return InitialMessage{Text: stdin + fileText + first, Images: images}, rest
}
