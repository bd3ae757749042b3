package pi

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-go/pi/engine/config"
)

// TestReloadSettings checks that ctx.reload's settings step refreshes
// the app's settings object in place from the files.
func TestReloadSettings(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, before, after, want string }{
		{"changed", `{"steeringMode":"all"}`, `{"theme":"dark","steeringMode":"one-at-a-time"}`, `{"theme":"dark","steeringMode":"one-at-a-time"}`},
		{"unchanged", `{"theme":"dark"}`, `{"theme":"dark"}`, `{"theme":"dark"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			agent := filepath.Join(dir, "agent")
			if err := os.MkdirAll(agent, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(agent, "settings.json")
			if err := os.WriteFile(path, []byte(tc.before), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := config.Load(agent, dir, false)
			if err != nil {
				t.Fatal(err)
			}
			app := &Agent{cwd: dir, agentDir: agent, stderr: io.Discard, settings: s}
			if err := os.WriteFile(path, []byte(tc.after), 0o644); err != nil {
				t.Fatal(err)
			}
			app.reloadSettings(nil)
			got, err := app.settings.MergedJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("settings after reload = %s, want %s", got, tc.want)
			}
			if app.settings != s {
				t.Error("reload replaced the settings object instead of refreshing it")
			}
		})
	}
}
