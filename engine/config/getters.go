package config

import (
	"math"
	"strconv"
	"strings"

	"github.com/pi-go/pi/engine"
)

// lookup finds a dotted path in m. Keys may themselves contain dots
// ("openai/gpt-4.1"), so at each level the longest matching key wins.
func lookup(m map[string]any, path string) any {
	if path == "" {
		return m
	}
	return lookupSegs(m, strings.Split(path, "."))
}

func lookupSegs(m map[string]any, segs []string) any {
	for i := len(segs); i >= 1; i-- {
		v, ok := m[strings.Join(segs[:i], ".")]
		if !ok {
			continue
		}
		if i == len(segs) {
			return v
		}
		if sub, ok := v.(map[string]any); ok {
			if r := lookupSegs(sub, segs[i:]); r != nil {
				return r
			}
		}
	}
	return nil
}

func (s *Settings) str(key string) string {
	if v, ok := s.Raw(key).(string); ok {
		return v
	}
	return ""
}

// nonEmptyOr mirrors the reference's `value || default` for strings.
func (s *Settings) nonEmptyOr(key, def string) string {
	if v := s.str(key); v != "" {
		return v
	}
	return def
}

// intOr reads a number set in the files, else the key's default. A numeric
// string counts as its number: the reference's arithmetic on the value
// converts it the same way (and viper, which this replaced, cast it too).
func (s *Settings) intOr(key string) int {
	switch v := s.Raw(key).(type) {
	case float64:
		return int(v)
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return int(f)
		}
	}
	return mustDefault[int](key)
}

// boolOr reads a boolean set in the files, else the key's default. A value
// of the wrong type counts as unset, as `?? default` would not (the
// reference passes it through); booleans of any other type are rare enough
// that taking the default is the safer reading.
func (s *Settings) boolOr(key string) bool {
	if b, ok := s.Raw(key).(bool); ok {
		return b
	}
	return mustDefault[bool](key)
}

// mustDefault is key's entry in settingDefaults. A getter asking for a key
// the table lacks, or with another type, is a programming error that every
// test of that getter reaches, so it panics rather than answering zero.
func mustDefault[T any](key string) T {
	v, ok := settingDefaults[key].(T)
	if !ok {
		panic("config: no default of this type for setting " + key)
	}
	return v
}

// DefaultProvider is the saved startup provider, or "".
func (s *Settings) DefaultProvider() string { return s.str("defaultProvider") }

// DefaultModel is the saved startup model id, or "".
func (s *Settings) DefaultModel() string { return s.str("defaultModel") }

// DefaultThinkingLevel is the configured level; set reports whether a file
// set it (the default is "medium").
func (s *Settings) DefaultThinkingLevel() (level engine.ThinkingLevel, set bool) {
	if l, ok := engine.ParseThinkingLevel(s.str("defaultThinkingLevel")); ok {
		return l, true
	}
	return engine.ThinkingLevel(DefaultThinkingLevel), false
}

// ModelThinkingLevel returns modelThinkingLevels["provider/id"].
func (s *Settings) ModelThinkingLevel(provider, id string) (engine.ThinkingLevel, bool) {
	m, _ := s.Raw("modelThinkingLevels").(map[string]any)
	v, _ := m[provider+"/"+id].(string)
	return engine.ParseThinkingLevel(v)
}

// ThinkingBudgets returns the configured budgets per level, merged over
// the defaults (minimal 1024, low 2048, medium 8192, high 16384).
func (s *Settings) ThinkingBudgets() map[engine.ThinkingLevel]int {
	out := map[engine.ThinkingLevel]int{
		engine.ThinkingMinimal: 1024, engine.ThinkingLow: 2048,
		engine.ThinkingMedium: 8192, engine.ThinkingHigh: 16384,
	}
	m, _ := s.Raw("thinkingBudgets").(map[string]any)
	for k, v := range m {
		if f, ok := v.(float64); ok {
			out[engine.ThinkingLevel(k)] = int(f)
		}
	}
	return out
}

// CustomThinkingBudgets returns only the levels settings.json's
// thinkingBudgets sets (nil when none), which is what providers get: an
// adapter falls back to its own defaults per level, and Google's differ
// from the ones ThinkingBudgets merges in.
func (s *Settings) CustomThinkingBudgets() map[engine.ThinkingLevel]int {
	m, _ := s.Raw("thinkingBudgets").(map[string]any)
	var out map[engine.ThinkingLevel]int
	for _, level := range []engine.ThinkingLevel{engine.ThinkingMinimal, engine.ThinkingLow, engine.ThinkingMedium, engine.ThinkingHigh} {
		if f, ok := m[string(level)].(float64); ok {
			if out == nil {
				out = map[engine.ThinkingLevel]int{}
			}
			out[level] = int(f)
		}
	}
	return out
}

// SteeringMode is "one-at-a-time" (default) or "all".
func (s *Settings) SteeringMode() string { return s.nonEmptyOr("steeringMode", DefaultQueueMode) }

// FollowUpMode is "one-at-a-time" (default) or "all".
func (s *Settings) FollowUpMode() string { return s.nonEmptyOr("followUpMode", DefaultQueueMode) }

// Transport is "auto" unless set.
func (s *Settings) Transport() string { return s.nonEmptyOr("transport", DefaultTransport) }

// RetrySettings are the session-level auto-retry settings.
type RetrySettings struct {
	Enabled         bool
	MaxRetries      int
	BaseDelayMs     int
	MaxAgentDelayMs int
}

// Retry returns retry.* with defaults true/3/2000/60000.
func (s *Settings) Retry() RetrySettings {
	return RetrySettings{
		Enabled:         s.boolOr("retry.enabled"),
		MaxRetries:      s.intOr("retry.maxRetries"),
		BaseDelayMs:     s.intOr("retry.baseDelayMs"),
		MaxAgentDelayMs: s.intOr("retry.maxAgentDelayMs"),
	}
}

// ProviderRetrySettings are the HTTP-level retry settings. TimeoutMs and
// MaxRetries are nil when unset: the provider then uses
// HTTPIdleTimeoutMs and no SDK retries.
type ProviderRetrySettings struct {
	TimeoutMs       *int
	MaxRetries      *int
	MaxRetryDelayMs int
}

// ProviderRetry returns retry.provider.*.
func (s *Settings) ProviderRetry() ProviderRetrySettings {
	out := ProviderRetrySettings{MaxRetryDelayMs: s.intOr("retry.provider.maxRetryDelayMs")}
	if f, ok := s.Raw("retry.provider.timeoutMs").(float64); ok {
		n := int(f)
		out.TimeoutMs = &n
	}
	if f, ok := s.Raw("retry.provider.maxRetries").(float64); ok {
		n := int(f)
		out.MaxRetries = &n
	}
	return out
}

// CompactionSettings are compaction.*.
type CompactionSettings struct {
	Enabled          bool
	ReserveTokens    int
	KeepRecentTokens int
}

// Compaction returns compaction.* with defaults true/16384/20000.
func (s *Settings) Compaction() CompactionSettings {
	return CompactionSettings{
		Enabled:          s.boolOr("compaction.enabled"),
		ReserveTokens:    s.intOr("compaction.reserveTokens"),
		KeepRecentTokens: s.intOr("compaction.keepRecentTokens"),
	}
}

// BranchSummary returns branchSummary.reserveTokens and .skipPrompt.
func (s *Settings) BranchSummary() (reserveTokens int, skipPrompt bool) {
	return s.intOr("branchSummary.reserveTokens"), s.boolOr("branchSummary.skipPrompt")
}

// HTTPIdleTimeoutMs returns the idle timeout; 0 means disabled. A value
// that is neither a non-negative number nor "disabled" yields an error
// string like the reference's and the default.
func (s *Settings) HTTPIdleTimeoutMs() (int, error) {
	v := s.Raw("httpIdleTimeoutMs")
	if v == nil {
		return DefaultHTTPIdleTimeoutMs, nil
	}
	if n, ok := parseTimeout(v); ok {
		return n, nil
	}
	return DefaultHTTPIdleTimeoutMs, &SettingError{Msg: "Invalid httpIdleTimeoutMs setting: " + jsString(v)}
}

// SettingError is a setting whose value is unusable.
type SettingError struct{ Msg string }

func (e *SettingError) Error() string { return e.Msg }

func parseTimeout(v any) (int, bool) {
	switch x := v.(type) {
	case string:
		t := strings.TrimSpace(x)
		if strings.EqualFold(t, "disabled") {
			return 0, true
		}
		if t == "" {
			return 0, false
		}
		f, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return 0, false
		}
		return parseTimeout(f)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return 0, false
		}
		return int(math.Floor(x)), true
	}
	return 0, false
}

func jsString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return "[object Object]"
}

// SessionDir is the sessionDir setting with "~" expanded, or "".
func (s *Settings) SessionDir() string { return ExpandHome(s.str("sessionDir")) }

// ShellPath is the shellPath setting with "~" expanded, or "".
func (s *Settings) ShellPath() string { return ExpandHome(s.str("shellPath")) }

// ShellCommandPrefix is the shellCommandPrefix setting, or "".
func (s *Settings) ShellCommandPrefix() string { return s.str("shellCommandPrefix") }

// ImagesAutoResize is images.autoResize (default true).
func (s *Settings) ImagesAutoResize() bool { return s.boolOr("images.autoResize") }

// BlockImages is images.blockImages (default false).
func (s *Settings) BlockImages() bool { return s.boolOr("images.blockImages") }

// EnableSkillCommands is enableSkillCommands (default true).
func (s *Settings) EnableSkillCommands() bool { return s.boolOr("enableSkillCommands") }

// DefaultProjectTrust is the global defaultProjectTrust: "always", "never"
// or "ask" (the default, also for unknown values).
func (s *Settings) DefaultProjectTrust() string {
	v, _ := s.GlobalRaw("defaultProjectTrust").(string)
	if v == "always" || v == "never" {
		return v
	}
	return DefaultProjectTrustSetting
}

// HTTPProxy is the global httpProxy, or "".
func (s *Settings) HTTPProxy() string {
	v, _ := s.GlobalRaw("httpProxy").(string)
	return strings.TrimSpace(v)
}

// EnabledModels returns the enabledModels patterns; nil means all models.
func (s *Settings) EnabledModels() []string { return s.strings("enabledModels") }

// DefaultTools resolves defaultTools: plain names replace the built-in
// default list, then +name adds and -name removes, in order. ok is false
// when no settings layer sets it.
func (s *Settings) DefaultTools() (tools []string, ok bool) {
	raw, isList := s.Raw("defaultTools").([]any)
	if s.Raw("defaultTools") == nil {
		return nil, false
	}
	var entries []string
	if isList {
		for _, e := range raw {
			if str, ok := e.(string); ok {
				entries = append(entries, str)
			}
		}
	}
	return ResolveToolList(entries), true
}

// IsToolModifier reports whether an entry is "+name" or "-name".
func IsToolModifier(e string) bool { return strings.HasPrefix(e, "+") || strings.HasPrefix(e, "-") }

func allModifiers(list []any) bool {
	for _, e := range list {
		s, ok := e.(string)
		if !ok || !IsToolModifier(s) {
			return false
		}
	}
	return true
}

// ResolveToolList applies a defaultTools-style list: its plain names (or
// DefaultToolNames when it has only modifiers) modified by +x/-x in order.
func ResolveToolList(entries []string) []string {
	var plain []string
	for _, e := range entries {
		if !IsToolModifier(e) {
			plain = append(plain, e)
		}
	}
	base := plain
	if len(plain) == 0 && len(entries) > 0 {
		base = DefaultToolNames
	}
	tools := append([]string{}, base...)
	for _, e := range entries {
		if !IsToolModifier(e) {
			continue
		}
		name := e[1:]
		idx := -1
		for i, t := range tools {
			if t == name {
				idx = i
				break
			}
		}
		if e[0] == '+' && idx == -1 && name != "" {
			tools = append(tools, name)
		} else if e[0] == '-' && idx != -1 {
			tools = append(tools[:idx], tools[idx+1:]...)
		}
	}
	if tools == nil {
		tools = []string{}
	}
	return tools
}

// Resources returns a resource list ("packages", "extensions", "skills",
// "prompts", "themes") from each layer separately. The lists are combined
// by the caller, which resolves each relative to its own base directory
// (the agent dir or the project's .pi).
func (s *Settings) Resources(key string) (global, project []string) {
	s.mu.Lock()
	g, p := s.global[key], s.project[key]
	s.mu.Unlock()
	return toStrings(g), toStrings(p)
}

// Extensions, Skills and Prompts return the merged lists as the reference's
// getters do (the project list replaces the global one).
func (s *Settings) Extensions() []string { return s.strings("extensions") }

// Skills returns the merged "skills" list.
func (s *Settings) Skills() []string { return s.strings("skills") }

// Prompts returns the merged "prompts" list.
func (s *Settings) Prompts() []string { return s.strings("prompts") }

// Packages returns the merged "packages" list (string entries only).
func (s *Settings) Packages() []string { return s.strings("packages") }

func (s *Settings) strings(key string) []string { return toStrings(s.Raw(key)) }

func toStrings(v any) []string {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		if str, ok := e.(string); ok {
			out = append(out, str)
		}
	}
	return out
}

// CacheWarmingModes are the values cacheWarming accepts, in the
// reference's order.
var CacheWarmingModes = []string{"off", "streaming", "idle"}

// CacheWarmingMode is the global cacheWarming setting: "off",
// "streaming" or "idle" (the default, also for any other value). A
// project's settings never change it: keeping a cache warm spends the
// user's money, so only the user's own file decides, as in the reference.
func (s *Settings) CacheWarmingMode() string {
	v, _ := s.GlobalRaw("cacheWarming").(string)
	for _, m := range CacheWarmingModes {
		if v == m {
			return v
		}
	}
	return "idle"
}

// ShowCacheMissNotices is showCacheMissNotices (default false): the
// transcript notices for cache misses, cache warming, summary usage and
// dropped thinking blocks.
func (s *Settings) ShowCacheMissNotices() bool {
	b, _ := s.Raw("showCacheMissNotices").(bool)
	return b
}
