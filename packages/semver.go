package packages

import (
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// npm ranges are read with Masterminds/semver, whose constraint syntax
// covers npm's (caret, tilde, x-ranges, hyphen ranges, "||", space-joined
// comparators) and, like npm, leaves prereleases out of a range that does
// not name one.

func parseVersion(v string) (*semver.Version, error) {
	return semver.StrictNewVersion(strings.TrimPrefix(strings.TrimSpace(v), "v"))
}

// normRange maps what npm accepts and Masterminds spells differently:
// an empty range is "*".
func normRange(r string) string {
	r = strings.TrimSpace(r)
	if r == "" {
		return "*"
	}
	return r
}

// validRange reports whether r is an npm semver range (not a dist-tag).
func validRange(r string) bool {
	_, err := semver.NewConstraint(normRange(r))
	return err == nil
}

// satisfies reports whether version v is in range r.
func satisfies(v, r string) bool {
	ver, err := parseVersion(v)
	if err != nil {
		return false
	}
	c, err := semver.NewConstraint(normRange(r))
	if err != nil {
		return false
	}
	return c.Check(ver)
}

// greater reports whether version a is newer than b.
func greater(a, b string) bool {
	va, err1 := parseVersion(a)
	vb, err2 := parseVersion(b)
	if err1 != nil || err2 != nil {
		return false
	}
	return va.GreaterThan(vb)
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
	if want == "" {
		want = "*"
	}
	c, err := semver.NewConstraint(normRange(want))
	if err != nil {
		return "", false
	}
	if latest, ok := tags["latest"]; ok {
		if lv, err := parseVersion(latest); err == nil && c.Check(lv) && contains(versions, latest) {
			return latest, true
		}
	}
	var best *semver.Version
	bestRaw := ""
	for _, raw := range versions {
		v, err := parseVersion(raw)
		if err != nil || !c.Check(v) {
			continue
		}
		if best == nil || v.GreaterThan(best) {
			best, bestRaw = v, raw
		}
	}
	return bestRaw, best != nil
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
