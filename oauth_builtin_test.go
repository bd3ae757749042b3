package pi

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

// TestWithOAuthBaseURL checks that a stored Copilot login sends requests
// to the endpoint its token names, and that nothing else moves them.
func TestWithOAuthBaseURL(t *testing.T) {
	t.Parallel()
	const auth = `{"github-copilot":{"type":"oauth","refresh":"g","access":"tid=1;proxy-ep=proxy.enterprise.githubcopilot.com;","expires":4102444800000},` +
		`"anthropic":{"type":"oauth","refresh":"r","access":"sk-ant-oat01-x","expires":4102444800000}}`
	tests := []struct {
		name, provider, override, want string
	}{
		{"copilot token endpoint", "github-copilot", "", "https://api.enterprise.githubcopilot.com"},
		{"an --api-key override keeps the model's URL", "github-copilot", "k", "http://model"},
		{"anthropic keeps the model's URL", "anthropic", "", "http://model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "auth.json"), []byte(auth), 0o600); err != nil {
				t.Fatal(err)
			}
			reg := loadTestRegistry(t, dir)
			enableBuiltinOAuth(reg)
			if tt.override != "" {
				reg.SetAPIKeyOverride(tt.provider, tt.override)
			}
			req := &engine.LLMRequest{Model: &engine.Model{Provider: tt.provider, ID: "m", BaseURL: "http://model"}}
			got := withOAuthBaseURL(reg, req)
			if got.Model.BaseURL != tt.want {
				t.Errorf("base URL %q, want %q", got.Model.BaseURL, tt.want)
			}
			if req.Model.BaseURL != "http://model" {
				t.Error("the caller's model was changed")
			}
		})
	}
}

func loadTestRegistry(t *testing.T, dir string) *config.Registry {
	t.Helper()
	reg, errs := config.LoadModels(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return reg
}
