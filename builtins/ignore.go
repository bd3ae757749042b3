package builtins

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/pi-go/pi/internal/gitignore"
)

// ignoreRule is one .gitignore rule (internal/gitignore, shared with the
// editor's file search).
type ignoreRule = gitignore.Rule

func readIgnoreFile(file, base string) []ignoreRule { return gitignore.ReadFile(file, base) }

// ignored applies rules (in order, last match wins) to rel, a slash path
// relative to the walk root.
func ignored(rules []ignoreRule, rel string, isDir bool) bool {
	return gitignore.Ignored(rules, rel, isDir)
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
