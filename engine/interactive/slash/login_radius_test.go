package slash

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/pi-go/pi/engine/config/login"
)

// TestLoginRadiusAndBrowser signs in with Radius from /login's first
// question, as the reference offers it: the browser opens on the sign-in
// URL, a device code's page opens (and the code is copied) on Enter, the
// model list refresh and model selection follow a login, and cancelling
// returns to the selector. Not parallel: it replaces the browser opener.
func TestLoginRadiusAndBrowser(t *testing.T) {
	var mu sync.Mutex
	var opened []string
	saved := openBrowser
	openBrowser = func(u string) { mu.Lock(); opened = append(opened, u); mu.Unlock() }
	t.Cleanup(func() { openBrowser = saved })

	a := newAgent(t)
	a.model = nil
	a.providers = []AuthProvider{
		{ID: "openai", Name: "OpenAI", APIKey: true},
		{ID: "radius", Name: "Radius", OAuth: true, APIKey: true},
	}
	a.loginFn = func(ctx context.Context, ui login.Interaction) error {
		ui.Notify(login.Event{Kind: "auth_url", URL: "https://radius.example/authorize?state=1", Instructions: "Continue in your browser."})
		ui.Notify(login.Event{Kind: "auth_url", URL: "javascript:alert(1)"})
		return nil
	}
	a.afterLogin = func(string) (string, string, error) { return "balanced", "", nil }
	h := newHost(t, a)
	h.async = true
	run(t, h, "/login")
	if s := h.screen(); !strings.Contains(s, "Sign in with Radius • not configured") {
		t.Fatalf("first question:\n%s", s)
	}
	h.press("down", "down", "enter")
	h.pump(func() bool { return strings.HasPrefix(h.last(), "info: Logged in to Radius") })
	h.wg.Wait()
	if got := h.last(); got != "info: Logged in to Radius. Selected balanced. Credentials saved to /agent/auth.json" {
		t.Fatalf("notice %q", got)
	}
	mu.Lock()
	if strings.Join(opened, " ") != "https://radius.example/authorize?state=1" {
		t.Fatalf("opened %q", opened)
	}
	mu.Unlock()
	if !strings.Contains(a.allCalls(), "Login radius apiKey=false; AfterLogin radius") {
		t.Fatalf("calls %q", a.allCalls())
	}

	// A device code: Enter opens its page and copies the code; Escape
	// cancels and goes back to the first question.
	a.loginFn = func(ctx context.Context, ui login.Interaction) error {
		ui.Notify(login.Event{Kind: "device_code", URL: "https://radius.example/device", UserCode: "RADI-2345"})
		<-ctx.Done()
		return login.ErrCancelled
	}
	run(t, h, "/login")
	h.press("down", "down", "enter")
	h.pump(func() bool { return strings.Contains(h.screen(), "Open the browser and copy the code") })
	if s := h.screen(); !strings.Contains(s, "RADI-2345") || !strings.Contains(s, "Waiting for authentication...") {
		t.Fatalf("device code:\n%s", s)
	}
	h.press("enter")
	h.pump(func() bool { return strings.Contains(h.screen(), "Code copied to clipboard") })
	mu.Lock()
	if opened[len(opened)-1] != "https://radius.example/device" || strings.Join(h.copied, " ") != "RADI-2345" {
		t.Fatalf("opened %q copied %q", opened, h.copied)
	}
	mu.Unlock()
	h.press("escape")
	h.pump(func() bool { return h.last() == "info: Login cancelled." })
	h.wg.Wait()
	h.pump(func() bool { return strings.Contains(h.screen(), "Select authentication method:") })

	// A failed sign-in, and a login whose refresh fails and whose
	// provider has no model to select.
	h.press("escape")
	a.loginFn = func(context.Context, login.Interaction) error { return errors.New("gateway said no") }
	run(t, h, "/login radius")
	h.press("enter") // account
	h.pump(func() bool { return strings.HasPrefix(h.last(), "error: ") })
	h.wg.Wait()
	if got := h.last(); got != "error: Failed to login to Radius: gateway said no" {
		t.Fatalf("notice %q", got)
	}
	a.loginFn = nil
	a.afterLogin = func(string) (string, string, error) {
		return "", "no models are available for that provider. Use /model to select a model.", errors.New("down")
	}
	run(t, h, "/login radius")
	h.press("enter")
	h.pump(func() bool { return strings.HasPrefix(h.last(), "warning: ") })
	h.wg.Wait()
	want := []string{
		"info: Logged in to Radius. Credentials saved to /agent/auth.json",
		"error: Logged in to Radius, but no models are available for that provider. Use /model to select a model.",
		"warning: Logged in to Radius, but its model catalog could not be refreshed; using cached models.",
	}
	if got := h.notices[len(h.notices)-3:]; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("notices:\n%s", strings.Join(got, "\n"))
	}
	if h.dialog != nil {
		t.Fatalf("dialog left open:\n%s", h.screen())
	}
}
