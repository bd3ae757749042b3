package builtins

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
)

// unicodeSpaces are the space characters models sometimes put into paths
// (copied from rendered text); they become plain spaces.
var unicodeSpaces = strings.NewReplacer(
	"\u00a0", " ", "\u2000", " ", "\u2001", " ", "\u2002", " ", "\u2003", " ",
	"\u2004", " ", "\u2005", " ", "\u2006", " ", "\u2007", " ", "\u2008", " ",
	"\u2009", " ", "\u200a", " ", "\u202f", " ", "\u205f", " ", "\u3000", " ",
)

// ExpandPath normalizes a path the model gave: Unicode spaces become ASCII
// spaces, one leading "@" is dropped, "~" and "~/" expand to the home
// directory and file:// URLs become paths.
func ExpandPath(p string) string {
	p = unicodeSpaces.Replace(p)
	p = strings.TrimPrefix(p, "@")
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			if p == "~" {
				return home
			}
			return filepath.Join(home, p[2:])
		}
	}
	if strings.HasPrefix(p, "file://") {
		if u, err := url.Parse(p); err == nil && u.Path != "" {
			return u.Path
		}
	}
	return p
}

// ResolvePath expands p and makes it absolute against cwd.
func ResolvePath(p, cwd string) string {
	p = ExpandPath(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	if !filepath.IsAbs(cwd) {
		if abs, err := filepath.Abs(cwd); err == nil {
			cwd = abs
		}
	}
	return filepath.Join(cwd, p)
}

var amPM = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i) (AM|PM)\.`) })

// resolveReadPath is ResolvePath plus the fallbacks for macOS file names:
// screenshots use a narrow no-break space before AM/PM, the file system
// stores NFD, and French screenshot names use a curly apostrophe.
func resolveReadPath(p, cwd string) string {
	resolved := ResolvePath(p, cwd)
	if exists(resolved) {
		return resolved
	}
	nfd := norm.NFD.String(resolved)
	curly := func(s string) string { return strings.ReplaceAll(s, "'", "\u2019") }
	for _, v := range []string{
		amPM().ReplaceAllString(resolved, "\u202f$1."),
		nfd,
		curly(resolved),
		curly(nfd),
	} {
		if v != resolved && exists(v) {
			return v
		}
	}
	return resolved
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
