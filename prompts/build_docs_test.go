package prompts

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pi-go/pi/docs"
	"github.com/stretchr/testify/require"
)

// Every path the docs section names must exist in the folder docs.Extract
// writes, so the model is never sent looking for a file that is not there.
func TestDocsSectionPathsExist(t *testing.T) {
	t.Parallel()
	dir, err := docs.Extract(t.TempDir())
	require.NoError(t, err)
	var body string
	for _, s := range Build(Options{DocsRoot: dir + "/"}) {
		if s.Name == SectionDocs {
			body = *s.Value
		}
	}
	require.NotEmpty(t, body, "no docs section")
	// Each listed file is a "- Label: /path" line.
	var paths []string
	for _, m := range regexp.MustCompile(`(?m)^- \w+: (/\S+)$`).FindAllStringSubmatch(body, -1) {
		paths = append(paths, m[1])
	}
	require.Len(t, paths, 1+len(docs.Pages), body)
	require.Equal(t, 1+len(docs.Pages), strings.Count(body, dir+"/"), "a path the check did not read")
	for _, p := range paths {
		require.True(t, strings.HasPrefix(p, dir+"/"), "%s is outside %s", p, dir)
		fi, err := os.Stat(p)
		require.NoError(t, err, "the docs section names %s", p)
		require.False(t, fi.IsDir(), p)
	}
}
