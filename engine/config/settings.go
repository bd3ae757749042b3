package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Setting defaults, as the reference publishes them.
const (
	DefaultThinkingLevel       = "medium"
	DefaultQueueMode           = "one-at-a-time"
	DefaultCompactionReserve   = 16384
	DefaultCompactionKeep      = 20000
	DefaultRetryMaxRetries     = 3
	DefaultRetryBaseDelayMs    = 2000
	DefaultRetryMaxAgentDelay  = 60000
	DefaultProviderMaxDelayMs  = 60000
	DefaultHTTPIdleTimeoutMs   = 300000
	DefaultProjectTrustSetting = "ask"
	DefaultTransport           = "auto"
)

// DefaultToolNames are the tools enabled when defaultTools does not say.
var DefaultToolNames = []string{"read", "bash", "edit", "write"}

// globalOnlyKeys are read from the agent-dir settings only: a project must
// not be able to change its own trust, proxy or update command.
var globalOnlyKeys = []string{"defaultProjectTrust", "httpProxy", "cacheWarming", "selfUpdateCommand"}

// settingDefaults are the values intOr and boolOr fall back to when no file
// sets a key (or sets it with the wrong type), by the dotted path they read;
// string getters name their default constant directly. It is a plain table
// rather than viper: the layering (global file, trusted project file) is
// ours because it must keep the files' key case and order, the reference
// reads no environment overrides of settings.json, and linking viper made
// every start run its packages' inits.
var settingDefaults = map[string]any{
	"compaction.enabled":             true,
	"compaction.reserveTokens":       DefaultCompactionReserve,
	"compaction.keepRecentTokens":    DefaultCompactionKeep,
	"branchSummary.reserveTokens":    DefaultCompactionReserve,
	"branchSummary.skipPrompt":       false,
	"retry.enabled":                  true,
	"retry.maxRetries":               DefaultRetryMaxRetries,
	"retry.baseDelayMs":              DefaultRetryBaseDelayMs,
	"retry.maxAgentDelayMs":          DefaultRetryMaxAgentDelay,
	"retry.provider.maxRetryDelayMs": DefaultProviderMaxDelayMs,
	"images.autoResize":              true,
	"images.blockImages":             false,
	"enableSkillCommands":            true,
}

// Settings is the merged view of the global and (trusted) project settings.
// Typed getters read the case-preserving merged map and fall back to
// settingDefaults; map-valued settings whose keys are case-sensitive
// identifiers ("provider/id") are read from the same map.
type Settings struct {
	mu         sync.Mutex
	globalPath string
	global     map[string]any
	project    map[string]any
	merged     map[string]any
	globalBad  error
	warnings   []string
	// globalOrder and projectOrder are the files' key orders (MergedJSON).
	globalOrder, projectOrder *keyOrder
}

// Load reads <agentDir>/settings.json and, when projectTrusted, the
// project's <cwd>/.pi/agent/settings.json and <cwd>/.pi/settings.json (the
// latter wins). A malformed or unreadable file is reported in Warnings and
// treated as empty; the error result is reserved for future use and is
// currently always nil.
func Load(agentDir, cwd string, projectTrusted bool) (*Settings, error) {
	s := &Settings{globalPath: filepath.Join(agentDir, "settings.json")}
	g, gOrder, err := s.readFile(s.globalPath)
	if err != nil {
		var pe *parseError
		if !errors.As(err, &pe) {
			return nil, err
		}
		s.globalBad = err
	}
	s.global = g
	s.globalOrder = gOrder
	s.project = map[string]any{}
	if projectTrusted && cwd != "" {
		for _, p := range []string{
			filepath.Join(cwd, ".pi", "agent", "settings.json"),
			filepath.Join(cwd, ".pi", "settings.json"),
		} {
			m, order, err := s.readFile(p)
			if err != nil {
				var pe *parseError
				if !errors.As(err, &pe) {
					return nil, err
				}
			}
			s.project = mergeSettings(s.project, m)
			s.projectOrder = mergeKeyOrder(s.projectOrder, order)
		}
		for _, k := range globalOnlyKeys {
			delete(s.project, k)
		}
	}
	s.rebuild()
	return s, nil
}

// FromMaps builds settings from in-memory layers; tests and the SDK path
// use it. The global path is empty, so SetGlobal only updates memory.
func FromMaps(global, project map[string]any) *Settings {
	if global == nil {
		global = map[string]any{}
	}
	if project == nil {
		project = map[string]any{}
	}
	s := &Settings{global: global, project: project}
	s.rebuild()
	return s
}

type parseError struct {
	path string
	err  error
}

func (e *parseError) Error() string {
	return fmt.Sprintf("Invalid settings file %s: %v", e.path, e.err)
}
func (e *parseError) Unwrap() error { return e.err }

// readFile returns the file's object, {} when it is missing or empty, and
// records a warning (and returns a *parseError) when it is not a JSON object.
func (s *Settings) readFile(path string) (map[string]any, *keyOrder, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]any{}, nil, nil
	}
	if err != nil {
		// An unreadable file (a directory, no permission) is reported like
		// a malformed one: startup goes on with defaults.
		pe := &parseError{path: path, err: err}
		s.warnings = append(s.warnings, pe.Error())
		return map[string]any{}, nil, pe
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]any{}, nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		if err == nil {
			err = errors.New("expected a JSON object")
		}
		pe := &parseError{path: path, err: err}
		s.warnings = append(s.warnings, pe.Error())
		return map[string]any{}, nil, pe
	}
	migrate(m)
	return m, decodeKeyOrder(b), nil
}

// migrate applies the reference's renames of legacy keys.
func migrate(m map[string]any) {
	if v, ok := m["queueMode"]; ok {
		if _, has := m["steeringMode"]; !has {
			m["steeringMode"] = v
			delete(m, "queueMode")
		}
	}
	if _, ok := m["transport"]; !ok {
		if ws, ok := m["websockets"].(bool); ok {
			if ws {
				m["transport"] = "websocket"
			} else {
				m["transport"] = "sse"
			}
			delete(m, "websockets")
		}
	}
}

// rebuild recomputes the merged map. Callers hold mu or own s exclusively.
func (s *Settings) rebuild() {
	s.merged = mergeSettings(s.global, s.project)
}

// Warnings returns the problems found while loading, one line each, without
// a "Warning: " prefix (the caller prints them to stderr with it).
func (s *Settings) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.warnings...)
}

// Raw returns the merged value at a dotted path ("retry.enabled") with the
// files' own key case, or nil when it is not set.
func (s *Settings) Raw(path string) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return lookup(s.merged, path)
}

// GlobalRaw is Raw on the global file alone.
func (s *Settings) GlobalRaw(path string) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return lookup(s.global, path)
}

// Merged returns a deep copy of the merged settings object.
func (s *Settings) Merged() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return deepCopy(s.merged).(map[string]any)
}

// mergeSettings deep-merges override into base: nested objects merge key by
// key, everything else replaces, except a defaultTools list made only of
// +x/-x modifiers, which is appended to the inherited list.
func mergeSettings(base, override map[string]any) map[string]any {
	out := deepMergeObjects(base, override)
	bt, bok := base["defaultTools"].([]any)
	ot, ook := override["defaultTools"].([]any)
	if bok && ook && allModifiers(ot) {
		out["defaultTools"] = append(append([]any{}, bt...), ot...)
	}
	return out
}

func deepMergeObjects(base, override map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(override))
	for k, v := range base {
		out[k] = deepCopy(v)
	}
	for k, ov := range override {
		bm, bok := out[k].(map[string]any)
		om, ook := ov.(map[string]any)
		if bok && ook {
			out[k] = deepMergeObjects(bm, om)
		} else {
			out[k] = deepCopy(ov)
		}
	}
	return out
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	default:
		return v
	}
}
