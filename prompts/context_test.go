package prompts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// underRoot keeps the files inside the test's temp dir, so a stray
// AGENTS.md above it on the test machine cannot change the outcome.
func underRoot(root string, files []ContextFile) []ContextFile {
	var out []ContextFile
	for _, f := range files {
		if strings.HasPrefix(f.Path, root+string(filepath.Separator)) {
			f.Path = "ROOT" + filepath.ToSlash(f.Path[len(root):])
			out = append(out, f)
		}
	}
	return out
}

func TestLoadContextFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		files   map[string]string
		dirs    []string // extra directories to create
		agent   string   // agent dir, relative to root
		cwd     string   // relative to root
		trusted bool
		want    []ContextFile
	}{
		{
			name:  "agent dir then ancestors from the top down",
			files: map[string]string{"agent/AGENTS.md": "global\n", "repo/AGENTS.md": "repo\n", "repo/proj/CLAUDE.md": "proj\n", "repo/proj/sub/deeper/AGENTS.md": "below cwd\n"},
			dirs:  []string{"repo/proj/sub"},
			agent: "agent", cwd: "repo/proj/sub",
			want: []ContextFile{
				{Path: "ROOT/agent/AGENTS.md", Content: "global\n"},
				{Path: "ROOT/repo/AGENTS.md", Content: "repo\n"},
				{Path: "ROOT/repo/proj/CLAUDE.md", Content: "proj\n"},
			},
		},
		{
			name:  "override beats AGENTS.md beats CLAUDE.md",
			files: map[string]string{"p/AGENTS.override.md": "o", "p/AGENTS.md": "a", "p/CLAUDE.md": "c", "q/AGENTS.md": "a", "q/CLAUDE.md": "c"},
			agent: "q", cwd: "p",
			want: []ContextFile{{Path: "ROOT/q/AGENTS.md", Content: "a"}, {Path: "ROOT/p/AGENTS.override.md", Content: "o"}},
		},
		{
			name:  "upper-case AGENTS.MD before CLAUDE.md",
			files: map[string]string{"p/AGENTS.MD": "upper", "p/CLAUDE.md": "c"},
			agent: "none", cwd: "p",
			want: []ContextFile{{Path: "ROOT/p/AGENTS.MD", Content: "upper"}},
		},
		{
			name:  "a directory named AGENTS.md is skipped",
			files: map[string]string{"p/AGENTS.md/x": "", "p/CLAUDE.md": "c"},
			agent: "none", cwd: "p",
			want: []ContextFile{{Path: "ROOT/p/CLAUDE.md", Content: "c"}},
		},
		{
			name:  "byte order mark stripped, content verbatim",
			files: map[string]string{"p/AGENTS.md": "\ufeff  rule\r\n\n"},
			agent: "none", cwd: "p",
			want: []ContextFile{{Path: "ROOT/p/AGENTS.md", Content: "  rule\r\n\n"}},
		},
		{
			name:  "agent dir inside the project is loaded once",
			files: map[string]string{"p/AGENTS.md": "once"},
			agent: "p", cwd: "p",
			want: []ContextFile{{Path: "ROOT/p/AGENTS.md", Content: "once"}},
		},
		{
			name:  "trust does not gate context files",
			files: map[string]string{"p/AGENTS.md": "x"},
			agent: "none", cwd: "p", trusted: false,
			want: []ContextFile{{Path: "ROOT/p/AGENTS.md", Content: "x"}},
		},
		{
			name: "nested worktree shadows the main repo's file",
			files: map[string]string{
				"repo/.git/HEAD": "ref: refs/heads/main\n", "repo/AGENTS.md": "main copy",
				"repo/.git/worktrees/wt/HEAD": "ref: refs/heads/wt\n", "repo/.git/worktrees/wt/commondir": "../..\n",
				"repo/wt/.git": "gitdir: ../.git/worktrees/wt\n", "repo/wt/AGENTS.md": "worktree copy",
			},
			agent: "none", cwd: "repo/wt",
			want: []ContextFile{{Path: "ROOT/repo/wt/AGENTS.md", Content: "worktree copy"}},
		},
		{
			name: "worktree without its own file inherits the main repo's",
			files: map[string]string{
				"repo/.git/HEAD": "ref: refs/heads/main\n", "repo/AGENTS.md": "main copy",
				"repo/.git/worktrees/wt/HEAD": "ref: refs/heads/wt\n", "repo/.git/worktrees/wt/commondir": "../..\n",
				"repo/wt/.git": "gitdir: ../.git/worktrees/wt\n",
			},
			agent: "none", cwd: "repo/wt",
			want: []ContextFile{{Path: "ROOT/repo/AGENTS.md", Content: "main copy"}},
		},
		{
			name:  "ordinary repository keeps parent files",
			files: map[string]string{"AGENTS.md": "outer", "repo/.git/HEAD": "x", "repo/AGENTS.md": "inner"},
			agent: "none", cwd: "repo",
			want: []ContextFile{{Path: "ROOT/AGENTS.md", Content: "outer"}, {Path: "ROOT/repo/AGENTS.md", Content: "inner"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			writeFiles(t, root, tc.files)
			for _, d := range tc.dirs {
				require.NoError(t, os.MkdirAll(filepath.Join(root, d), 0o755))
			}
			got, err := LoadContextFiles(filepath.Join(root, tc.agent), filepath.Join(root, tc.cwd), tc.trusted)
			require.NoError(t, err)
			require.Equal(t, tc.want, underRoot(root, got))
		})
	}
}

func TestLoadContextFilesRelativeCwd(t *testing.T) {
	t.Parallel()
	// A relative cwd is made absolute against the process directory; the
	// package directory has no context file of its own.
	got, err := LoadContextFiles("", ".", false)
	require.NoError(t, err)
	for _, f := range got {
		require.True(t, filepath.IsAbs(f.Path), f.Path)
	}
}
