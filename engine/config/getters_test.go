package config

import (
	"encoding/json"
	"testing"
)

// TestTypedGetterDefaults reads every getter that falls back to
// settingDefaults three ways: with no files (the reference's default), with
// a value set (the value), and with a value of the wrong type (the default
// again, as the getters document). A getter whose key is missing from the
// table panics here.
func TestTypedGetterDefaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		path        string
		set, wrong  any
		get         func(*Settings) any
		def, wantOn any
	}{
		{"compaction.enabled", false, "no", func(s *Settings) any { return s.Compaction().Enabled }, true, false},
		{"compaction.reserveTokens", 100.0, "lots", func(s *Settings) any { return s.Compaction().ReserveTokens }, DefaultCompactionReserve, 100},
		{"compaction.keepRecentTokens", 7.0, true, func(s *Settings) any { return s.Compaction().KeepRecentTokens }, DefaultCompactionKeep, 7},
		{"branchSummary.reserveTokens", 9.0, map[string]any{}, func(s *Settings) any { r, _ := s.BranchSummary(); return r }, DefaultCompactionReserve, 9},
		{"branchSummary.skipPrompt", true, 1.0, func(s *Settings) any { _, p := s.BranchSummary(); return p }, false, true},
		{"retry.enabled", false, "false", func(s *Settings) any { return s.Retry().Enabled }, true, false},
		{"retry.maxRetries", 5.0, "", func(s *Settings) any { return s.Retry().MaxRetries }, DefaultRetryMaxRetries, 5},
		{"retry.baseDelayMs", 10.0, nil, func(s *Settings) any { return s.Retry().BaseDelayMs }, DefaultRetryBaseDelayMs, 10},
		{"retry.maxAgentDelayMs", 11.0, []any{}, func(s *Settings) any { return s.Retry().MaxAgentDelayMs }, DefaultRetryMaxAgentDelay, 11},
		{"retry.provider.maxRetryDelayMs", 12.0, "12ms", func(s *Settings) any { return s.ProviderRetry().MaxRetryDelayMs }, DefaultProviderMaxDelayMs, 12},
		{"images.autoResize", false, "false", func(s *Settings) any { return s.ImagesAutoResize() }, true, false},
		{"images.blockImages", true, "true", func(s *Settings) any { return s.BlockImages() }, false, true},
		{"enableSkillCommands", false, 0.0, func(s *Settings) any { return s.EnableSkillCommands() }, true, false},
	}
	// nest turns "a.b.c" = v into {"a":{"b":{"c":v}}}, the shape of settings.json.
	nest := func(path string, v any) map[string]any {
		var m map[string]any
		b, _ := json.Marshal(v)
		doc := string(b)
		for i := len(path) - 1; i >= -1; i-- {
			if i == -1 || path[i] == '.' {
				key, _ := json.Marshal(path[i+1:])
				doc = "{" + string(key) + ":" + doc + "}"
				path = path[:max(i, 0)]
			}
		}
		if err := json.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, tc := range cases {
		if _, ok := settingDefaults[tc.path]; !ok {
			t.Errorf("%s: no entry in settingDefaults", tc.path)
			continue
		}
		if got := tc.get(FromMaps(nil, nil)); got != tc.def {
			t.Errorf("%s unset = %v, want %v", tc.path, got, tc.def)
		}
		if got := tc.get(FromMaps(nil, nest(tc.path, tc.set))); got != tc.wantOn {
			t.Errorf("%s = %v: got %v, want %v", tc.path, tc.set, got, tc.wantOn)
		}
		if got := tc.get(FromMaps(nest(tc.path, tc.wrong), nil)); got != tc.def {
			t.Errorf("%s = %#v (wrong type): got %v, want the default %v", tc.path, tc.wrong, got, tc.def)
		}
	}
	// A numeric string counts as its number for the integer settings.
	if got := FromMaps(map[string]any{"retry": map[string]any{"maxRetries": " 7 "}}, nil).Retry().MaxRetries; got != 7 {
		t.Errorf(`retry.maxRetries = " 7 ": got %d, want 7`, got)
	}
	if len(cases) != len(settingDefaults) {
		t.Errorf("%d cases for %d defaults: a default has no test", len(cases), len(settingDefaults))
	}
}
