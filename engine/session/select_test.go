package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func strp(s string) *string { return &s }

func TestSelectErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts SelectOptions
		want string
	}{
		{"fork with no-session", SelectOptions{Fork: "x", NoSession: true}, "Error: --fork cannot be combined with --no-session"},
		{"fork with session and continue", SelectOptions{Fork: "x", Session: "y", Continue: true}, "Error: --fork cannot be combined with --session, --continue"},
		{"session-id with continue", SelectOptions{SessionID: "abc", Continue: true}, "Error: --session-id cannot be combined with --continue"},
		{"bad session id", SelectOptions{SessionID: "-bad"}, "Error: Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character"},
		{"no match", SelectOptions{Session: "nomatch"}, "No session found matching 'nomatch'"},
		{"fork no match", SelectOptions{Fork: "nomatch"}, "No session found matching 'nomatch'"},
		{"empty name", SelectOptions{Name: strp(" \n ")}, "Error: --name requires a non-empty value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.opts.AgentDir = t.TempDir()
			tt.opts.Cwd = t.TempDir()
			_, _, err := Select(tt.opts)
			require.Error(t, err)
			var ee *ExitError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, 1, ee.Code)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestSelectFlow(t *testing.T) {
	t.Parallel()
	agent, cwd, sd := t.TempDir(), t.TempDir(), t.TempDir()
	base := SelectOptions{AgentDir: agent, Cwd: cwd, SessionDir: sd}

	o := base
	o.Name = strp("First Name")
	f, warns, err := Select(o)
	require.NoError(t, err)
	assert.Empty(t, warns)
	require.NoError(t, f.Append(userMsg("hi one")))
	first := f.Path()
	id := f.Header().ID
	assert.Equal(t, sd, filepath.Dir(first))
	assert.Equal(t, "First Name", f.SessionName())
	require.NoError(t, f.Close())

	o = base
	o.Continue = true
	f, _, err = Select(o)
	require.NoError(t, err)
	assert.Equal(t, first, f.Path())
	require.NoError(t, f.Close())

	o = base
	o.Session = id[:8]
	f, _, err = Select(o)
	require.NoError(t, err, "prefix match")
	assert.Equal(t, first, f.Path())
	require.NoError(t, f.Close())

	o = base
	o.Fork = id[:8]
	f, _, err = Select(o)
	require.NoError(t, err)
	assert.Equal(t, first, f.Header().ParentSession)
	assert.NotEqual(t, id, f.Header().ID)
	src, _ := os.ReadFile(first)
	dst, _ := os.ReadFile(f.Path())
	assert.Equal(t, string(src[len(lines(t, first)[0])+1:]), string(dst[len(lines(t, f.Path())[0])+1:]), "entries copied verbatim")
	require.NoError(t, f.Close())

	o = base
	o.SessionID = "my-custom.id_1"
	f, warns, err = Select(o)
	require.NoError(t, err)
	assert.Equal(t, []string{"Warning: No project session found with id 'my-custom.id_1'; creating a new session with that id."}, warns)
	require.NoError(t, f.Append(userMsg("x")))
	assert.Regexp(t, `_my-custom\.id_1\.jsonl$`, f.Path())
	require.NoError(t, f.Close())
	f, warns, err = Select(o)
	require.NoError(t, err)
	assert.Empty(t, warns)
	require.NoError(t, f.Close())

	o = base
	o.Fork = id
	o.SessionID = "my-custom.id_1"
	_, _, err = Select(o)
	assert.EqualError(t, err, "Session already exists with id 'my-custom.id_1'")

	// A session of another project found only by the global search asks to
	// fork; a non-interactive run answers no.
	o = SelectOptions{AgentDir: agent, Cwd: t.TempDir(), SessionDir: sd, Session: id}
	_, _, err = Select(o)
	assert.ErrorIs(t, err, ErrAborted)

	o = base
	o.NoSession = true
	o.SessionID = "fixed"
	f, _, err = Select(o)
	require.NoError(t, err)
	assert.Equal(t, "", f.Path())
	assert.Equal(t, "fixed", f.Header().ID)
}

func TestSelectDefaultDirAndPath(t *testing.T) {
	t.Parallel()
	agent, cwd := t.TempDir(), t.TempDir()
	f, _, err := Select(SelectOptions{AgentDir: agent, Cwd: cwd})
	require.NoError(t, err)
	assert.Equal(t, AgentSessionsDir(agent, cwd), filepath.Dir(f.Path()))
	assert.DirExists(t, filepath.Dir(f.Path()))

	p := filepath.Join(t.TempDir(), "new.jsonl")
	g, _, err := Select(SelectOptions{AgentDir: agent, Cwd: cwd, Session: p})
	require.NoError(t, err, "a nonexistent path starts a session saved there")
	assert.Equal(t, p, g.Path())
	require.NoError(t, g.Append(userMsg("x")))
	assert.FileExists(t, p)
	require.NoError(t, g.Close())

	o := SelectOptions{AgentDir: agent, Cwd: cwd, EnvSessionDir: "/env/dir", SettingsSessionDir: "/settings"}
	assert.Equal(t, "/env/dir", o.ResolveSessionDir())
	o.SessionDir = "/flag"
	assert.Equal(t, "/flag", o.ResolveSessionDir())
}

func TestTreeForkClone(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "transcript_b.jsonl")
	f, err := Open(p)
	require.NoError(t, err)
	defer f.Close()

	require.NoError(t, f.AppendLabel("d7636e6e", "start"))
	require.NoError(t, f.SetLeaf("d7636e6e"))
	require.NoError(t, f.Append(userMsg("side")))
	side := f.LeafID()

	since, err := f.EntriesSince("48a79c40")
	require.NoError(t, err)
	require.Len(t, since, 2)
	_, err = f.EntriesSince("nope")
	assert.EqualError(t, err, "Entry not found: nope")

	tree := f.Tree()
	require.Len(t, tree, 1)
	n := tree[0]
	for n.EntryValue().ID != "d7636e6e" {
		require.Len(t, n.Children, 1)
		n = n.Children[0]
	}
	assert.Equal(t, "start", n.Label)
	require.Len(t, n.Children, 2)
	b, err := engine.MarshalJSON(n.Children[1])
	require.NoError(t, err)
	assert.Contains(t, string(b), `{"entry":{"type":"message","id":"`+side+`"`)

	fm := f.ForkMessages()
	require.Len(t, fm, 2)
	assert.Equal(t, ForkMessage{EntryID: "d7636e6e", Text: "Please run TOOL now"}, fm[0])

	_, _, err = f.Fork("48a79c40")
	assert.ErrorIs(t, err, ErrInvalidForkEntry)
	nf, text, err := f.Fork(side)
	require.NoError(t, err)
	assert.Equal(t, "side", text)
	assert.Equal(t, p, nf.Header().ParentSession)
	es := nf.Entries()
	assert.Equal(t, "d7636e6e", es[len(es)-2].ID, "path up to the parent, then the label")
	assert.Equal(t, engine.EntryLabel, es[len(es)-1].Type)
	assert.Equal(t, "d7636e6e", es[len(es)-1].TargetID)
	assert.Len(t, lines(t, nf.Path()), len(es)+1)
	require.NoError(t, nf.Close())

	c, err := f.Clone()
	require.NoError(t, err)
	assert.Equal(t, side, c.Entries()[len(c.Entries())-2].ID)
	require.NoError(t, c.Close())

	_, err = InMemory("/", "").Clone()
	assert.ErrorIs(t, err, ErrNoLeaf)
	unsaved, err := Create(t.TempDir(), "/", CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, unsaved.Append(&engine.Entry{Type: engine.EntryModelChange}))
	_, err = unsaved.Clone()
	assert.EqualError(t, err, "This session has not been saved yet. Send a message before cloning or forking it.")
}
