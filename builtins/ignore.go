package builtins

import (
	"bufio"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ignoreRule is one .gitignore line, relative to the directory holding it.
type ignoreRule struct {
	base     string // slash path of the .gitignore's directory, relative to the walk root
	pattern  string
	negate   bool
	dirOnly  bool
	anchored bool
}

func readIgnoreFile(file, base string) []ignoreRule {
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var rules []ignoreRule
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{base: base}
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		}
		line = strings.TrimPrefix(line, `\`)
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

// ignored applies rules (in order, last match wins) to rel, a slash path
// relative to the walk root.
func ignored(rules []ignoreRule, rel string, isDir bool) bool {
	ig := false
	for _, r := range rules {
		if r.dirOnly && !isDir {
			continue
		}
		sub := rel
		if r.base != "" {
			if !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			sub = rel[len(r.base)+1:]
		}
		var ok bool
		if r.anchored {
			ok, _ = doublestar.Match(r.pattern, sub)
		} else {
			ok, _ = doublestar.Match(r.pattern, path.Base(sub))
		}
		if ok {
			ig = !r.negate
		}
	}
	return ig
}

// insideGitRepo reports whether dir or an ancestor has a .git entry.
func insideGitRepo(dir string) bool {
	for cur := dir; ; {
		if exists(filepath.Join(cur, ".git")) {
			return true
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return false
		}
		cur = parent
	}
}

// walkEntry is a file or directory found by walkTree.
type walkEntry struct {
	rel   string // slash path relative to root
	isDir bool
}

// walkTree lists root recursively in sorted order, including hidden
// entries, skipping .git and (when useIgnore) what .gitignore files
// exclude.
func walkTree(root string, useIgnore bool, visit func(walkEntry) bool) {
	var rules []ignoreRule
	var walk func(dir, rel string) bool
	walk = func(dir, rel string) bool {
		saved := len(rules)
		if useIgnore {
			rules = append(rules, readIgnoreFile(filepath.Join(dir, ".gitignore"), rel)...)
		}
		defer func() { rules = rules[:saved] }()
		entries, err := os.ReadDir(dir)
		if err != nil {
			return true
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			name := e.Name()
			if name == ".git" {
				continue
			}
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				isDir = false // like rg and fd, symlinks are not followed
			}
			if useIgnore && ignored(rules, r, isDir) {
				continue
			}
			if !visit(walkEntry{r, isDir}) {
				return false
			}
			if isDir && !walk(filepath.Join(dir, name), r) {
				return false
			}
		}
		return true
	}
	walk(root, "")
}
