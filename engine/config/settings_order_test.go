package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func writeSettingsFile(t *testing.T, path, body string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
}

// TestMergedJSONOrder checks pi.getSettings()'s key order: the global
// file's keys as written, then the project's new keys, nested objects
// merged alike, integer-like keys first, migrated keys last.
func TestMergedJSONOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, global, project, want string
	}{
		{"global only", `{"defaultProvider":"mock","defaultModel":"m","compaction":{"reserveTokens":500,"keepRecentTokens":10}}`, "",
			`{"defaultProvider":"mock","defaultModel":"m","compaction":{"reserveTokens":500,"keepRecentTokens":10}}`},
		{"project adds after", `{"theme":"dark","compaction":{"enabled":true}}`, `{"quietStartup":true,"compaction":{"reserveTokens":5,"enabled":false}}`,
			`{"theme":"dark","compaction":{"enabled":false,"reserveTokens":5},"quietStartup":true}`},
		{"index keys first", `{"b":1,"10":2,"a":3,"2":4}`, "", `{"2":4,"10":2,"b":1,"a":3}`},
		{"migrated key last", `{"queueMode":"all","theme":"dark"}`, "", `{"theme":"dark","steeringMode":"all"}`},
		{"arrays keep item order", `{"packages":[{"source":"x","extensions":["a"]}]}`, "", `{"packages":[{"source":"x","extensions":["a"]}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agent, cwd := t.TempDir(), t.TempDir()
			writeSettingsFile(t, filepath.Join(agent, "settings.json"), tc.global)
			if tc.project != "" {
				writeSettingsFile(t, filepath.Join(cwd, ".pi", "settings.json"), tc.project)
			}
			s, err := Load(agent, cwd, true)
			require.NoError(t, err)
			got, err := s.MergedJSON()
			require.NoError(t, err)
			require.Equal(t, tc.want, string(got))
		})
	}
}

// TestSettingsReload checks that Reload refreshes the same object from
// the files, and keeps a layer whose file no longer parses.
func TestSettingsReload(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, after, want string
	}{
		{"changed", `{"defaultModel":"b","steeringMode":"all"}`, `{"defaultModel":"b","steeringMode":"all"}`},
		{"removed", ``, `{}`},
		{"malformed keeps previous", `{"defaultModel":`, `{"defaultModel":"a"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agent, cwd := t.TempDir(), t.TempDir()
			path := filepath.Join(agent, "settings.json")
			writeSettingsFile(t, path, `{"defaultModel":"a"}`)
			s, err := Load(agent, cwd, true)
			require.NoError(t, err)
			if tc.after == "" {
				require.NoError(t, os.Remove(path))
			} else {
				writeSettingsFile(t, path, tc.after)
			}
			require.NoError(t, s.Reload(agent, cwd, true))
			got, err := s.MergedJSON()
			require.NoError(t, err)
			require.Equal(t, tc.want, string(got))
		})
	}
}
