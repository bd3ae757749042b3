package pi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine/config"
)

func loadSettings(t *testing.T, js string) *config.Settings {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(dir, t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestUnbuiltSettingWarnings checks that a setting this build does not
// apply yet is named in a warning when set away from its default, and
// that defaults warn about nothing.
func TestUnbuiltSettingWarnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		settings string
		want     []string
	}{
		{`{}`, nil},
		{`{"httpIdleTimeoutMs":300000,"transport":"auto"}`, nil},
		{`{"httpIdleTimeoutMs":1000}`, nil},
		{`{"retry":{"provider":{"maxRetries":2}}}`, []string{"retry.provider.maxRetries"}},
		{`{"transport":"websocket"}`, []string{`transport "websocket"`}},
	}
	for _, tc := range tests {
		got := unbuiltSettingWarnings(loadSettings(t, tc.settings))
		if len(got) != len(tc.want) {
			t.Errorf("%s: warnings %q, want %d", tc.settings, got, len(tc.want))
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) || !strings.Contains(got[i], "not applied in this build") {
				t.Errorf("%s: warning %q, want one naming %s", tc.settings, got[i], w)
			}
		}
	}
}

// TestApplyHTTPProxy checks that httpProxy becomes HTTP_PROXY and
// HTTPS_PROXY, without overriding a variable the environment sets.
func TestApplyHTTPProxy(t *testing.T) {
	t.Setenv("HTTP_PROXY", "")
	os.Unsetenv("HTTP_PROXY")
	t.Setenv("HTTPS_PROXY", "http://mine:1")
	applyHTTPProxy(loadSettings(t, `{"httpProxy":" http://proxy:8080 "}`))
	if got := os.Getenv("HTTP_PROXY"); got != "http://proxy:8080" {
		t.Errorf("HTTP_PROXY %q", got)
	}
	if got := os.Getenv("HTTPS_PROXY"); got != "http://mine:1" {
		t.Errorf("HTTPS_PROXY %q, want the environment's own", got)
	}
}
