package config

import "testing"

// TestModelCostTiers checks that models.json price tiers reach the model
// (so costs use them) and its wire form, that a catalog model's tiers are
// in its Go form, and that a cost override without tiers keeps the
// catalog's while one with tiers replaces them.
func TestModelCostTiers(t *testing.T) {
	t.Parallel()
	models := `{"providers":{"mock":{"baseUrl":"http://127.0.0.1:18777/v1","api":"openai-completions","apiKey":"sk-mock",
  "models":[{"id":"m","cost":{"input":1,"output":2,"cacheRead":0.1,"cacheWrite":1.25,"tiers":[{"inputTokensAbove":200000,"input":2,"output":4,"cacheRead":0.2,"cacheWrite":2.5}]}}]},
  "amazon-bedrock":{"modelOverrides":{"global.openai.gpt-6-sol":{"cost":{"input":3}},"global.openai.gpt-6-luna":{"cost":{"tiers":[{"inputTokensAbove":1000,"input":9,"output":9,"cacheRead":9,"cacheWrite":9}]}}}}}}`
	r, errs := loadTestRegistry(t, models, "", nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	// The reference's get_available_models line for the models.json model.
	want := `{"id":"m","name":"m","api":"openai-completions","provider":"mock","baseUrl":"http://127.0.0.1:18777/v1","reasoning":false,"input":["text"],"cost":{"input":1,"output":2,"cacheRead":0.1,"cacheWrite":1.25,"tiers":[{"inputTokensAbove":200000,"input":2,"output":4,"cacheRead":0.2,"cacheWrite":2.5}]},"contextWindow":128000,"maxTokens":16384}`
	if got := marshal(t, r.Find("mock", "m")); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	tests := []struct {
		provider, id string
		above        float64
		input        float64
	}{
		{"mock", "m", 200000, 2},
		{"amazon-bedrock", "global.openai.gpt-6-astra", 272000, 20},
		{"amazon-bedrock", "global.openai.gpt-6-sol", 272000, 4},
		{"amazon-bedrock", "global.openai.gpt-6-luna", 1000, 9},
	}
	for _, tt := range tests {
		m := r.Find(tt.provider, tt.id)
		if m == nil {
			t.Fatalf("%s/%s not found", tt.provider, tt.id)
		}
		if len(m.Cost.Tiers) != 1 || m.Cost.Tiers[0].InputTokensAbove != tt.above || m.Cost.Tiers[0].Input != tt.input {
			t.Errorf("%s/%s tiers = %+v, want one above %v at input %v", tt.provider, tt.id, m.Cost.Tiers, tt.above, tt.input)
		}
	}
	if m := r.Find("amazon-bedrock", "global.openai.gpt-6-sol"); m.Cost.Input != 3 {
		t.Errorf("override input = %v, want 3", m.Cost.Input)
	}
}
