package prompts

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// contextFileNames are the names looked for in each directory; the first
// one that exists as a regular file is that directory's context file.
var contextFileNames = []string{"AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"}

// LoadContextFiles finds the context files for a session: the agent
// directory's file first, then one file per directory from the filesystem
// root down to cwd. A file already loaded (same path) is not loaded twice,
// and inside a nested git worktree the main repository's copy is skipped
// because the worktree's own copy stands for it.
//
// Context files load whether or not the project is trusted, as in the
// reference; projectTrusted is accepted so callers need not special-case
// this and so the rule can change in one place.
//
// A non-nil error lists files that exist but could not be read; the files
// returned alongside it are still complete and usable.
func LoadContextFiles(agentDir, cwd string, projectTrusted bool) ([]ContextFile, error) {
	_ = projectTrusted
	var errs []error
	var files []ContextFile
	seen := map[string]bool{}

	if agentDir != "" {
		dir, err := absPath(agentDir)
		if err != nil {
			return nil, fmt.Errorf("agent dir: %w", err)
		}
		if f, ok := loadContextFileFromDir(dir, &errs); ok {
			files = append(files, f)
			seen[f.Path] = true
		}
	}

	dir, err := absPath(cwd)
	if err != nil {
		return nil, fmt.Errorf("cwd: %w", err)
	}
	shadowed := shadowedContextFile(dir)
	var ancestors []ContextFile
	for {
		if f, ok := loadContextFileFromDir(dir, &errs); ok && !seen[f.Path] {
			isShadowed := shadowed != "" &&
				filepath.Join(canonical(dir), filepath.Base(f.Path)) == shadowed
			if !isShadowed {
				ancestors = append(ancestors, f)
				seen[f.Path] = true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	// The walk went upwards; the prompt lists the outermost directory first.
	for i := len(ancestors) - 1; i >= 0; i-- {
		files = append(files, ancestors[i])
	}
	return files, errors.Join(errs...)
}

func loadContextFileFromDir(dir string, errs *[]error) (ContextFile, bool) {
	for _, name := range contextFileNames {
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			*errs = append(*errs, fmt.Errorf("context file %s: %w", p, err))
			continue
		}
		return ContextFile{Path: p, Content: stripBOM(string(b))}, true
	}
	return ContextFile{}, false
}

// shadowedContextFile returns the canonical path of the main repository's
// context file when cwd is inside a linked git worktree nested in that
// repository and the worktree has its own context file; loading both would
// apply the same instructions twice. It returns "" otherwise.
func shadowedContextFile(cwd string) string {
	repoDir, commonGitDir, ok := findGitPaths(cwd)
	if !ok {
		return ""
	}
	commonGitDir = canonical(commonGitDir)
	worktreeRoot := canonical(repoDir)
	mainRoot := filepath.Dir(commonGitDir)
	// An ordinary checkout, or a sibling worktree outside the main repo,
	// shadows nothing.
	if !pathWithin(mainRoot, worktreeRoot) || worktreeRoot == mainRoot {
		return ""
	}
	// Bare layouts and submodules have a common git dir that is not the
	// main root's .git; they too shadow nothing.
	if canonical(filepath.Join(mainRoot, ".git")) != commonGitDir {
		return ""
	}
	var ignored []error
	f, ok := loadContextFileFromDir(worktreeRoot, &ignored)
	if !ok {
		return ""
	}
	return filepath.Join(mainRoot, filepath.Base(f.Path))
}

// findGitPaths walks up from dir to the nearest .git entry and returns the
// checkout's root and its common git directory (the main repository's .git
// for a linked worktree).
func findGitPaths(dir string) (repoDir, commonGitDir string, ok bool) {
	for {
		common, found, stop := gitCommonDirAt(dir)
		if found {
			return dir, common, true
		}
		if stop {
			return "", "", false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", false
		}
		dir = parent
	}
}

// gitCommonDirAt inspects dir/.git. found means dir is a checkout root;
// stop means the walk must end without a result (a broken .git entry).
func gitCommonDirAt(dir string) (common string, found, stop bool) {
	gitPath := filepath.Join(dir, ".git")
	st, err := os.Stat(gitPath)
	if err != nil {
		return "", false, false
	}
	if st.IsDir() {
		if !exists(filepath.Join(gitPath, "HEAD")) {
			return "", false, true
		}
		return gitPath, true, false
	}
	b, err := os.ReadFile(gitPath)
	if err != nil {
		return "", false, true
	}
	content := strings.TrimSpace(string(b))
	if !strings.HasPrefix(content, "gitdir: ") {
		// A .git file without a gitdir line marks no checkout; the walk
		// goes on upwards, as the reference's does.
		return "", false, false
	}
	gitDir := resolveFrom(dir, strings.TrimSpace(content[len("gitdir: "):]))
	if !exists(filepath.Join(gitDir, "HEAD")) {
		return "", false, true
	}
	common = gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = resolveFrom(gitDir, strings.TrimSpace(string(b)))
	}
	return common, true, false
}

func resolveFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// canonical resolves symlinks, falling back to the cleaned path when the
// path cannot be resolved.
func canonical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		if a, err := filepath.Abs(r); err == nil {
			return a
		}
		return r
	}
	return filepath.Clean(p)
}

func pathWithin(parent, child string) bool {
	if parent == child {
		return true
	}
	if !strings.HasSuffix(parent, string(filepath.Separator)) {
		parent += string(filepath.Separator)
	}
	return strings.HasPrefix(child, parent)
}

// absPath expands a leading ~ and makes p absolute.
func absPath(p string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("expand %s: %w", p, err)
		}
		p = filepath.Join(home, p[1:])
	}
	a, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	return a, nil
}

func stripBOM(s string) string { return strings.TrimPrefix(s, "\uFEFF") }
