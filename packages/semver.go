package packages

import (
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// npm's semver, by hand: versions, ranges (||, hyphen ranges, caret,
// tilde, x-ranges, partial versions, comparators) and its prerelease
// rule. It replaces Masterminds/semver, whose package init compiled its
// regular expressions on every pi start (0.5-0.8 ms, 1,266 allocations,
// ~15% of all package inits): these are compiled on first use.

// version is a parsed semantic version (build metadata dropped).
type version struct {
	major, minor, patch int
	pre                 []string
}

var errVersion = errors.New("invalid version")

// parseVersion reads a full version, with npm's tolerated leading "v"
// or "=".
func parseVersion(s string) (version, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "v=")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	core, pre, hasPre := strings.Cut(s, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return version{}, errVersion
	}
	var n [3]int
	for i, p := range parts {
		v, err := num(p)
		if err != nil {
			return version{}, err
		}
		n[i] = v
	}
	v := version{major: n[0], minor: n[1], patch: n[2]}
	if hasPre {
		if pre == "" {
			return version{}, errVersion
		}
		v.pre = strings.Split(pre, ".")
		for _, id := range v.pre {
			if id == "" {
				return version{}, errVersion
			}
		}
	}
	return v, nil
}

func num(p string) (int, error) {
	if p == "" || len(p) > 1 && p[0] == '0' {
		return 0, errVersion
	}
	for _, c := range p {
		if c < '0' || c > '9' {
			return 0, errVersion
		}
	}
	return strconv.Atoi(p)
}

// compare orders two versions by semver precedence.
func (a version) compare(b version) int {
	for _, d := range [3]int{a.major - b.major, a.minor - b.minor, a.patch - b.patch} {
		if d != 0 {
			if d < 0 {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a.pre) == 0 && len(b.pre) == 0:
		return 0
	case len(a.pre) == 0:
		return 1
	case len(b.pre) == 0:
		return -1
	}
	for i := 0; i < len(a.pre) && i < len(b.pre); i++ {
		x, y := a.pre[i], b.pre[i]
		xn, xerr := strconv.Atoi(x)
		yn, yerr := strconv.Atoi(y)
		switch {
		case xerr == nil && yerr == nil:
			if xn != yn {
				if xn < yn {
					return -1
				}
				return 1
			}
		case xerr == nil:
			return -1
		case yerr == nil:
			return 1
		case x != y:
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a.pre) < len(b.pre):
		return -1
	case len(a.pre) > len(b.pre):
		return 1
	}
	return 0
}

// comparator is one primitive test: op is "<", "<=", ">", ">=", "="
// or "" (anything).
type comparator struct {
	op string
	v  version
}

func (c comparator) test(v version) bool {
	d := v.compare(c.v)
	switch c.op {
	case "":
		return true
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	case ">":
		return d > 0
	case ">=":
		return d >= 0
	}
	return d == 0
}

// npmRange is a parsed range: any of its sets, each all of its
// comparators.
type npmRange [][]comparator

var (
	partialRe    = lazyRe(`^(<=|>=|<|>|=|~>|~|\^)?v?(0|[1-9][0-9]*|[xX*])(?:\.(0|[1-9][0-9]*|[xX*])(?:\.(0|[1-9][0-9]*|[xX*])(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?)?)?$`)
	opSpaceRe    = lazyRe(`(<=|>=|<|>|=|~>|~|\^)\s+`)
	hyphenRangeR = lazyRe(`^\s*(\S+)\s+-\s+(\S+)\s*$`)
)

// lazyRe compiles a pattern on first use, not at package init.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func lazyRe(src string) *lazyRegexp { return &lazyRegexp{src: src} }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

// partial is a possibly incomplete version: -1 marks a missing or
// wildcard part.
type partial struct {
	op                  string
	major, minor, patch int
	pre                 []string
}

func parsePartial(tok string) (partial, bool) {
	m := partialRe.get().FindStringSubmatch(tok)
	if m == nil {
		return partial{}, false
	}
	p := partial{op: m[1], major: -1, minor: -1, patch: -1}
	for i, s := range []string{m[2], m[3], m[4]} {
		if s == "" || s == "x" || s == "X" || s == "*" {
			break
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return partial{}, false
		}
		switch i {
		case 0:
			p.major = n
		case 1:
			p.minor = n
		default:
			p.patch = n
		}
	}
	if m[5] != "" {
		p.pre = strings.Split(m[5], ".")
	}
	return p, true
}

func ver(a, b, c int, pre ...string) version {
	return version{major: a, minor: b, patch: c, pre: pre}
}

// upperOf is the exclusive bound of a partial's range ("-0" keeps the
// next version's prereleases out).
func (p partial) upperOf() (version, bool) {
	switch {
	case p.major < 0:
		return version{}, false
	case p.minor < 0:
		return ver(p.major+1, 0, 0, "0"), true
	default:
		return ver(p.major, p.minor+1, 0, "0"), true
	}
}

func (p partial) floor() version {
	v := ver(max(p.major, 0), max(p.minor, 0), max(p.patch, 0))
	if p.patch >= 0 {
		v.pre = p.pre
	}
	return v
}

// desugar turns one range token into primitive comparators.
func (p partial) desugar() []comparator {
	full := p.major >= 0 && p.minor >= 0 && p.patch >= 0
	any := []comparator{{op: ""}}
	switch p.op {
	case "", "=":
		if full {
			return []comparator{{"=", p.floor()}}
		}
		if p.major < 0 {
			return any
		}
		up, _ := p.upperOf()
		return []comparator{{">=", p.floor()}, {"<", up}}
	case "~", "~>":
		if p.major < 0 {
			return any
		}
		up, _ := p.upperOf()
		if full {
			up = ver(p.major, p.minor+1, 0, "0")
		}
		return []comparator{{">=", p.floor()}, {"<", up}}
	case "^":
		if p.major < 0 {
			return any
		}
		var up version
		switch {
		case p.major > 0 || p.minor < 0:
			up = ver(p.major+1, 0, 0, "0")
		case p.minor > 0 || p.patch < 0:
			up = ver(0, p.minor+1, 0, "0")
		default:
			up = ver(0, 0, p.patch+1, "0")
		}
		return []comparator{{">=", p.floor()}, {"<", up}}
	case ">":
		switch {
		case p.major < 0:
			return []comparator{{"<", ver(0, 0, 0, "0")}}
		case p.minor < 0:
			return []comparator{{">=", ver(p.major+1, 0, 0)}}
		case p.patch < 0:
			return []comparator{{">=", ver(p.major, p.minor+1, 0)}}
		}
		return []comparator{{">", p.floor()}}
	case ">=":
		if p.major < 0 {
			return any
		}
		return []comparator{{">=", p.floor()}}
	case "<":
		if p.major < 0 {
			return []comparator{{"<", ver(0, 0, 0, "0")}}
		}
		v := p.floor()
		if !full {
			v.pre = []string{"0"}
		}
		return []comparator{{"<", v}}
	case "<=":
		if p.major < 0 {
			return any
		}
		if full {
			return []comparator{{"<=", p.floor()}}
		}
		up, _ := p.upperOf()
		return []comparator{{"<", up}}
	}
	return nil
}

// parseRange reads an npm range.
func parseRange(r string) (npmRange, error) {
	var out npmRange
	for _, set := range strings.Split(r, "||") {
		set = strings.TrimSpace(set)
		var cs []comparator
		if m := hyphenRangeR.get().FindStringSubmatch(set); m != nil {
			lo, ok1 := parsePartial(m[1])
			hi, ok2 := parsePartial(m[2])
			if !ok1 || !ok2 || lo.op != "" || hi.op != "" {
				return nil, errVersion
			}
			if lo.major >= 0 {
				cs = append(cs, comparator{">=", lo.floor()})
			}
			switch {
			case hi.major < 0:
			case hi.patch >= 0 && hi.minor >= 0:
				cs = append(cs, comparator{"<=", hi.floor()})
			default:
				up, _ := hi.upperOf()
				cs = append(cs, comparator{"<", up})
			}
			if len(cs) == 0 {
				cs = []comparator{{op: ""}}
			}
			out = append(out, cs)
			continue
		}
		set = opSpaceRe.get().ReplaceAllString(set, "$1")
		toks := strings.Fields(set)
		if len(toks) == 0 {
			toks = []string{"*"}
		}
		for _, tok := range toks {
			p, ok := parsePartial(tok)
			if !ok {
				return nil, errVersion
			}
			cs = append(cs, p.desugar()...)
		}
		out = append(out, cs)
	}
	return out, nil
}

// test applies the range with npm's prerelease rule: a prerelease
// version matches only a set that names a prerelease of the same
// major.minor.patch.
func (r npmRange) test(v version) bool {
	for _, set := range r {
		ok := true
		for _, c := range set {
			if !c.test(v) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if len(v.pre) == 0 {
			return true
		}
		for _, c := range set {
			if c.op != "" && len(c.v.pre) > 0 && c.v.major == v.major && c.v.minor == v.minor && c.v.patch == v.patch {
				return true
			}
		}
	}
	return false
}

// validRange reports whether r is an npm semver range (not a dist-tag).
func validRange(r string) bool {
	_, err := parseRange(r)
	return err == nil
}

// satisfies reports whether version v is in range r.
func satisfies(v, r string) bool {
	pv, err := parseVersion(v)
	if err != nil {
		return false
	}
	pr, err := parseRange(r)
	return err == nil && pr.test(pv)
}

// greater reports whether version a is newer than b.
func greater(a, b string) bool {
	va, err1 := parseVersion(a)
	vb, err2 := parseVersion(b)
	return err1 == nil && err2 == nil && va.compare(vb) > 0
}

// pickVersion chooses the version npm installs for want (a range, an
// exact version, a dist-tag or empty) from a packument's versions and
// dist-tags: a tag names its version; otherwise the "latest" tag when it
// satisfies the range, else the highest satisfying version.
func pickVersion(want string, versions []string, tags map[string]string) (string, bool) {
	want = strings.TrimSpace(want)
	if v, ok := tags[want]; ok && want != "" {
		return v, contains(versions, v)
	}
	r, err := parseRange(want)
	if err != nil {
		return "", false
	}
	if latest, ok := tags["latest"]; ok {
		if lv, err := parseVersion(latest); err == nil && r.test(lv) && contains(versions, latest) {
			return latest, true
		}
	}
	best, bestRaw := version{}, ""
	for _, raw := range versions {
		v, err := parseVersion(raw)
		if err != nil || !r.test(v) {
			continue
		}
		if bestRaw == "" || v.compare(best) > 0 {
			best, bestRaw = v, raw
		}
	}
	return bestRaw, bestRaw != ""
}

// maxSatisfying is the highest of versions in range r ("" for none).
func maxSatisfying(versions []string, r string) string {
	sorted := append([]string(nil), versions...)
	sort.SliceStable(sorted, func(i, j int) bool { return greater(sorted[i], sorted[j]) })
	for _, v := range sorted {
		if r == "" || satisfies(v, r) {
			return v
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
