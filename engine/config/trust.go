package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// TrustFlags are the CLI trust options.
type TrustFlags struct {
	Approve   bool // --approve / -a: trust for this run only
	NoApprove bool // --no-approve / -na: distrust for this run only
}

// trustRequiring are the entries of <cwd>/.pi that make a folder need a
// trust decision. The .pi/agent alias is included because this clone also
// reads project resources from there.
var trustRequiring = []string{"settings.json", "mcp.json", "extensions", "skills", "prompts", "themes", "SYSTEM.md", "APPEND_SYSTEM.md", "agent"}

// NeedsTrust reports whether cwd has project resources that are gated by
// trust: one of trustRequiring under cwd/.pi, or a .agents/skills folder
// in cwd or any ancestor (other than the user's own ~/.agents/skills).
func NeedsTrust(cwd string) bool {
	dir := canonical(cwd)
	for _, e := range trustRequiring {
		if exists(filepath.Join(dir, ".pi", e)) {
			return true
		}
	}
	userSkills := filepath.Join(canonical(homeDir()), ".agents", "skills")
	for {
		s := filepath.Join(dir, ".agents", "skills")
		if s != userSkills && exists(s) {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// canonical makes a path absolute and resolves symlinks where it can.
func canonical(p string) string {
	abs, err := filepath.Abs(ExpandHome(p))
	if err != nil {
		abs = p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return filepath.Clean(abs)
}

// Trust is the store of saved trust decisions, <agentDir>/trust.json: an
// object mapping absolute folder paths to true, false or null.
type Trust struct {
	path string
	mu   sync.Mutex
}

// NewTrust opens the trust store of an agent directory.
func NewTrust(agentDir string) *Trust {
	return &Trust{path: filepath.Join(canonical(agentDir), "trust.json")}
}

func (t *Trust) read() (map[string]any, error) {
	b, err := os.ReadFile(t.path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("Failed to read trust store %s: %w", t.path, err)
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	var data any
	if err := json.Unmarshal(b, &data); err != nil {
		return nil, fmt.Errorf("Failed to read trust store %s: %w", t.path, err)
	}
	m, ok := data.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("Invalid trust store %s: expected an object", t.path)
	}
	for k, v := range m {
		switch v.(type) {
		case bool, nil:
		default:
			kb, _ := json.Marshal(k)
			return nil, fmt.Errorf("Invalid trust store %s: value for %s must be true, false, or null", t.path, kb)
		}
	}
	return m, nil
}

// Get returns the saved decision for cwd or its closest ancestor that has
// one; ok is false when there is none.
func (t *Trust) Get(cwd string) (trusted, ok bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	data, err := t.read()
	if err != nil {
		return false, false, err
	}
	dir := canonical(cwd)
	for {
		if v, has := data[dir].(bool); has {
			return v, true, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false, false, nil
		}
		dir = parent
	}
}

// Set saves a decision for cwd; a nil decision removes it. The file is
// rewritten with sorted keys, two-space indentation and a final newline.
func (t *Trust) Set(cwd string, decision *bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	data, err := t.read()
	if err != nil {
		return err
	}
	key := canonical(cwd)
	if decision == nil {
		delete(data, key)
	} else {
		data[key] = *decision
	}
	keys := make([]string, 0, len(data))
	for k, v := range data {
		if _, ok := v.(bool); ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		kb, _ := json.Marshal(k)
		fmt.Fprintf(&b, "\n  %s: %t", kb, data[k].(bool))
	}
	if len(keys) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return writeFileAtomic(t.path, b.Bytes())
}

// ProjectTrusted decides, for a run without a UI (print, JSON, RPC mode),
// whether cwd's project resources load. See the package documentation for
// the decision table. Nothing is written: --approve and --no-approve hold
// for this run only. s supplies the global defaultProjectTrust and may be
// nil. Extension project_trust handlers, which run between the flags and
// the saved decision, are the caller's business.
func ProjectTrusted(agentDir, cwd string, flags TrustFlags, s *Settings) (bool, error) {
	if flags.NoApprove {
		return false, nil
	}
	if flags.Approve {
		return true, nil
	}
	store := NewTrust(agentDir)
	if !NeedsTrust(cwd) {
		v, ok, err := store.Get(cwd)
		if err != nil {
			return false, err
		}
		if ok {
			return v, nil
		}
		return true, nil
	}
	v, ok, err := store.Get(cwd)
	if err != nil {
		return false, err
	}
	if ok {
		return v, nil
	}
	def := DefaultProjectTrustSetting
	if s != nil {
		def = s.DefaultProjectTrust()
	}
	return def == "always", nil
}
