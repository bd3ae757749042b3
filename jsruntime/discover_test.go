package jsruntime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// discoveryTree builds the layout that was run through the reference
// (1.6.0) to record its load order; see TestDiscover.
func discoveryTree(t *testing.T) (root string) {
	t.Helper()
	root = t.TempDir()
	files := map[string]string{
		"home/agent/extensions/a.ts":              "",
		"home/agent/extensions/b/index.ts":        "",
		"home/agent/extensions/c/main.ts":         "",
		"home/agent/extensions/c/index.ts":        "",
		"home/agent/extensions/c/package.json":    `{"pi":{"extensions":["./main.ts","./missing.ts"]}}`,
		"home/agent/extensions/.hidden.ts":        "",
		"home/agent/extensions/node_modules/x.ts": "",
		"home/agent/extensions/z.js":              "",
		"home/agent/extensions/d/other.ts":        "",
		"home/agent/extensions/ign.ts":            "",
		"home/agent/extensions/.gitignore":        "ign.ts\n",
		"home/agent/extensions/notes.md":          "",
		"proj/.pi/extensions/p.ts":                "",
		"proj/.pi/agent/extensions/pa.ts":         "",
		"other/s1.ts":                             "",
		"proj/.pi/s2.ts":                          "",
		"cli.ts":                                  "",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestDiscover(t *testing.T) {
	t.Parallel()
	root := discoveryTree(t)
	base := DiscoverOptions{
		AgentDir:        filepath.Join(root, "home/agent"),
		Cwd:             filepath.Join(root, "proj"),
		GlobalSettings:  []string{"../../other/s1.ts", "!a.ts"},
		ProjectSettings: []string{"s2.ts"},
		CLI:             []string{"../cli.ts", "../cli.ts"},
	}
	tests := []struct {
		name  string
		tweak func(*DiscoverOptions)
		want  []string
	}{
		{"trusted", func(o *DiscoverOptions) { o.Trusted = true }, []string{
			// Reference order: cli, settings-proj, proj-p, settings-user, user-b, user-c-main, user-z.
			// .pi/agent/extensions is our addition (the issue asks for both project dirs).
			"cli.ts", "proj/.pi/s2.ts", "proj/.pi/extensions/p.ts", "proj/.pi/agent/extensions/pa.ts",
			"other/s1.ts", "home/agent/extensions/b/index.ts", "home/agent/extensions/c/main.ts", "home/agent/extensions/z.js",
		}},
		{"untrusted", nil, []string{
			"cli.ts", "other/s1.ts", "home/agent/extensions/b/index.ts", "home/agent/extensions/c/main.ts", "home/agent/extensions/z.js",
		}},
		{"no discovery", func(o *DiscoverOptions) { o.Trusted = true; o.NoDiscovery = true }, []string{"cli.ts"}},
		{"force exclude and include", func(o *DiscoverOptions) {
			o.GlobalSettings = []string{"!*.ts", "+extensions/c/main.ts", "-extensions/z.js"}
		}, []string{"cli.ts", "home/agent/extensions/c/main.ts"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := base
			if tc.tweak != nil {
				tc.tweak(&o)
			}
			var got []string
			for _, s := range Discover(o) {
				rel, _ := filepath.Rel(root, s.Path)
				got = append(got, rel)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestDiscoverScopes(t *testing.T) {
	t.Parallel()
	root := discoveryTree(t)
	srcs := Discover(DiscoverOptions{AgentDir: filepath.Join(root, "home/agent"), Cwd: filepath.Join(root, "proj"), Trusted: true, CLI: []string{"../cli.ts"}})
	if srcs[0].Scope != ScopeCLI || srcs[1].Scope != ScopeProject || srcs[len(srcs)-1].Scope != ScopeUser || srcs[len(srcs)-1].Source != SourceAuto {
		t.Errorf("scopes: %+v", srcs)
	}
}
