package prompts

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openTrusting opens the cache as if it started a minute from now, so
// files the test just wrote are old enough to be cached.
func openTrusting(path string) *FileCache {
	c := OpenFileCache(path)
	if c != nil {
		c.start = time.Now().Add(time.Minute).UnixNano()
	}
	return c
}

// plant replaces the cached contents of path in c's index (which must hold
// it), so a test can tell an answer from the index from a read of the file.
func plant(t *testing.T, c *FileCache, path, data string) {
	t.Helper()
	all := make(map[string]cachedFile, c.old.len())
	for i := range c.old.len() {
		e, ok := c.old.entry(i)
		require.True(t, ok)
		all[c.old.key(i)] = e
	}
	e, ok := all[path]
	require.True(t, ok, "index holds %s", path)
	e.data = []byte(data)
	all[path] = e
	c.old = decodeIndex(encodeIndex(all))
	c.used = make([]atomic.Bool, c.old.len())
}

func TestFileCache(t *testing.T) {
	t.Parallel()
	if !cacheSupported {
		t.Skip("no resource cache on this platform")
	}
	dir := t.TempDir()
	index := filepath.Join(dir, "cache", "resources.idx")
	a := filepath.Join(dir, "a.md")
	b := filepath.Join(dir, "b.md")
	writeFile(t, a, "---\ndescription: a\n---\nbody a\n")
	writeFile(t, b, "plain b\n")

	c := openTrusting(index)
	got, err := c.ReadResource(a)
	require.NoError(t, err)
	assert.Equal(t, "---\ndescription: a\n---\nbody a\n", string(got))
	got, err = c.ReadFrontmatter(b, true)
	require.NoError(t, err)
	assert.Equal(t, "plain b\n", string(got))
	require.NoError(t, c.Save())

	// A warm run serves both from the index: prove it by reading through
	// a cache whose entries were planted with other contents.
	c = openTrusting(index)
	require.Equal(t, 2, c.old.len())
	plant(t, c, a, "from index")
	got, err = c.ReadResource(a)
	require.NoError(t, err)
	assert.Equal(t, "from index", string(got))
	// Asking for a prefix where the index holds the whole file is a miss
	// (a small file is read whole either way).
	got, err = c.ReadFrontmatter(a, false)
	require.NoError(t, err)
	assert.Equal(t, "---\ndescription: a\n---\nbody a\n", string(got))

	// A rewritten file is read again.
	writeFile(t, b, "plain b, longer now\n")
	got, err = c.ReadFrontmatter(b, true)
	require.NoError(t, err)
	assert.Equal(t, "plain b, longer now\n", string(got))
	require.NoError(t, c.Save())

	// Files changed just before the run are read but not kept.
	c = OpenFileCache(index)
	writeFile(t, a, "fresh\n")
	_, err = c.ReadResource(a)
	require.NoError(t, err)
	_, err = c.ReadFrontmatter(b, true)
	require.NoError(t, err)
	require.NoError(t, c.Save())
	assert.Equal(t, -1, OpenFileCache(index).old.find(a))

	// Links are refused with noFollow, missing files report the open error.
	link := filepath.Join(dir, "link.md")
	require.NoError(t, os.Symlink(b, link))
	_, err = c.ReadFrontmatter(link, true)
	assert.Error(t, err)
	_, err = c.ReadResource(filepath.Join(dir, "missing.md"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "open ")

	// A damaged index is an empty one.
	require.NoError(t, os.WriteFile(index, []byte(cacheMagic+"\xff\xff"), 0o644))
	assert.Zero(t, OpenFileCache(index).old.len())
}

func TestFrontmatterPrefix(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want int
	}{
		{"no frontmatter", len("no frontmatter")},
		{"---\na: b\n---\nbody", len("---\na: b\n---")},
		{"\uFEFF---\na: b\n---\nbody", len("\uFEFF---\na: b\n---")},
		{"---\na: b\r\n---\r\nbody", len("---\na: b\r\n---")},
		{"---\na: b\n", -1},
		{"--", 2},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, frontmatterPrefix([]byte(tc.in)), tc.in)
		if tc.want > 0 {
			full, _, err1 := ParseFrontmatter(tc.in)
			pre, _, err2 := ParseFrontmatter(tc.in[:tc.want])
			assert.Equal(t, err1, err2)
			assert.Equal(t, full, pre, tc.in)
		}
	}
}

func TestReadFileFastLarge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := make([]byte, 20000)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	p := filepath.Join(dir, "big.md")
	require.NoError(t, os.WriteFile(p, big, 0o644))
	got, err := ReadResource(p)
	require.NoError(t, err)
	assert.True(t, string(big) == string(got), "whole file read back")
	fm := "---\ndescription: x\n---\n" + string(big)
	require.NoError(t, os.WriteFile(p, []byte(fm), 0o644))
	got, err = readFileFast(p, false, true)
	require.NoError(t, err)
	assert.Equal(t, "---\ndescription: x\n---", string(got), "a prefix read stops after the frontmatter")
	_, err = ReadPlainFile(dir)
	assert.Error(t, err)
}

// TestFileCacheReadIn checks that stats relative to a root's descriptor
// give what full-path stats give: a hit for an unchanged file, a re-read
// for a rewritten one, a refused link with noFollow, and the full path in
// errors.
func TestFileCacheReadIn(t *testing.T) {
	t.Parallel()
	if !cacheSupported {
		t.Skip("no resource cache on this platform")
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "skills")
	skill := filepath.Join(root, "one", "SKILL.md")
	writeFile(t, skill, "---\ndescription: one\n---\nbody\n")
	link := filepath.Join(root, "two", "SKILL.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o755))
	require.NoError(t, os.Symlink(skill, link))
	index := filepath.Join(dir, "cache", "resources.idx")

	c := openTrusting(index)
	got, err := c.ReadFrontmatterIn(root, skill, true)
	require.NoError(t, err)
	assert.Equal(t, "---\ndescription: one\n---\nbody\n", string(got))
	_, err = c.ReadFrontmatterIn(root, link, true)
	require.Error(t, err)
	assert.Contains(t, err.Error(), link)
	missing := filepath.Join(root, "none", "SKILL.md")
	_, err = c.ReadFrontmatterIn(root, missing, true)
	require.Error(t, err)
	assert.Contains(t, err.Error(), missing)
	require.NoError(t, c.Save())

	tests := []struct {
		name    string
		rewrite string
		want    string
	}{
		{name: "unchanged served from the index", want: "from index"},
		{name: "rewritten file read again", rewrite: "---\ndescription: changed one\n---\nbody\n", want: "---\ndescription: changed one\n---\nbody\n"},
	}
	for _, tt := range tests {
		c := openTrusting(index)
		plant(t, c, skill, "from index")
		if tt.rewrite != "" {
			writeFile(t, skill, tt.rewrite)
		}
		got, err := c.ReadFrontmatterIn(root, skill, true)
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, string(got), tt.name)
		require.NoError(t, c.Save(), tt.name)
	}
}

// TestDecodeIndexDamage checks that an index that is truncated, has keys out
// of order or repeated, or an empty key decodes as empty (a cold start),
// and that a good one finds every key and only those.
func TestDecodeIndexDamage(t *testing.T) {
	t.Parallel()
	good := encodeIndex(map[string]cachedFile{
		"/a/x.md": {stamp: fileStamp{Size: 3, Ino: 7, Mtime: 1, Ctime: 2}, data: []byte("abc")},
		"/b/y.md": {stamp: fileStamp{Size: 1, Ino: 8, Mtime: 3, Ctime: 4}, prefix: true, data: []byte("z")},
	})
	x := decodeIndex(good)
	require.Equal(t, 2, x.len())
	for i, k := range []string{"/a/x.md", "/b/y.md"} {
		assert.Equal(t, i, x.find(k))
	}
	assert.Equal(t, -1, x.find("/a"))
	assert.Equal(t, -1, x.find("/c"))
	e, ok := x.entry(1)
	require.True(t, ok)
	assert.Equal(t, cachedFile{stamp: fileStamp{Size: 1, Ino: 8, Mtime: 3, Ctime: 4}, prefix: true, data: []byte("z")}, e)

	rec := func(key string) []byte {
		return encodeIndex(map[string]cachedFile{key: {data: []byte("d")}})[len(cacheMagic):]
	}
	join := func(parts ...[]byte) []byte {
		out := []byte(cacheMagic)
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	cases := map[string][]byte{
		"truncated":    good[:len(good)-1],
		"out of order": join(rec("/b"), rec("/a")),
		"repeated":     join(rec("/a"), rec("/a")),
		"empty key":    join(rec("")),
		"no magic":     good[1:],
	}
	for name, data := range cases {
		assert.Zero(t, decodeIndex(data).len(), name)
	}
}

// TestFileCacheSaveKeepsUsed checks that Save keeps the entries a run found
// current and what it read anew, drops the ones it did not look at, and
// writes nothing when a run used every entry and read nothing.
func TestFileCacheSaveKeepsUsed(t *testing.T) {
	t.Parallel()
	if !cacheSupported {
		t.Skip("no resource cache on this platform")
	}
	dir := t.TempDir()
	index := filepath.Join(dir, "idx")
	files := map[string]string{}
	for _, n := range []string{"a.md", "b.md", "c.md"} {
		files[n] = filepath.Join(dir, n)
		writeFile(t, files[n], n)
	}
	c := openTrusting(index)
	for _, n := range []string{"a.md", "b.md", "c.md"} {
		_, err := c.ReadResource(files[n])
		require.NoError(t, err)
	}
	require.NoError(t, c.Save())
	require.Equal(t, 3, OpenFileCache(index).old.len())

	// Every entry used, nothing read: the file is left alone.
	st0, err := os.Stat(index)
	require.NoError(t, err)
	old := st0.ModTime().Add(-time.Hour)
	require.NoError(t, os.Chtimes(index, old, old))
	c = openTrusting(index)
	for _, n := range []string{"a.md", "b.md", "c.md"} {
		_, err := c.ReadResource(files[n])
		require.NoError(t, err)
	}
	require.NoError(t, c.Save())
	st1, err := os.Stat(index)
	require.NoError(t, err)
	assert.True(t, st1.ModTime().Equal(old), "index not rewritten")

	// b unused, c rewritten: a stays, b goes, c holds the new text.
	writeFile(t, files["c.md"], "c, rewritten")
	c = openTrusting(index)
	for _, n := range []string{"a.md", "c.md"} {
		_, err := c.ReadResource(files[n])
		require.NoError(t, err)
	}
	require.NoError(t, c.Save())
	x := OpenFileCache(index).old
	require.Equal(t, 2, x.len())
	assert.Equal(t, -1, x.find(files["b.md"]))
	e, ok := x.entry(x.find(files["c.md"]))
	require.True(t, ok)
	assert.Equal(t, "c, rewritten", string(e.data))
}
