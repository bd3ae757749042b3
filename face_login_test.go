package pi_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pi "github.com/pi-go/pi"
	"github.com/pi-go/pi/e2e/authref"
	"github.com/pi-go/pi/engine/config/login"
)

// deviceUI picks the device-code sign-in and records the notices.
type deviceUI struct{ events []login.Event }

func (u *deviceUI) Ask(_ context.Context, p login.Prompt) (string, error) {
	if p.Kind == "select" {
		return p.Options[len(p.Options)-1].ID, nil
	}
	return "", login.ErrCancelled
}
func (u *deviceUI) Notify(e login.Event) { u.events = append(u.events, e) }

// TestLoginAtRadiusGateway signs in, as /login does, to a models.json
// provider with "oauth": "radius" against a fake gateway: the provider is
// offered before it has models, the sign-in runs at baseUrl less /v1, and
// AfterLogin brings in the account's models (selecting none: only the
// built-in radius has a default), which then use the login's access token.
func TestLoginAtRadiusGateway(t *testing.T) {
	t.Parallel()
	gw := &authref.Gateway{}
	srv := httptest.NewServer(gw)
	defer srv.Close()
	gw.URL = srv.URL
	root := t.TempDir()
	agentDir, project := filepath.Join(root, "agent"), filepath.Join(root, "project")
	for _, d := range []string{agentDir, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	models := `{"providers":{"myradius":{"name":"My Radius","baseUrl":"` + srv.URL + `/v1/","oauth":"radius"}}}`
	if err := os.WriteFile(filepath.Join(agentDir, "models.json"), []byte(models), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var stderr bytes.Buffer
	agent, err := pi.New(ctx, pi.Options{AgentDir: agentDir, Cwd: project, Mode: pi.ModeRPC, Stderr: &stderr})
	if err != nil {
		t.Fatalf("New: %v (%s)", err, stderr.String())
	}
	defer agent.Close()
	offered := false
	for _, p := range agent.AuthProviders() {
		if p.ID == "myradius" {
			offered = p.OAuth && p.APIKey && p.Name == "My Radius" && !p.Configured
		}
	}
	if !offered {
		t.Fatalf("myradius not offered for an account sign-in: %+v", agent.AuthProviders())
	}
	ui := &deviceUI{}
	if err := agent.Login(ctx, "myradius", false, ui); err != nil {
		t.Fatal(err)
	}
	if len(ui.events) == 0 || ui.events[0].UserCode != authref.UserCode {
		t.Fatalf("notices %+v", ui.events)
	}
	// Only the built-in radius has a default model (its first); the
	// reference says so for any other provider.
	selected, note, refreshErr := agent.AfterLogin(ctx, "myradius")
	if selected != "" || note != `no default model is configured for provider "myradius". Use /model to select a model.` || refreshErr != nil {
		t.Fatalf("AfterLogin: %q %q %v", selected, note, refreshErr)
	}
	if _, err := agent.SetModel(ctx, "myradius", "team-fast"); err != nil {
		t.Fatal(err)
	}
	if m := agent.Model(); m == nil || m.Provider != "myradius" || m.BaseURL != srv.URL+"/v1" {
		t.Fatalf("model %+v", m)
	}
	var ids []string
	for _, m := range agent.AvailableModels() {
		if m.Provider == "myradius" {
			ids = append(ids, m.ID)
		}
	}
	if strings.Join(ids, " ") != "team-fast team-deep" {
		t.Fatalf("models %v", ids)
	}
	// The login's token goes with requests (the gateway refuses them and
	// echoes it; the error must not show it).
	err = agent.Prompt(ctx, "hi", nil)
	log := strings.Join(gw.Log(), "\n")
	if !strings.Contains(log, "POST /v1/messages [Authorization: Bearer "+authref.Access1+"]") {
		t.Fatalf("requests:\n%s", log)
	}
	if err != nil && strings.Contains(err.Error(), authref.Access1) {
		t.Fatalf("the error shows the token: %v", err)
	}
	if !strings.Contains(log, "GET /v1/config [Authorization: Bearer "+authref.Access1+"]") {
		t.Fatalf("requests:\n%s", log)
	}
}
