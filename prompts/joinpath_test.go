package prompts

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestJoinPath checks that JoinPath gives dir/name+suffix, as the index's
// own string when the index holds that path and as a new string otherwise.
func TestJoinPath(t *testing.T) {
	t.Parallel()
	files := map[string]cachedFile{}
	for _, p := range []string{"/a/skills/x/SKILL.md", "/a/skills/xy/SKILL.md", "/a/prompts/t.md", "/a/prompts/t.mdx"} {
		files[p] = cachedFile{data: []byte("d")}
	}
	c := &FileCache{old: decodeIndex(encodeIndex(files))}
	buf := c.old.buf
	inIndex := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		start := uintptr(unsafe.Pointer(&buf[0]))
		return p >= start && p < start+uintptr(len(buf))
	}
	cases := []struct {
		dir, name, suffix string
		hit               bool
	}{
		{"/a/skills", "x", "/SKILL.md", true},
		{"/a/skills", "xy", "/SKILL.md", true},
		{"/a/skills", "x", "/SKILL.mdx", false},
		{"/a/skills", "y", "/SKILL.md", false},
		{"/a/prompts", "t.md", "", true},
		{"/a/prompts", "t", ".md", true},
		{"/a", "prompts", "/t.md", true},
		{"/a/prompt", "s/t.md", "", false},
		{"/a/prompts", "u.md", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.dir+"|"+tc.name+"|"+tc.suffix, func(t *testing.T) {
			t.Parallel()
			got := c.JoinPath(tc.dir, tc.name, tc.suffix)
			assert.Equal(t, tc.dir+"/"+tc.name+tc.suffix, got)
			assert.Equal(t, tc.hit, inIndex(got))
		})
	}
	var none *FileCache
	assert.Equal(t, "/d/n.md", none.JoinPath("/d", "n", ".md"))
}
