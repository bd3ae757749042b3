package packages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pi-go/pi/internal/jsonx"
)

func stripBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }

// readJSONObject reads a JSON object file keeping its key order; a
// missing or empty file is an empty object.
func readJSONObject(path string) (jsonx.Object, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return jsonx.Object{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	b = stripBOM(b)
	if len(bytes.TrimSpace(b)) == 0 {
		return jsonx.Object{}, nil
	}
	tree, err := jsonx.Decode(b)
	obj, ok := tree.(jsonx.Object)
	if err != nil || !ok {
		return nil, fmt.Errorf("%s is not a valid JSON object", path)
	}
	return obj, nil
}

// writeJSONFile writes v two-space indented, as JSON.stringify(v, null,
// 2) does (npm adds a final newline to the files it writes, pi does not
// to settings.json), through a temporary file and a rename.
func writeJSONFile(path string, v any, newline bool) error {
	raw, err := jsonx.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, raw, "", "  "); err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if newline {
		pretty.WriteByte('\n')
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(pretty.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil {
		_ = os.Chmod(tmp, fi.Mode().Perm())
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
