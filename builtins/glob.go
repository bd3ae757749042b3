package builtins

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// glob is a doublestar pattern prepared for matching many names: the
// common shapes (a plain name, "*.ext", "prefix*") become string tests,
// the rest skip doublestar's per-call validation. Results are those of
// doublestar.Match(pattern, name), an invalid pattern included.
type glob struct {
	pattern string
	kind    globKind
	lit     string
}

type globKind uint8

const (
	globFull   globKind = iota // doublestar.Match, for invalid patterns
	globValid                  // doublestar.MatchUnvalidated
	globExact                  // name == lit
	globSuffix                 // "*" + lit
	globPrefix                 // lit + "*"
)

const globMeta = `*?[{\`

func compileGlob(p string) glob {
	g := glob{pattern: p}
	switch {
	case !doublestar.ValidatePattern(p):
		g.kind = globFull
	case !strings.ContainsAny(p, globMeta):
		g.kind, g.lit = globExact, p
	case p[0] == '*' && !strings.ContainsAny(p[1:], globMeta):
		g.kind, g.lit = globSuffix, p[1:]
	case p[len(p)-1] == '*' && !strings.ContainsAny(p[:len(p)-1], globMeta):
		g.kind, g.lit = globPrefix, p[:len(p)-1]
	default:
		g.kind = globValid
	}
	return g
}

func (g *glob) match(name string) bool {
	switch g.kind {
	case globExact:
		return name == g.lit
	case globSuffix:
		// A single "*" never spans a "/".
		return strings.HasSuffix(name, g.lit) && !strings.Contains(name[:len(name)-len(g.lit)], "/")
	case globPrefix:
		return strings.HasPrefix(name, g.lit) && !strings.Contains(name[len(g.lit):], "/")
	case globValid:
		return doublestar.MatchUnvalidated(g.pattern, name)
	}
	ok, _ := doublestar.Match(g.pattern, name)
	return ok
}

// ignoreMatcher is an ignoreRule with its pattern compiled.
type ignoreMatcher struct {
	ignoreRule
	g glob
}

func compileIgnore(rules []ignoreRule) []ignoreMatcher {
	out := make([]ignoreMatcher, len(rules))
	for i, r := range rules {
		out[i] = ignoreMatcher{r, compileGlob(r.Pattern)}
	}
	return out
}

// ignoredBy is ignored (ignore.go) over compiled rules: in order, last
// match wins.
func ignoredBy(rules []ignoreMatcher, rel string, isDir bool) bool {
	ig := false
	base := ""
	for i := range rules {
		r := &rules[i]
		if r.DirOnly && !isDir {
			continue
		}
		sub := rel
		if r.Base != "" {
			if len(rel) <= len(r.Base) || rel[len(r.Base)] != '/' || !strings.HasPrefix(rel, r.Base) {
				continue
			}
			sub = rel[len(r.Base)+1:]
		}
		var ok bool
		if r.Anchored {
			ok = r.g.match(sub)
		} else {
			if r.Base == "" {
				if base == "" {
					base = path.Base(rel)
				}
				ok = r.g.match(base)
			} else {
				ok = r.g.match(path.Base(sub))
			}
		}
		if ok {
			ig = !r.Negate
		}
	}
	return ig
}
