package packages

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Kind is what a package source names.
type Kind string

// The three kinds of source.
const (
	KindNpm   Kind = "npm"
	KindGit   Kind = "git"
	KindLocal Kind = "local"
)

// Source is a parsed package source string.
type Source struct {
	Kind Kind
	// Raw is the source as configured.
	Raw string

	// npm: Spec is what follows "npm:" ("@scope/name@^1.2"), Name the
	// package name, Version what follows the name's "@" (a version, a
	// range or a dist-tag), Range the semver range it reads as (empty for
	// a dist-tag or no version).
	Spec, Name, Version, Range string

	// git: Repo is the URL to clone, Host and Path ("owner/repo") place
	// the checkout, Ref the tag, branch or commit after "@".
	Repo, Host, Path, Ref string

	// local: LocalPath is the path as written.
	LocalPath string

	// Pinned sources do not move on update: an exact npm version, or any
	// git ref.
	Pinned bool
}

var npmSpecRe = lazyRe(`^(@?[^@]+(?:/[^@]+)?)(?:@(.+))?$`)

// Parse reads a source string as the reference does: "npm:" is npm,
// anything that is not a known URL-like prefix is a local path, and the
// rest is tried as a git URL (falling back to a local path).
func Parse(raw string) Source {
	if strings.HasPrefix(raw, "npm:") {
		spec := strings.TrimSpace(strings.TrimPrefix(raw, "npm:"))
		s := Source{Kind: KindNpm, Raw: raw, Spec: spec, Name: spec}
		if m := npmSpecRe.get().FindStringSubmatch(spec); m != nil {
			s.Name, s.Version = m[1], m[2]
		}
		if s.Version != "" {
			if _, err := parseVersion(s.Version); err == nil {
				s.Pinned = true
				s.Range = s.Version
			} else if validRange(s.Version) {
				s.Range = s.Version
			}
		}
		return s
	}
	if isLocalPath(raw) {
		return Source{Kind: KindLocal, Raw: raw, LocalPath: raw}
	}
	if g, ok := parseGitURL(raw); ok {
		g.Raw = raw
		return g
	}
	return Source{Kind: KindLocal, Raw: raw, LocalPath: raw}
}

// isLocalPath is true unless the source starts with a prefix that names
// a registry, a URL or a built-in extension.
func isLocalPath(s string) bool {
	t := strings.TrimSpace(s)
	for _, p := range []string{"npm:", "git:", "github:", "http:", "https:", "ssh:", "builtin:"} {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	return true
}

// gitURLRe matches the URL schemes a git source may use.
var gitURLRe = lazyRe(`(?i)^(https?|ssh|git)://`)

var scpLikeRe = lazyRe(`^git@([^:]+):(.+)$`)

// splitRef separates a trailing "@ref" from the repository part of a git
// URL (the first "@" of the path, so scp-like "git@" is not a ref).
func splitRef(u string) (repo, ref string) {
	if m := scpLikeRe.get().FindStringSubmatch(u); m != nil {
		p, r, ok := strings.Cut(m[2], "@")
		if !ok || p == "" || r == "" {
			return u, ""
		}
		return "git@" + m[1] + ":" + p, r
	}
	if strings.Contains(u, "://") {
		parsed, err := url.Parse(u)
		if err != nil {
			return u, ""
		}
		p, r, ok := strings.Cut(strings.TrimLeft(parsed.Path, "/"), "@")
		if !ok || p == "" || r == "" {
			return u, ""
		}
		parsed.Path = "/" + p
		return strings.TrimSuffix(parsed.String(), "/"), r
	}
	host, rest, ok := strings.Cut(u, "/")
	if !ok {
		return u, ""
	}
	p, r, ok := strings.Cut(rest, "@")
	if !ok || p == "" || r == "" {
		return u, ""
	}
	return host + "/" + p, r
}

// parseGitURL accepts, after "git:", the shorthand host/owner/repo, scp
// style git@host:owner/repo and protocol URLs; without the prefix only
// protocol URLs (https, http, ssh, git).
func parseGitURL(source string) (Source, bool) {
	t := strings.TrimSpace(source)
	u, hasPrefix := strings.CutPrefix(t, "git:")
	u = strings.TrimSpace(u)
	if !hasPrefix && !gitURLRe.get().MatchString(u) {
		return Source{}, false
	}
	repo, ref := splitRef(u)
	var host, path string
	switch {
	case scpLikeRe.get().MatchString(repo):
		m := scpLikeRe.get().FindStringSubmatch(repo)
		host, path = m[1], m[2]
	case strings.HasPrefix(repo, "https://"), strings.HasPrefix(repo, "http://"),
		strings.HasPrefix(repo, "ssh://"), strings.HasPrefix(repo, "git://"):
		parsed, err := url.Parse(repo)
		if err != nil {
			return Source{}, false
		}
		host, path = parsed.Hostname(), strings.TrimLeft(parsed.Path, "/")
	default:
		h, p, ok := strings.Cut(repo, "/")
		if !ok || (!strings.Contains(h, ".") && h != "localhost") {
			return Source{}, false
		}
		host, path = h, p
		repo = "https://" + repo
	}
	path = strings.TrimLeft(strings.TrimSuffix(path, ".git"), "/")
	if host == "" || path == "" || len(strings.Split(path, "/")) < 2 || unsafePart(host, false) || unsafePart(path, true) {
		return Source{}, false
	}
	return Source{Kind: KindGit, Repo: repo, Host: host, Path: path, Ref: ref, Pinned: ref != ""}, true
}

// unsafePart rejects a host or path that could place a checkout outside
// the git install root.
func unsafePart(v string, allowSlash bool) bool {
	dec, err := url.PathUnescape(v)
	if err != nil {
		return true
	}
	for _, c := range []string{v, dec} {
		if strings.ContainsAny(c, "\x00\\") || strings.HasPrefix(c, "/") {
			return true
		}
		if !allowSlash && strings.Contains(c, "/") {
			return true
		}
		for _, seg := range strings.Split(c, "/") {
			if seg == ".." {
				return true
			}
		}
	}
	return false
}

// Identity is what makes two declarations the same package: the npm
// name, the git host and path without the ref, or the local path
// resolved against base (the directory of the settings file that names
// it, or the working directory for a command-line source).
func (s Source) Identity(base string) string {
	switch s.Kind {
	case KindNpm:
		return "npm:" + s.Name
	case KindGit:
		return "git:" + s.Host + "/" + s.Path
	}
	return "local:" + ResolvePath(s.LocalPath, base)
}

// ResolvePath makes p absolute against base, expanding a leading "~".
func ResolvePath(p, base string) string {
	p = strings.TrimSpace(p)
	if p == "~" || strings.HasPrefix(p, "~/") {
		home := os.Getenv("HOME")
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}
