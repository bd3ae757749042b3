package config

import (
	"encoding/json"
	"testing"
)

// TestCompactionModelOverrides checks the parse of
// compaction.modelOverrides: model refs with dots stay whole keys, project
// entries merge over global ones, and values the reference rejects
// (negative, fractional, non-numbers) keep the global value.
func TestCompactionModelOverrides(t *testing.T) {
	t.Parallel()
	var global, project map[string]any
	if err := json.Unmarshal([]byte(`{"compaction":{"keepRecentTokens":500,"modelOverrides":{
		"openai/gpt-4.1":{"keepRecentTokens":100,"reserveTokens":2000},
		"a/b":{"keepRecentTokens":-1,"reserveTokens":1.5},
		"c/d":"nope"}}}`), &global); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"compaction":{"modelOverrides":{"x/y":{"reserveTokens":0}}}}`), &project); err != nil {
		t.Fatal(err)
	}
	got := FromMaps(global, project).CompactionModelOverrides()
	ov, ok := got["openai/gpt-4.1"]
	if !ok || ov.KeepRecentTokens == nil || *ov.KeepRecentTokens != 100 || ov.ReserveTokens == nil || *ov.ReserveTokens != 2000 {
		t.Fatalf("openai/gpt-4.1 = %+v (all %v)", ov, got)
	}
	if ov, ok := got["x/y"]; !ok || ov.ReserveTokens == nil || *ov.ReserveTokens != 0 || ov.KeepRecentTokens != nil {
		t.Fatalf("x/y = %+v (all %v)", ov, got)
	}
	for _, ref := range []string{"a/b", "c/d"} {
		if _, ok := got[ref]; ok {
			t.Errorf("%s kept: %+v", ref, got[ref])
		}
	}
	if FromMaps(nil, nil).CompactionModelOverrides() != nil {
		t.Error("overrides without settings")
	}
}
