package docs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// The prompt names Index and Pages; every embedded file must be one of
// them and each of them must be embedded.
func TestPagesMatchEmbedded(t *testing.T) {
	t.Parallel()
	want := append([]string{Index}, Pages...)
	slices.Sort(want)
	require.Equal(t, want, Names())
}

func TestExtractWritesEveryFileAndIsIdempotent(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "cache", "docs")
	dir, err := Extract(root)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(root, version()), dir)
	for _, name := range Names() {
		want, err := files.ReadFile(name)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), name)
	}
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o755), fi.Mode().Perm())

	// A second call reuses the folder: a marker file left in it survives.
	marker := filepath.Join(dir, "marker")
	require.NoError(t, os.WriteFile(marker, nil, 0o644))
	again, err := Extract(root)
	require.NoError(t, err)
	require.Equal(t, dir, again)
	require.FileExists(t, marker)
}

// Processes started together race to unpack; all of them must succeed,
// see a complete folder and leave no temporary folder behind.
func TestExtractConcurrent(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "docs")
	const n = 8
	dirs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dirs[i], errs[i] = Extract(root)
		}()
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		require.Equal(t, dirs[0], dirs[i])
	}
	for _, name := range Names() {
		require.FileExists(t, filepath.Join(dirs[0], name))
	}
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	require.Len(t, entries, 1, "temporary folders left behind")
	require.False(t, strings.HasPrefix(entries[0].Name(), ".tmp-"))
}

func TestExtractBrokenCache(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(t *testing.T, root string)
	}{
		{"cache root is a file", func(t *testing.T, root string) {
			require.NoError(t, os.WriteFile(root, []byte("x"), 0o644))
		}},
		{"version folder is a file", func(t *testing.T, root string) {
			require.NoError(t, os.MkdirAll(root, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(root, version()), []byte("x"), 0o644))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := filepath.Join(t.TempDir(), "docs")
			tc.setup(t, root)
			dir, err := Extract(root)
			require.Error(t, err)
			require.Empty(t, dir)
		})
	}
}
