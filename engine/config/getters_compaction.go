package config

import (
	"math"

	"github.com/pi-go/pi/engine"
)

// CompactionModelOverrides returns compaction.modelOverrides: per
// "provider/id", the reserveTokens and keepRecentTokens that replace the
// global ones for that model. Only non-negative whole numbers count, the
// values the reference accepts; anything else leaves the global value.
func (s *Settings) CompactionModelOverrides() map[string]engine.CompactionOverride {
	m, ok := s.Raw("compaction.modelOverrides").(map[string]any)
	if !ok || len(m) == 0 {
		return nil
	}
	out := make(map[string]engine.CompactionOverride, len(m))
	for ref, v := range m {
		entry, ok := v.(map[string]any)
		if !ok {
			continue
		}
		ov := engine.CompactionOverride{
			ReserveTokens:    tokenSetting(entry["reserveTokens"]),
			KeepRecentTokens: tokenSetting(entry["keepRecentTokens"]),
		}
		if ov.ReserveTokens != nil || ov.KeepRecentTokens != nil {
			out[ref] = ov
		}
	}
	return out
}

// tokenSetting is v as a non-negative safe integer, else nil.
func tokenSetting(v any) *int {
	f, ok := v.(float64)
	if !ok || f < 0 || f != math.Trunc(f) || f > 1<<53-1 {
		return nil
	}
	n := int(f)
	return &n
}
