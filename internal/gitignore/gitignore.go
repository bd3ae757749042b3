// Package gitignore reads .gitignore files and applies their rules, for
// the search tools' tree walk (builtins) and the editor's @ file search
// (engine/tui/editor), so both skip the same files.
package gitignore

import (
	"bufio"
	"io"
	"os"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Rule is one .gitignore line, relative to the directory holding it.
type Rule struct {
	// Base is the slash path of the .gitignore's directory relative to
	// the walk root ("" at the root).
	Base    string
	Pattern string
	Negate  bool
	DirOnly bool
	// Anchored rules have a slash: they match the path from Base, not
	// any name below it.
	Anchored bool
}

// ReadFile parses file (a missing or unreadable one has no rules).
func ReadFile(file, base string) []Rule {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	return Parse(f, base)
}

// Parse reads rules from r: blank lines and comments are skipped, "!"
// negates, a leading backslash escapes, a trailing "/" limits a rule to
// directories.
func Parse(r io.Reader, base string) []Rule {
	var rules []Rule
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := Rule{Base: base}
		if strings.HasPrefix(line, "!") {
			r.Negate, line = true, line[1:]
		}
		line = strings.TrimPrefix(line, `\`)
		if strings.HasSuffix(line, "/") {
			r.DirOnly, line = true, strings.TrimRight(line, "/")
		}
		if strings.Contains(line, "/") {
			r.Anchored, line = true, strings.TrimPrefix(line, "/")
		}
		if line == "" {
			continue
		}
		r.Pattern = line
		rules = append(rules, r)
	}
	return rules
}

// Matches reports whether the rule applies to rel, a slash path relative
// to the walk root.
func (r Rule) Matches(rel string, isDir bool) bool {
	if r.DirOnly && !isDir {
		return false
	}
	sub := rel
	if r.Base != "" {
		if !strings.HasPrefix(rel, r.Base+"/") {
			return false
		}
		sub = rel[len(r.Base)+1:]
	}
	if !r.Anchored {
		sub = path.Base(sub)
	}
	ok, err := doublestar.Match(r.Pattern, sub)
	return err == nil && ok
}

// Ignored applies rules in order; the last matching rule decides.
func Ignored(rules []Rule, rel string, isDir bool) bool {
	ig := false
	for _, r := range rules {
		if r.Matches(rel, isDir) {
			ig = !r.Negate
		}
	}
	return ig
}
