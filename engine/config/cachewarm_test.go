package config

import "testing"

// TestPromptCache checks that models.json gives a model its promptCache
// (placed where the reference's get_state puts it: the line below is its
// output for this file) and that modelOverrides merges one into a
// catalog model's, as cache warming reads the lifetime from there.
func TestPromptCache(t *testing.T) {
	t.Parallel()
	models := `{"providers":{"mock":{"baseUrl":"http://127.0.0.1:38821","api":"anthropic-messages","apiKey":"mock-key",
  "models":[{"id":"mock-model","cost":{"input":10,"output":50,"cacheRead":0.1,"cacheWrite":12.5},"promptCache":{"short":12}}]},
  "anthropic":{"modelOverrides":{"claude-haiku-4-5":{"promptCache":{"short":100}}}}}}`
	r, errs := loadTestRegistry(t, models, "", nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := `{"id":"mock-model","name":"mock-model","api":"anthropic-messages","provider":"mock","baseUrl":"http://127.0.0.1:38821","reasoning":false,"input":["text"],"cost":{"input":10,"output":50,"cacheRead":0.1,"cacheWrite":12.5},"promptCache":{"short":12},"contextWindow":128000,"maxTokens":16384}`
	if got := marshal(t, r.Find("mock", "mock-model")); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := string(r.Find("anthropic", "claude-haiku-4-5").PromptCache); got != `{"short":100,"long":3600}` {
		t.Errorf("override: %s", got)
	}
}

func TestCacheWarmingModeIsGlobal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		global, project any
		want            string
	}{
		{nil, nil, "idle"},
		{"off", nil, "off"},
		{"streaming", "off", "streaming"},
		{nil, "off", "idle"},
		{"sometimes", nil, "idle"},
	} {
		g, p := map[string]any{}, map[string]any{}
		if tc.global != nil {
			g["cacheWarming"] = tc.global
		}
		if tc.project != nil {
			p["cacheWarming"] = tc.project
		}
		if got := FromMaps(g, p).CacheWarmingMode(); got != tc.want {
			t.Errorf("global %v project %v: %q, want %q", tc.global, tc.project, got, tc.want)
		}
	}
	if FromMaps(nil, nil).ShowCacheMissNotices() || !FromMaps(nil, map[string]any{"showCacheMissNotices": true}).ShowCacheMissNotices() {
		t.Error("showCacheMissNotices: default false, a project may turn it on")
	}
}
