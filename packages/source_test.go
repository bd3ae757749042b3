package packages

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Source
	}{
		{"npm:pi-aliases", Source{Kind: KindNpm, Spec: "pi-aliases", Name: "pi-aliases"}},
		{"npm:@scope/pkg@1.2.3", Source{Kind: KindNpm, Spec: "@scope/pkg@1.2.3", Name: "@scope/pkg", Version: "1.2.3", Range: "1.2.3", Pinned: true}},
		{"npm:pkg@^1.2", Source{Kind: KindNpm, Spec: "pkg@^1.2", Name: "pkg", Version: "^1.2", Range: "^1.2"}},
		{"npm:pkg@beta", Source{Kind: KindNpm, Spec: "pkg@beta", Name: "pkg", Version: "beta"}},
		{"git:github.com/user/repo", Source{Kind: KindGit, Repo: "https://github.com/user/repo", Host: "github.com", Path: "user/repo"}},
		{"git:github.com/user/repo@v1", Source{Kind: KindGit, Repo: "https://github.com/user/repo", Host: "github.com", Path: "user/repo", Ref: "v1", Pinned: true}},
		{"git:git@github.com:user/repo.git", Source{Kind: KindGit, Repo: "git@github.com:user/repo.git", Host: "github.com", Path: "user/repo"}},
		{"https://github.com/user/repo@abc1234", Source{Kind: KindGit, Repo: "https://github.com/user/repo", Host: "github.com", Path: "user/repo", Ref: "abc1234", Pinned: true}},
		{"ssh://git@gitlab.com/group/sub/repo", Source{Kind: KindGit, Repo: "ssh://git@gitlab.com/group/sub/repo", Host: "gitlab.com", Path: "group/sub/repo"}},
		{"./local/pkg", Source{Kind: KindLocal, LocalPath: "./local/pkg"}},
		{"github.com/user/repo", Source{Kind: KindLocal, LocalPath: "github.com/user/repo"}},
		{"git:nohost/repo", Source{Kind: KindLocal, LocalPath: "git:nohost/repo"}},
		{"git:example.com/../etc", Source{Kind: KindLocal, LocalPath: "git:example.com/../etc"}},
	}
	for _, tt := range tests {
		got := Parse(tt.in)
		tt.want.Raw = tt.in
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestPickVersion(t *testing.T) {
	t.Parallel()
	versions := []string{"1.0.0", "1.2.0", "1.3.0-beta.1", "2.0.0", "2.1.0"}
	tags := map[string]string{"latest": "2.0.0", "beta": "1.3.0-beta.1"}
	tests := []struct{ want, got string }{
		{"", "2.0.0"},       // latest tag
		{"latest", "2.0.0"}, // tag
		{"beta", "1.3.0-beta.1"},
		{"^1.0.0", "1.2.0"}, // prereleases left out
		{"^2", "2.0.0"},     // latest satisfies: npm prefers it
		{">=2.1", "2.1.0"},
		{"1.0.0", "1.0.0"},
		{"1.x || >=2.1", "2.1.0"}, // latest is outside the range
		{"1.0.0 - 1.2.0", "1.2.0"},
		{"~1.2", "1.2.0"},
		{"^3", ""},
	}
	for _, tt := range tests {
		got, _ := pickVersion(tt.want, versions, tags)
		if got != tt.got {
			t.Errorf("pickVersion(%q) = %q, want %q", tt.want, got, tt.got)
		}
	}
}

// TestCollectFilters checks a package's resources under the settings
// filters: omitted, [], globs, !pattern, +path, -path, and a manifest
// that narrows the conventional folders.
func TestCollectFilters(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	files := map[string]string{
		"package.json":            `{"name":"p","pi":{"extensions":["./extensions","!**/legacy.ts"],"prompts":["./prompts/*.md"]}}`,
		"extensions/a.ts":         "",
		"extensions/legacy.ts":    "",
		"extensions/sub/index.ts": "",
		"skills/one/SKILL.md":     "",
		"prompts/review.md":       "",
		"prompts/other.md":        "",
		"themes/dark.json":        "{}",
		"extensions/.gitignore":   "ignored.ts\n",
		"extensions/ignored.ts":   "",
	}
	for p, b := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	enabled := func(res map[string][]Resource, typ string) []string {
		var out []string
		for _, r := range res[typ] {
			if r.Enabled {
				rel, _ := filepath.Rel(root, r.Path)
				out = append(out, filepath.ToSlash(rel))
			}
		}
		return out
	}
	res, ok := Collect(root, nil)
	if !ok {
		t.Fatal("package not recognised")
	}
	if got := strings.Join(enabled(res, "extensions"), ","); got != "extensions/a.ts,extensions/sub/index.ts" {
		t.Errorf("manifest extensions = %s", got)
	}
	if got := enabled(res, "skills"); len(got) != 0 {
		t.Errorf("a manifest without skills still gave %v", got)
	}
	if got := strings.Join(enabled(res, "prompts"), ","); got != "prompts/other.md,prompts/review.md" {
		t.Errorf("prompts = %s", got)
	}
	f := &Filter{
		Lists:    map[string][]string{"extensions": {"extensions/*.ts", "+extensions/sub/index.ts", "-extensions/a.ts"}, "prompts": {}, "themes": {"!dark.json"}},
		HasLists: map[string]bool{"extensions": true, "prompts": true, "themes": true},
	}
	res, _ = Collect(root, f)
	if got := strings.Join(enabled(res, "extensions"), ","); got != "extensions/sub/index.ts" {
		t.Errorf("filtered extensions = %s", got)
	}
	if got := enabled(res, "prompts"); len(got) != 0 {
		t.Errorf("[] prompts = %v", got)
	}
	// As in the reference, an entry with filters reads a type it omits
	// from the conventional folder even when the manifest lists others.
	if got := enabled(res, "skills"); len(got) != 1 {
		t.Errorf("omitted skills = %v", got)
	}
}

// TestNpmCommand checks that the npmCommand setting runs the external
// package manager with the reference's arguments.
func TestNpmCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "args")
	script := filepath.Join(dir, "fake-npm")
	body := "#!/bin/sh\necho \"$@\" >> " + log + "\n[ \"$2\" = install ] && mkdir -p \"$5/node_modules/pi-x\" && echo '{\"name\":\"pi-x\",\"version\":\"1.0.0\"}' > \"$5/node_modules/pi-x/package.json\"\nexit 0\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	m := &Manager{AgentDir: filepath.Join(dir, "agent"), Cwd: dir, Trusted: true, NpmCommand: []string{script, "--flag"}, Env: func(string) string { return "" }}
	if err := m.Install(context.Background(), "npm:pi-x@1.0.0", false); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Remove(context.Background(), "npm:pi-x", false); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	root := filepath.Join(m.AgentDir, "npm")
	want := "--flag install pi-x@1.0.0 --prefix " + root + " --legacy-peer-deps --no-audit --no-fund\n" +
		"--flag uninstall pi-x --prefix " + root + " --legacy-peer-deps --no-audit --no-fund\n"
	if string(b) != want {
		t.Errorf("npmCommand ran:\n%s\nwant:\n%s", b, want)
	}
}

// TestRangesMatchNpm checks the range matcher against answers recorded
// from npm's own semver package (testdata/semver.json, made with the
// reference's node_modules/semver): which strings are ranges, and which
// versions each range admits.
func TestRangesMatchNpm(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/semver.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Versions []string `json:"versions"`
		Ranges   []struct {
			Range   string   `json:"range"`
			Valid   bool     `json:"valid"`
			Matches []string `json:"matches"`
		} `json:"ranges"`
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	for _, r := range golden.Ranges {
		if got := validRange(r.Range); got != r.Valid {
			t.Errorf("validRange(%q) = %v, npm says %v", r.Range, got, r.Valid)
			continue
		}
		var got []string
		for _, v := range golden.Versions {
			if r.Valid && satisfies(v, r.Range) {
				got = append(got, v)
			}
		}
		if strings.Join(got, " ") != strings.Join(r.Matches, " ") {
			t.Errorf("range %q admits %v, npm admits %v", r.Range, got, r.Matches)
		}
	}
}
