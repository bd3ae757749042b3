package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/internal/jsonx"
)

// SetGlobal writes one setting to the global settings.json, as the RPC
// commands set_steering_mode, set_auto_retry and friends do. path is dotted
// ("retry.enabled"). The file is edited in place: the current contents are
// re-read, only the one value changes, and the file's own key spelling,
// key order and unknown keys survive; a new key is appended at the end of
// its object. Strings are written back as JSON.stringify writes them (the
// reference parses and re-serialises the file), number literals as the
// file has them. The result is written as two-space-indented JSON without a
// trailing newline (the reference's format) through a temporary file and a
// rename, so a crash never leaves half a file. A settings.json that does not
// parse is not overwritten: that would destroy the user's file.
func (s *Settings) SetGlobal(path string, value any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.globalPath != "" {
		if err := editJSONFile(s.globalPath, path, value); err != nil {
			return err
		}
		s.globalBad = nil
	}
	raw, err := engine.MarshalJSON(value)
	if err != nil {
		return fmt.Errorf("encode setting %s: %w", path, err)
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return fmt.Errorf("encode setting %s: %w", path, err)
	}
	setPath(s.global, strings.Split(path, "."), generic)
	s.rebuild()
	return nil
}

// setPath sets a nested value in a generic map, replacing non-object
// intermediates with objects.
func setPath(m map[string]any, segs []string, v any) {
	for _, seg := range segs[:len(segs)-1] {
		next, ok := m[seg].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[seg] = next
		}
		m = next
	}
	m[segs[len(segs)-1]] = v
}

// editJSONFile applies one order-preserving edit to a JSON object file.
func editJSONFile(file, path string, value any) error {
	b, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", file, err)
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}")
	}
	tree, err := jsonx.Decode(b)
	root, isObject := tree.(jsonx.Object)
	if err != nil || !isObject {
		return fmt.Errorf("not updating %s: the file is not a valid JSON object", file)
	}
	raw, err := engine.MarshalJSON(value)
	if err != nil {
		return fmt.Errorf("encode setting %s: %w", path, err)
	}
	out, err := setIn(root, strings.Split(path, "."), raw).MarshalJSON()
	if err != nil {
		return fmt.Errorf("edit %s: %w", file, err)
	}
	var compact, pretty bytes.Buffer
	if err := json.Compact(&compact, out); err != nil {
		return fmt.Errorf("edit %s: %w", file, err)
	}
	if err := json.Indent(&pretty, compact.Bytes(), "", "  "); err != nil {
		return fmt.Errorf("edit %s: %w", file, err)
	}
	return writeFileAtomic(file, pretty.Bytes())
}

// setIn sets the value at the path segs in o, as the reference's nested
// assignment into its parsed settings does: an existing key keeps its
// place, a new one goes last in its object, and a missing object on the
// way, or a scalar in its place, becomes an object.
func setIn(o jsonx.Object, segs []string, raw json.RawMessage) jsonx.Object {
	if len(segs) == 1 {
		return o.Put(segs[0], raw)
	}
	child, _ := o.Get(segs[0])
	inner, isObject := child.(jsonx.Object)
	if !isObject {
		inner = jsonx.Object{}
	}
	return o.Put(segs[0], setIn(inner, segs[1:], raw))
}

// writeFileAtomic writes data to a temporary file next to path and renames
// it into place, so a reader never sees a half-written file and a crash
// mid-write leaves the old contents. A symlinked path is written through to
// its target, keeping the link; an existing file keeps its mode.
func writeFileAtomic(path string, data []byte) error {
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
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	_ = os.Chmod(tmp, mode)
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
