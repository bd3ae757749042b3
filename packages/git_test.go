package packages

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestGitSource installs git:example.com/acme/tools from a local bare
// repository (git's insteadOf maps the URL to it, so nothing leaves the
// machine), loads its extension, keeps a pinned tag in place on update,
// moves a branch checkout forward, and removes the checkout.
func TestGitSource(t *testing.T) {
	root := t.TempDir()
	bare := filepath.Join(root, "remote", "tools.git")
	work := filepath.Join(root, "work")
	git(t, root, "init", "-q", "--bare", "-b", "main", bare)
	git(t, root, "init", "-q", "-b", "main", work)
	write := func(name, body string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(work, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name":"tools","version":"1.0.0","pi":{"extensions":["./ext.ts"]}}`)
	write("ext.ts", helloExt)
	git(t, work, "add", ".")
	git(t, work, "commit", "-q", "-m", "one")
	git(t, work, "tag", "v1")
	git(t, work, "remote", "add", "origin", bare)
	git(t, work, "push", "-q", "origin", "main", "v1")
	cfg := filepath.Join(root, "gitconfig")
	if err := os.WriteFile(cfg, []byte("[url \"file://"+filepath.Join(root, "remote")+"/\"]\n\tinsteadOf = https://example.com/acme/\n[protocol \"file\"]\n\tallow = always\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")

	home := t.TempDir()
	m := &Manager{AgentDir: filepath.Join(home, "agent"), Cwd: home, Trusted: true, Env: func(string) string { return "" }}
	ctx := context.Background()
	for _, src := range []string{"git:example.com/acme/tools", "git:example.com/acme/tools@v1"} {
		if err := m.Install(ctx, src, false); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(m.AgentDir, "git", "example.com", "acme", "tools")
	res, _ := m.Resolve(ctx)
	if got := res.Paths("extensions"); len(got) != 1 || got[0] != filepath.Join(dir, "ext.ts") {
		t.Fatalf("extensions = %v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(m.AgentDir, "git", ".gitignore")); string(b) != "*\n!.gitignore\n" {
		t.Errorf("git root .gitignore = %q", b)
	}
	// The second install replaced the first entry (same identity) with
	// the pinned ref.
	if e := m.Entries(ScopeUser); len(e) != 1 || e[0].Source != "git:example.com/acme/tools@v1" {
		t.Fatalf("entries = %+v", e)
	}
	if st := git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("the install left the checkout dirty: %s", st)
	}
	v1 := git(t, dir, "rev-parse", "HEAD")
	write("ext.ts", strings.Replace(helloExt, "hello", "hello2", 1))
	git(t, work, "commit", "-q", "-am", "two")
	git(t, work, "push", "-q", "origin", "main")
	updated, _, err := m.Update(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != v1 || len(updated) != 0 {
		t.Errorf("a pinned tag moved: %s (%v)", got, updated)
	}
	// Unpinned, the checkout follows its branch.
	if err := m.Install(ctx, "git:example.com/acme/tools", false); err != nil {
		t.Fatal(err)
	}
	head := git(t, work, "rev-parse", "HEAD")
	if got := git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("branch checkout at %s, want %s", got, head)
	}
	// -e git: checks out under tmp/extensions/git-<host>/<hash>/<path>,
	// the reference's place (sha256 of "git-example.com-acme/tools@v1").
	res, failures := m.ResolveTemporary(ctx, []string{"git:example.com/acme/tools@v1"})
	tmp := filepath.Join(m.AgentDir, "tmp", "extensions", "git-example.com", "6e200a14", "acme", "tools")
	if len(failures) > 0 || len(res.Paths("extensions")) != 1 || res.Paths("extensions")[0] != filepath.Join(tmp, "ext.ts") {
		t.Errorf("-e git: %v %+v", res.Paths("extensions"), failures)
	}
	if got := git(t, tmp, "rev-parse", "HEAD"); got != v1 {
		t.Errorf("-e git:@v1 at %s, want %s", got, v1)
	}
	removed, err := m.Remove(ctx, "git:example.com/acme/tools", false)
	if err != nil || !removed {
		t.Fatalf("remove: %v %v", removed, err)
	}
	if _, err := os.Stat(filepath.Join(m.AgentDir, "git", "example.com")); !os.IsNotExist(err) {
		t.Errorf("empty parents left: %v", err)
	}
}
