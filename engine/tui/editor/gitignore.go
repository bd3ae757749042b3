package editor

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ignoreRule is one line of a .gitignore file.
type ignoreRule struct {
	base     string // directory of the .gitignore, relative to the walk root ("" at the root)
	pattern  string
	negate   bool
	dirOnly  bool
	anchored bool // the pattern has a slash: it matches the path from base, not any name
}

// readIgnore parses dir/.gitignore (a missing file has no rules).
func readIgnore(root, rel string) []ignoreRule {
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(rel), ".gitignore"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var rules []ignoreRule
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{base: rel}
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		} else if strings.HasPrefix(line, `\`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimRight(line, "/")
		}
		if strings.Contains(line, "/") {
			r.anchored, line = true, strings.TrimPrefix(line, "/")
		}
		if line == "" {
			continue
		}
		r.pattern = line
		rules = append(rules, r)
	}
	return rules
}

func (r ignoreRule) matches(rel string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	if r.base != "" {
		if !strings.HasPrefix(rel, r.base+"/") {
			return false
		}
		rel = rel[len(r.base)+1:]
	}
	name := rel
	if !r.anchored {
		name = path.Base(rel)
	}
	ok, err := doublestar.Match(r.pattern, name)
	return err == nil && ok
}

// ignored applies the rules in order; the last matching rule decides.
func ignored(rules []ignoreRule, rel string, isDir bool) bool {
	out := false
	for _, r := range rules {
		if r.matches(rel, isDir) {
			out = !r.negate
		}
	}
	return out
}
