package engine

import "encoding/json"

// ThinkingLevel is how much reasoning a model is asked for.
type ThinkingLevel string

// Thinking levels, lowest first.
const (
	ThinkingOff     ThinkingLevel = "off"
	ThinkingMinimal ThinkingLevel = "minimal"
	ThinkingLow     ThinkingLevel = "low"
	ThinkingMedium  ThinkingLevel = "medium"
	ThinkingHigh    ThinkingLevel = "high"
	ThinkingXHigh   ThinkingLevel = "xhigh"
	ThinkingMax     ThinkingLevel = "max"
)

// AllThinkingLevels lists every level, lowest first.
var AllThinkingLevels = []ThinkingLevel{ThinkingOff, ThinkingMinimal, ThinkingLow, ThinkingMedium, ThinkingHigh, ThinkingXHigh, ThinkingMax}

// ParseThinkingLevel reports whether s names a level.
func ParseThinkingLevel(s string) (ThinkingLevel, bool) {
	for _, l := range AllThinkingLevels {
		if string(l) == s {
			return l, true
		}
	}
	return "", false
}

// thinkingMap reads a model's thinkingLevelMap: a level maps to a string,
// or to null when the model does not support it.
func thinkingMap(m *Model) map[string]*string {
	if len(m.ThinkingLevelMap) == 0 {
		return nil
	}
	var raw map[string]*string
	if json.Unmarshal(m.ThinkingLevelMap, &raw) != nil {
		return nil
	}
	return raw
}

// SupportedThinkingLevels returns the levels the model accepts, lowest
// first. A non-reasoning model supports only off; a reasoning model
// supports off to high, plus xhigh and max when its map names them; a null
// entry in the map removes a level.
func SupportedThinkingLevels(m *Model) []ThinkingLevel {
	if m == nil || !m.Reasoning {
		return []ThinkingLevel{ThinkingOff}
	}
	mp := thinkingMap(m)
	var out []ThinkingLevel
	for _, l := range AllThinkingLevels {
		v, present := mp[string(l)]
		if present && v == nil {
			continue
		}
		if (l == ThinkingXHigh || l == ThinkingMax) && !present {
			continue
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		out = []ThinkingLevel{ThinkingOff}
	}
	return out
}

// ClampThinkingLevel returns the requested level if the model supports it,
// else the next higher supported level, else the next lower one.
func ClampThinkingLevel(m *Model, want ThinkingLevel) ThinkingLevel {
	sup := SupportedThinkingLevels(m)
	idx := func(l ThinkingLevel) int {
		for i, x := range AllThinkingLevels {
			if x == l {
				return i
			}
		}
		return -1
	}
	w := idx(want)
	for _, l := range sup {
		if l == want {
			return l
		}
	}
	for _, l := range sup {
		if idx(l) > w {
			return l
		}
	}
	return sup[len(sup)-1]
}

// MappedThinkingLevel returns the provider-side name of a level: the
// model's thinkingLevelMap entry if it is a string, else the level itself.
// ok is false when the map says null (unsupported).
func MappedThinkingLevel(m *Model, l ThinkingLevel) (name string, ok bool) {
	mp := thinkingMap(m)
	if v, present := mp[string(l)]; present {
		if v == nil {
			return "", false
		}
		return *v, true
	}
	return string(l), true
}
