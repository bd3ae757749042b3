package prompts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLoadSystemFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		files      map[string]string // relative to root; agent dir is root/agent, project root/proj
		trusted    bool
		wantSystem string
		wantAppend []string
	}{
		{name: "none"},
		{
			name:       "global only",
			files:      map[string]string{"agent/SYSTEM.md": "G\n", "agent/APPEND_SYSTEM.md": "GA\n"},
			wantSystem: "G\n", wantAppend: []string{"GA\n"},
		},
		{
			name: "trusted project .pi wins and is not combined",
			files: map[string]string{
				"agent/SYSTEM.md": "G", "agent/APPEND_SYSTEM.md": "GA",
				"proj/.pi/SYSTEM.md": "P", "proj/.pi/APPEND_SYSTEM.md": "PA",
				"proj/.pi/agent/SYSTEM.md": "PAG", "proj/.pi/agent/APPEND_SYSTEM.md": "PAGA",
			},
			trusted:    true,
			wantSystem: "P", wantAppend: []string{"PA"},
		},
		{
			name: "trusted project .pi/agent before the global dir",
			files: map[string]string{
				"agent/SYSTEM.md": "G", "agent/APPEND_SYSTEM.md": "GA",
				"proj/.pi/agent/SYSTEM.md": "PAG", "proj/.pi/agent/APPEND_SYSTEM.md": "PAGA",
			},
			trusted:    true,
			wantSystem: "PAG", wantAppend: []string{"PAGA"},
		},
		{
			name: "untrusted project files are ignored",
			files: map[string]string{
				"agent/SYSTEM.md": "G", "agent/APPEND_SYSTEM.md": "GA",
				"proj/.pi/SYSTEM.md": "P", "proj/.pi/APPEND_SYSTEM.md": "PA",
			},
			wantSystem: "G", wantAppend: []string{"GA"},
		},
		{
			name:       "each file resolved on its own",
			files:      map[string]string{"agent/SYSTEM.md": "G", "proj/.pi/APPEND_SYSTEM.md": "PA"},
			trusted:    true,
			wantSystem: "G", wantAppend: []string{"PA"},
		},
		{
			name:       "byte order mark stripped",
			files:      map[string]string{"agent/SYSTEM.md": "\ufeffG"},
			wantSystem: "G",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			writeFiles(t, root, tc.files)
			require.NoError(t, os.MkdirAll(filepath.Join(root, "proj"), 0o755))
			system, parts, err := LoadSystemFiles(filepath.Join(root, "agent"), filepath.Join(root, "proj"), tc.trusted)
			require.NoError(t, err)
			require.Equal(t, tc.wantSystem, system)
			require.Equal(t, tc.wantAppend, parts)
		})
	}
}

func TestResolveTextOrFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"prompt.md": "\ufeffFrom a file.\n", "dir/x": ""})
	cases := []struct {
		name, arg, want string
		wantErr         bool
	}{
		{name: "plain text", arg: "Be brief.", want: "Be brief."},
		{name: "empty", arg: "", want: ""},
		{name: "existing file", arg: filepath.Join(root, "prompt.md"), want: "From a file.\n"},
		{name: "missing file is text", arg: filepath.Join(root, "nope.md"), want: filepath.Join(root, "nope.md")},
		{name: "directory falls back to the value", arg: filepath.Join(root, "dir"), want: filepath.Join(root, "dir"), wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tc.want, ResolveTextOrFile(tc.arg))
			got, err := ReadTextOrFile(tc.arg)
			require.Equal(t, tc.want, got)
			if tc.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
		})
	}
}
