package packages

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// gitPromptFailure is output of git (or the ssh it runs) that failed
// because it could not ask for credentials.
var gitPromptFailure = []string{"terminal prompts disabled", "could not read Username", "could not read Password", "Permission denied (publickey", "Host key verification failed", "passphrase"}

// Git runs the system git for git sources, and installs a checkout's
// dependencies with Deps.
type Git struct {
	// Out receives git's own output (clone progress); nil discards it.
	Out io.Writer
	// Deps installs the "dependencies" of a checkout's package.json into
	// its node_modules.
	Deps func(ctx context.Context, dir string) error
}

// run runs git in dir; a failure carries the end of its output.
func (g *Git) run(ctx context.Context, dir string, args ...string) error {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.Env = gitEnv()
	err := cmd.Run()
	if g.Out != nil {
		_, _ = g.Out.Write(buf.Bytes())
	}
	if err != nil {
		tail := strings.TrimSpace(buf.String())
		if len(tail) > 8000 {
			tail = tail[len(tail)-8000:]
		}
		msg := fmt.Sprintf("git %s failed: %v", strings.Join(args, " "), err)
		if tail != "" {
			msg += ":\n" + tail
		}
		for _, p := range gitPromptFailure {
			if strings.Contains(tail, p) {
				msg += "\ngit cannot ask for a password or passphrase while pi runs. Set up a git credential helper or an ssh agent."
				break
			}
		}
		return fmt.Errorf("%s", msg)
	}
	return nil
}

// output runs git in dir and returns its trimmed stdout.
func (g *Git) output(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s failed: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// gitEnv makes git and ssh fail rather than prompt: pi may be serving a
// protocol on the terminal.
func gitEnv() []string {
	env := append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	if os.Getenv("GIT_SSH_COMMAND") == "" {
		env = append(env, "GIT_SSH_COMMAND=ssh -o BatchMode=yes")
	}
	return env
}

// Head is the commit checked out in dir ("" when there is none).
func (g *Git) Head(ctx context.Context, dir string) string {
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	h, _ := g.output(ctx, dir, "rev-parse", "HEAD")
	return h
}

// markerPath notes an update that has moved the checkout but not yet
// cleaned it and installed its dependencies.
func markerPath(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".pi-update-incomplete")
}

// Install clones src into dir, or reconciles an existing checkout: a
// ref is fetched and checked out (pinned tags and commits stay put), a
// branch checkout moves to its remote branch.
func (g *Git) Install(ctx context.Context, src Source, dir, installRoot string) error {
	if _, err := os.Stat(dir); err == nil {
		return g.Update(ctx, src, dir)
	}
	if installRoot != "" {
		if err := ensureGitIgnore(installRoot); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(dir), err)
	}
	_ = os.Remove(markerPath(dir))
	err := g.run(ctx, "", "clone", src.Repo, dir)
	if err == nil && src.Ref != "" {
		err = g.run(ctx, dir, "checkout", src.Ref)
	}
	if err == nil {
		err = g.deps(ctx, dir)
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		_ = os.Remove(checkoutLockPath(dir))
		pruneEmptyParents(dir, installRoot)
		return err
	}
	return nil
}

func (g *Git) deps(ctx context.Context, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil || g.Deps == nil {
		return nil
	}
	return g.Deps(ctx, dir)
}

// Update reconciles an existing checkout with its ref or its upstream.
func (g *Git) Update(ctx context.Context, src Source, dir string) error {
	if src.Ref != "" {
		return g.ensureRef(ctx, dir, []string{"fetch", "origin", src.Ref}, "FETCH_HEAD")
	}
	fetch, ref := g.updateTarget(ctx, dir)
	return g.ensureRef(ctx, dir, fetch, ref)
}

// updateTarget is the fetch that brings the checkout's branch up to date
// and the ref to reset to: the upstream branch, or origin's HEAD.
func (g *Git) updateTarget(ctx context.Context, dir string) (fetch []string, ref string) {
	if up, err := g.output(ctx, dir, "rev-parse", "--abbrev-ref", "@{upstream}"); err == nil && strings.HasPrefix(up, "origin/") && len(up) > len("origin/") {
		b := strings.TrimPrefix(up, "origin/")
		return []string{"fetch", "--prune", "--no-tags", "origin", "+refs/heads/" + b + ":refs/remotes/origin/" + b}, "@{upstream}"
	}
	_ = g.run(ctx, dir, "remote", "set-head", "origin", "-a")
	head, _ := g.output(ctx, dir, "symbolic-ref", "refs/remotes/origin/HEAD")
	if b := strings.TrimPrefix(head, "refs/remotes/origin/"); b != "" && b != head {
		return []string{"fetch", "--prune", "--no-tags", "origin", "+refs/heads/" + b + ":refs/remotes/origin/" + b}, "origin/HEAD"
	}
	return []string{"fetch", "--prune", "--no-tags", "origin", "+HEAD:refs/remotes/origin/HEAD"}, "origin/HEAD"
}

// ensureRef fetches, then resets the checkout to ref when it moved,
// cleaning untracked files and installing the new commit's dependencies.
// A marker file makes an interrupted update finish on the next one.
func (g *Git) ensureRef(ctx context.Context, dir string, fetch []string, ref string) error {
	if err := g.run(ctx, dir, fetch...); err != nil {
		return err
	}
	local, err := g.output(ctx, dir, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	target, err := g.output(ctx, dir, "rev-parse", ref+"^{commit}")
	if err != nil {
		return err
	}
	marker := markerPath(dir)
	if local == target {
		if _, err := os.Stat(marker); err == nil {
			return g.cleanAndDeps(ctx, dir, marker)
		}
		if missingDeps(dir) {
			return g.deps(ctx, dir)
		}
		return nil
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", marker, err)
	}
	if err := g.run(ctx, dir, "reset", "--hard", ref+"^{commit}"); err != nil {
		return err
	}
	return g.cleanAndDeps(ctx, dir, marker)
}

func (g *Git) cleanAndDeps(ctx context.Context, dir, marker string) error {
	cleanErr := g.run(ctx, dir, "clean", "-fdx")
	if err := g.deps(ctx, dir); err != nil {
		return err
	}
	if cleanErr == nil {
		_ = os.Remove(marker)
	}
	return nil
}

// missingDeps reports whether a dependency of the checkout's
// package.json is not in its node_modules.
func missingDeps(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return false
	}
	var m struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if json.Unmarshal(stripBOM(b), &m) != nil {
		return false
	}
	for name := range m.Dependencies {
		if IsHostPackage(name) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(name))); err != nil {
			return true
		}
	}
	return false
}

// Remove deletes a checkout and the folders it leaves empty.
func (g *Git) Remove(dir, installRoot string) error {
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("remove %s: %w", dir, err)
	}
	_ = os.Remove(markerPath(dir))
	_ = os.Remove(checkoutLockPath(dir))
	pruneEmptyParents(dir, installRoot)
	return nil
}

func pruneEmptyParents(dir, root string) {
	if root == "" {
		return
	}
	root = filepath.Clean(root)
	for cur := filepath.Dir(dir); strings.HasPrefix(cur, root+string(filepath.Separator)); cur = filepath.Dir(cur) {
		entries, err := os.ReadDir(cur)
		if err != nil {
			continue
		}
		if len(entries) > 0 || os.Remove(cur) != nil {
			return
		}
	}
}
