package prompts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadDirMatchesOS checks that ReadDir lists what os.ReadDir lists, in
// the same order and with the same types, for folders small and large
// (more names than one getdents buffer holds), with links and sub-folders.
func TestReadDirMatchesOS(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		files int
	}{
		{"empty", 0},
		{"small", 5},
		{"larger than one buffer", 1500},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			long := strings.Repeat("x", 40)
			for i := range tc.files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d-%s.md", tc.files-i, long)), nil, 0o644))
			}
			if tc.files > 0 {
				require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
				require.NoError(t, os.Symlink("sub", filepath.Join(dir, "link")))
				require.NoError(t, os.Symlink("missing", filepath.Join(dir, "broken")))
				require.NoError(t, os.WriteFile(filepath.Join(dir, ".hidden"), nil, 0o644))
			}
			want, err := os.ReadDir(dir)
			require.NoError(t, err)
			got, err := ReadDir(dir)
			require.NoError(t, err)
			require.Len(t, got, len(want))
			for i := range want {
				assert.Equal(t, want[i].Name(), got[i].Name())
				assert.Equal(t, want[i].Type(), got[i].Type(), want[i].Name())
				assert.Equal(t, want[i].IsDir(), got[i].IsDir(), want[i].Name())
			}
			if len(got) > 0 {
				wi, err1 := want[0].Info()
				gi, err2 := got[0].Info()
				require.NoError(t, err1)
				require.NoError(t, err2)
				assert.Equal(t, wi.Name(), gi.Name())
				assert.Equal(t, wi.Mode(), gi.Mode())
			}
		})
	}
	_, err := ReadDir(filepath.Join(t.TempDir(), "missing"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
