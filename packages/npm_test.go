package packages

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/packages/npmtest"
)

const helloExt = `export default function (pi) { pi.registerCommand("hello", { description: "say hello", handler: async () => {} }); }`

// newManager is a Manager over fresh directories that reaches only reg.
func newManager(t *testing.T, reg *npmtest.Registry, env map[string]string) *Manager {
	t.Helper()
	home := t.TempDir()
	cwd := filepath.Join(home, "proj")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": home, "npm_config_registry": reg.URLSlash()}
	for k, v := range env {
		vars[k] = v
	}
	return &Manager{AgentDir: filepath.Join(home, ".pi", "agent"), Cwd: cwd, Trusted: true, Env: func(k string) string { return vars[k] }}
}

func readJSON(t *testing.T, p string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return m
}

func publishHello(reg *npmtest.Registry) {
	reg.Publish(npmtest.Pkg{Name: "dep-a", Version: "1.0.0", Files: map[string]string{"index.js": "module.exports = 1"}})
	reg.Publish(npmtest.Pkg{Name: "dep-a", Version: "1.2.0", Files: map[string]string{"index.js": "module.exports = 2"}})
	reg.Publish(npmtest.Pkg{Name: "dep-a", Version: "2.0.0", Files: map[string]string{"index.js": "module.exports = 3"}})
	reg.Publish(npmtest.Pkg{Name: "dep-b", Version: "1.0.0", Dependencies: map[string]string{"dep-a": "^2.0.0"}})
	reg.Publish(npmtest.Pkg{Name: "pi-hello", Version: "1.0.0",
		Files:        map[string]string{"extensions/hello.ts": helloExt, "skills/greet/SKILL.md": "---\nname: greet\ndescription: Greets\n---\nhi\n"},
		Dependencies: map[string]string{"dep-a": "^1.0.0", "dep-b": "1.0.0", "@earendil-works/pi-tui": "*"},
		Peer:         map[string]string{"@earendil-works/pi-coding-agent": "*"}})
}

// TestInstallLayout checks the npm layout a reference npm install makes:
// hoisted dependencies, a conflicting version nested under its
// dependent, host packages and peers never installed, package.json and
// package-lock.json as npm writes them, and the settings entry.
func TestInstallLayout(t *testing.T) {
	t.Parallel()
	reg := npmtest.New(t)
	publishHello(reg)
	m := newManager(t, reg, nil)
	if err := m.Install(context.Background(), "npm:pi-hello", false); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(m.AgentDir, "npm")
	for p, want := range map[string]string{
		"node_modules/pi-hello":                        "1.0.0",
		"node_modules/dep-a":                           "1.2.0",
		"node_modules/dep-b":                           "1.0.0",
		"node_modules/dep-b/node_modules/dep-a":        "2.0.0",
		"node_modules/@earendil-works/pi-tui":          "",
		"node_modules/@earendil-works/pi-coding-agent": "",
	} {
		if got := Installed(filepath.Join(root, p)); got != want {
			t.Errorf("%s: version %q, want %q", p, got, want)
		}
	}
	pj := readJSON(t, filepath.Join(root, "package.json"))
	if deps, _ := pj["dependencies"].(map[string]any); deps["pi-hello"] != "^1.0.0" || pj["name"] != "pi-extensions" {
		t.Errorf("package.json = %v", pj)
	}
	lock := readJSON(t, filepath.Join(root, "package-lock.json"))
	pk, _ := lock["packages"].(map[string]any)
	if _, ok := pk["node_modules/dep-b/node_modules/dep-a"]; !ok || lock["lockfileVersion"] != float64(3) {
		t.Errorf("package-lock.json = %v", lock)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".gitignore")); string(b) != "*\n!.gitignore\n" {
		t.Errorf(".gitignore = %q", b)
	}
	st := readJSON(t, filepath.Join(m.AgentDir, "settings.json"))
	if list, _ := st["packages"].([]any); len(list) != 1 || list[0] != "npm:pi-hello" {
		t.Errorf("settings = %v", st)
	}
	// Installing again changes nothing in settings and fetches no tarball.
	before := len(reg.Requests())
	if err := m.Install(context.Background(), "npm:pi-hello", false); err != nil {
		t.Fatal(err)
	}
	for _, r := range reg.Requests()[before:] {
		if strings.HasSuffix(r, ".tgz") && !strings.Contains(r, "pi-hello") {
			t.Errorf("reinstall fetched %s again", r)
		}
	}
	res, failures := m.Resolve(context.Background())
	if len(failures) > 0 {
		t.Fatal(failures)
	}
	if got := res.Paths("extensions"); len(got) != 1 || !strings.HasSuffix(got[0], "pi-hello/extensions/hello.ts") {
		t.Errorf("extensions = %v", got)
	}
	if got := res["skills"]; len(got) != 1 || got[0].Source != "npm:pi-hello" || got[0].BaseDir != filepath.Join(root, "node_modules", "pi-hello") {
		t.Errorf("skills = %+v", got)
	}
	removed, err := m.Remove(context.Background(), "npm:pi-hello", false)
	if err != nil || !removed {
		t.Fatalf("remove: %v %v", removed, err)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "node_modules"))
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left after remove: %s", e.Name())
		}
	}
	if pj := readJSON(t, filepath.Join(root, "package.json")); pj["dependencies"] != nil {
		t.Errorf("package.json after remove = %v", pj)
	}
	if removed, _ := m.Remove(context.Background(), "npm:pi-hello", false); removed {
		t.Error("a second remove matched")
	}
}

// TestInstallFailures checks that a 404, a tarball whose integrity does
// not match, a registry that wants a token and a slow registry each fail
// the install with a clear error and leave nothing behind.
func TestInstallFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(*npmtest.Registry)
		env   map[string]string
		want  string
		is    error
		slow  bool
	}{
		{name: "404", setup: func(r *npmtest.Registry) {}, want: "404 Not Found - GET"},
		{name: "integrity", setup: func(r *npmtest.Registry) {
			r.Publish(npmtest.Pkg{Name: "pi-x", Version: "1.0.0", BadIntegrity: true})
		}, is: ErrIntegrity},
		{name: "unauthorized", setup: func(r *npmtest.Registry) {
			r.Token = "secret"
			r.Publish(npmtest.Pkg{Name: "pi-x", Version: "1.0.0"})
		}, want: "401"},
		{name: "slow", setup: func(r *npmtest.Registry) {
			r.Delay = 5 * time.Second
			r.Publish(npmtest.Pkg{Name: "pi-x", Version: "1.0.0"})
		}, want: "deadline exceeded", slow: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reg := npmtest.New(t)
			tt.setup(reg)
			m := newManager(t, reg, tt.env)
			if tt.slow {
				m.Registry = &Registry{Config: LoadNpmConfig("", m.Env), Timeout: 200 * time.Millisecond}
			}
			err := m.Install(context.Background(), "npm:pi-x", false)
			if err == nil {
				t.Fatal("install succeeded")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if tt.want != "" && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(m.AgentDir, "npm", "node_modules", "pi-x")); err == nil {
				t.Error("a failed install left the package")
			}
			if _, err := os.Stat(filepath.Join(m.AgentDir, "settings.json")); err == nil {
				t.Error("a failed install wrote settings")
			}
		})
	}
}

// TestNpmrcAuthAndScopes checks that .npmrc's registry, scoped registry
// and _authToken (with an ${ENV} reference) are used as npm uses them.
func TestNpmrcAuthAndScopes(t *testing.T) {
	t.Parallel()
	public := npmtest.New(t)
	private := npmtest.New(t)
	private.Token = "tok123"
	public.Publish(npmtest.Pkg{Name: "plain", Version: "1.0.0"})
	private.Publish(npmtest.Pkg{Name: "@acme/tool", Version: "2.0.0", Dependencies: map[string]string{"plain": "^1"},
		Files: map[string]string{"index.ts": helloExt}})
	m := newManager(t, public, map[string]string{"npm_config_registry": "", "ACME_TOKEN": "tok123"})
	home := m.env("HOME")
	hostPath := strings.TrimPrefix(private.URL, "http:")
	rc := "registry=" + public.URLSlash() + "\n@acme:registry=" + private.URLSlash() + "\n" + hostPath + "/:_authToken=${ACME_TOKEN}\n"
	if err := os.WriteFile(filepath.Join(home, ".npmrc"), []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := m.Install(context.Background(), "npm:@acme/tool@^2", false); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(m.AgentDir, "npm")
	if v := Installed(filepath.Join(root, "node_modules", "@acme", "tool")); v != "2.0.0" {
		t.Errorf("@acme/tool = %q", v)
	}
	if v := Installed(filepath.Join(root, "node_modules", "plain")); v != "1.0.0" {
		t.Errorf("plain = %q", v)
	}
	if pj := readJSON(t, filepath.Join(root, "package.json")); pj["dependencies"].(map[string]any)["@acme/tool"] != "^2" {
		t.Errorf("saved range = %v", pj["dependencies"])
	}
	for _, r := range public.Requests() {
		if strings.Contains(r, "acme") {
			t.Errorf("the public registry was asked for %s", r)
		}
	}
}

// TestUpdate checks that update moves an unpinned package to the newest
// version, leaves a pinned one, and reports each change.
func TestUpdate(t *testing.T) {
	t.Parallel()
	reg := npmtest.New(t)
	reg.Publish(npmtest.Pkg{Name: "pi-u", Version: "1.0.0", Files: map[string]string{"index.ts": helloExt}})
	reg.Publish(npmtest.Pkg{Name: "pi-p", Version: "1.0.0", Files: map[string]string{"index.ts": helloExt}})
	m := newManager(t, reg, nil)
	ctx := context.Background()
	for _, s := range []string{"npm:pi-u", "npm:pi-p@1.0.0"} {
		if err := m.Install(ctx, s, false); err != nil {
			t.Fatal(err)
		}
	}
	updated, _, err := m.Update(ctx, "")
	if err != nil || len(updated) != 0 {
		t.Fatalf("nothing to update: %v %v", updated, err)
	}
	reg.Publish(npmtest.Pkg{Name: "pi-u", Version: "1.1.0", Files: map[string]string{"index.ts": helloExt}})
	reg.Publish(npmtest.Pkg{Name: "pi-p", Version: "1.1.0", Files: map[string]string{"index.ts": helloExt}})
	updated, _, err = m.Update(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(updated) != 1 || updated[0] != "npm:pi-u 1.0.0 -> 1.1.0" {
		t.Errorf("updated = %q", updated)
	}
	if v := Installed(filepath.Join(m.AgentDir, "npm", "node_modules", "pi-p")); v != "1.0.0" {
		t.Errorf("pinned package moved to %s", v)
	}
	if _, _, err := m.Update(ctx, "npm:nope"); err == nil || err.Error() != "No matching package found for npm:nope" {
		t.Errorf("update of an unknown source: %v", err)
	}
	if _, _, err := m.Update(ctx, "pi-u"); err == nil || !strings.Contains(err.Error(), "Did you mean npm:pi-u?") {
		t.Errorf("suggestion: %v", err)
	}
}

// TestResolveInstallsMissing checks that a declared package missing on
// disk is installed at resolve time, and that one that cannot be is
// reported and skipped.
func TestResolveInstallsMissing(t *testing.T) {
	t.Parallel()
	reg := npmtest.New(t)
	reg.Publish(npmtest.Pkg{Name: "pi-m", Version: "1.0.0", Files: map[string]string{"extensions/a.ts": helloExt}})
	m := newManager(t, reg, nil)
	if err := writeJSONFile(filepath.Join(m.AgentDir, "settings.json"), map[string]any{"packages": []any{"npm:pi-m", "npm:pi-gone"}}, false); err != nil {
		t.Fatal(err)
	}
	res, failures := m.Resolve(context.Background())
	if len(res.Paths("extensions")) != 1 {
		t.Errorf("extensions = %v", res.Paths("extensions"))
	}
	if len(failures) != 1 || failures[0].Source != "npm:pi-gone" || !strings.Contains(failures[0].Message, "404") {
		t.Errorf("failures = %+v", failures)
	}
	// The next resolve (a reload, a new session, the next start) tries
	// again and succeeds once the package exists.
	reg.Publish(npmtest.Pkg{Name: "pi-gone", Version: "1.0.0", Files: map[string]string{"extensions/b.ts": helloExt}})
	res, failures = m.Resolve(context.Background())
	if len(failures) != 0 || len(res.Paths("extensions")) != 2 {
		t.Errorf("retry: %v, failures %+v", res.Paths("extensions"), failures)
	}
}

// TestConcurrentInstalls checks that two installs into one root at once
// both land (the lock serialises them) and the tree stays whole.
func TestConcurrentInstalls(t *testing.T) {
	t.Parallel()
	reg := npmtest.New(t)
	reg.Publish(npmtest.Pkg{Name: "one", Version: "1.0.0"})
	reg.Publish(npmtest.Pkg{Name: "two", Version: "1.0.0"})
	m := newManager(t, reg, nil)
	root := filepath.Join(m.AgentDir, "npm")
	errs := make(chan error, 2)
	for _, n := range []string{"one", "two"} {
		go func() {
			errs <- m.npmFor(root, false).Install(context.Background(), []NpmSpec{{Name: n}})
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	deps := readJSON(t, filepath.Join(root, "package.json"))["dependencies"].(map[string]any)
	if len(deps) != 2 || Installed(filepath.Join(root, "node_modules", "one")) == "" || Installed(filepath.Join(root, "node_modules", "two")) == "" {
		t.Errorf("after concurrent installs: %v", deps)
	}
}

// TestBundledDependencies checks that a package's bundled dependencies
// are taken from its tarball, neither fetched nor pruned.
func TestBundledDependencies(t *testing.T) {
	t.Parallel()
	reg := npmtest.New(t)
	reg.Publish(npmtest.Pkg{Name: "pi-b", Version: "1.0.0", Dependencies: map[string]string{"inner": "^1.0.0"},
		Extra: map[string]any{"bundleDependencies": []string{"inner"}},
		Files: map[string]string{"index.ts": helloExt, "node_modules/inner/package.json": `{"name":"inner","version":"1.0.0"}`}})
	m := newManager(t, reg, nil)
	if err := m.Install(context.Background(), "npm:pi-b", false); err != nil {
		t.Fatal(err)
	}
	if v := Installed(filepath.Join(m.AgentDir, "npm", "node_modules", "pi-b", "node_modules", "inner")); v != "1.0.0" {
		t.Errorf("bundled dependency = %q", v)
	}
	for _, r := range reg.Requests() {
		if strings.Contains(r, "inner") {
			t.Errorf("a bundled dependency was fetched: %s", r)
		}
	}
}

// TestScopesAndFilters checks settings scopes: a project entry replaces
// the user's entry of the same package, its object form filters
// resources, an autoload:false project entry is a delta over the user's,
// and an untrusted project's entries are ignored.
func TestScopesAndFilters(t *testing.T) {
	t.Parallel()
	reg := npmtest.New(t)
	reg.Publish(npmtest.Pkg{Name: "pi-f", Version: "1.0.0", Files: map[string]string{
		"extensions/a.ts": helloExt, "extensions/b.ts": helloExt, "prompts/p.md": "p",
	}})
	m := newManager(t, reg, nil)
	ctx := context.Background()
	if err := m.Install(ctx, "npm:pi-f", false); err != nil {
		t.Fatal(err)
	}
	if err := m.Install(ctx, "npm:pi-f", true); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(m.Cwd, ".pi", "settings.json")
	names := func(res Resources, typ string) string {
		var out []string
		for _, p := range res.Paths(typ) {
			out = append(out, filepath.Base(p)+"@"+strings.TrimPrefix(filepath.Dir(filepath.Dir(filepath.Dir(p))), m.Cwd))
		}
		return strings.Join(out, ",")
	}
	set := func(v any) {
		t.Helper()
		if err := writeJSONFile(project, map[string]any{"packages": []any{v}}, false); err != nil {
			t.Fatal(err)
		}
	}
	set(map[string]any{"source": "npm:pi-f", "extensions": []any{"extensions/a.ts"}, "prompts": []any{}})
	res, _ := m.Resolve(ctx)
	if got := names(res, "extensions"); got != "a.ts@/.pi/npm/node_modules" {
		t.Errorf("project filter: extensions %s", got)
	}
	if got := res.Paths("prompts"); len(got) != 0 {
		t.Errorf("project filter: prompts %v", got)
	}
	set(map[string]any{"source": "npm:pi-f", "autoload": false, "extensions": []any{"-extensions/b.ts"}})
	res, _ = m.Resolve(ctx)
	// The delta disables b.ts of the user's copy; a.ts and the prompt
	// come from the user's entry.
	if got := names(res, "extensions"); got != "a.ts"+"@"+strings.TrimPrefix(filepath.Join(m.AgentDir, "npm", "node_modules"), m.Cwd) {
		t.Errorf("autoload delta: extensions %s", got)
	}
	m.Trusted = false
	res, _ = m.Resolve(ctx)
	if got := len(res.Paths("extensions")); got != 2 {
		t.Errorf("untrusted: %d extensions, want the user's 2", got)
	}
}
