package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyFixture copies testdata/name into a fresh temp dir.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, data, 0o644))
	return p
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, len(data) == 0 || data[len(data)-1] == '\n', "file must end with a newline")
	out := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, l := range out {
		require.True(t, json.Valid([]byte(l)), "line %d is not JSON: %q", i+1, l)
	}
	return out
}

func userMsg(text string) *engine.Entry {
	return &engine.Entry{Type: engine.EntryMessage, Message: &engine.Message{
		Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent(text)), Timestamp: 1}}
}

func TestOpenReferenceFileRoundTrips(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "transcript_b.jsonl")
	orig, err := os.ReadFile(p)
	require.NoError(t, err)
	f, err := Open(p)
	require.NoError(t, err)
	defer f.Close()

	want := strings.Split(strings.TrimSuffix(string(orig), "\n"), "\n")
	hb, err := engine.MarshalJSON(f.Header())
	require.NoError(t, err)
	assert.Equal(t, want[0], string(hb))
	entries := f.Entries()
	require.Len(t, entries, len(want)-1)
	for i, e := range entries {
		b, err := engine.MarshalJSON(e)
		require.NoError(t, err)
		assert.Equal(t, want[i+1], string(b), "entry %d", i)
		assert.Equal(t, want[i+1], string(f.EntryJSON(e.ID)))
	}
	assert.Equal(t, "48a79c40", f.LeafID())
	assert.Equal(t, "/home/user/proj", f.Cwd())

	after, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, string(orig), string(after), "opening must not rewrite a v3 file")

	ctx := f.Context()
	require.Len(t, ctx.Messages, 5)
	assert.Equal(t, engine.ThinkingOff, ctx.ThinkingLevel)
	require.NotNil(t, ctx.Model)
	assert.Equal(t, engine.ContextModel{Provider: "mock", ModelID: "mock-model"}, *ctx.Model)
}

func TestMigrateV1(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "v1.jsonl")
	f, err := Open(p)
	require.NoError(t, err)
	defer f.Close()

	ls := lines(t, p)
	require.Len(t, ls, 5, "malformed line dropped")
	assert.Equal(t, `{"type":"session","id":"legacy-1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/tmp","version":3}`, ls[0])
	es := f.Entries()
	require.Len(t, es, 4)
	assert.Nil(t, es[0].ParentID)
	for i := 1; i < len(es); i++ {
		require.NotNil(t, es[i].ParentID)
		assert.Equal(t, es[i-1].ID, *es[i].ParentID, "linear chain")
	}
	// New keys are appended after the existing ones.
	assert.True(t, strings.HasPrefix(ls[1], `{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{`), ls[1])
	assert.True(t, strings.HasSuffix(ls[1], fmt.Sprintf(`,"id":%q,"parentId":null}`, es[0].ID)), ls[1])
	assert.Equal(t, engine.RoleCustom, es[2].Message.Role)
	assert.Contains(t, ls[3], `"role":"custom"`)
	// firstKeptEntryIndex 2 pointed at the second entry (index 0 is the header).
	assert.Equal(t, es[1].ID, es[3].FirstKeptEntryID)
	assert.NotContains(t, ls[4], "firstKeptEntryIndex")

	ctx := f.Context()
	llm := engine.ConvertToLLM(ctx.Messages)
	require.Len(t, llm, 3)
	assert.Equal(t, engine.CompactionSummaryPrefix+"earlier talk"+engine.CompactionSummarySuffix, llm[0].Content.Text())
	assert.Equal(t, "old reply", llm[1].Content.Text())
	assert.Equal(t, "hooked", llm[2].Content.Text())
	assert.Equal(t, engine.RoleUser, llm[2].Role)

	// Appends after a migration go to the rewritten file.
	require.NoError(t, f.Append(userMsg("new")))
	assert.Len(t, lines(t, p), 6)
}

func TestMigrateV2(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "v2.jsonl")
	f, err := Open(p)
	require.NoError(t, err)
	defer f.Close()
	ls := lines(t, p)
	require.Len(t, ls, 3)
	assert.Equal(t, `{"type":"session","version":3,"id":"legacy-2","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/tmp"}`, ls[0])
	assert.Equal(t, `{"type":"message","id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"custom","customType":"ext","content":"hooked","display":false,"timestamp":1735689602000}}`, ls[2])
}

func TestLazyPersistence(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "sessions")
	f, err := Create(dir, "/work/x", CreateOptions{})
	require.NoError(t, err)
	defer f.Close()
	require.DirExists(t, dir, "the session dir is created eagerly")
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$`, filepath.Base(f.Path()))

	require.NoError(t, f.Append(&engine.Entry{Type: engine.EntryModelChange, Provider: "mock", ModelID: "m"}))
	require.NoError(t, f.Append(&engine.Entry{Type: engine.EntryThinkingLevelChange, ThinkingLevel: "off"}))
	assert.NoFileExists(t, f.Path())
	assert.False(t, f.Flushed())

	require.NoError(t, f.Append(userMsg("hi")))
	ls := lines(t, f.Path())
	require.Len(t, ls, 4)
	assert.Equal(t, `{"type":"session","version":3,"id":"`+f.Header().ID+`","timestamp":"`+f.Header().Timestamp+`","cwd":"/work/x"}`, ls[0])
	es := f.Entries()
	assert.Regexp(t, `^[0-9a-f]{8}$`, es[0].ID)
	assert.Nil(t, es[0].ParentID)
	assert.Equal(t, es[0].ID, *es[1].ParentID)

	require.NoError(t, f.Append(userMsg("again")))
	assert.Len(t, lines(t, f.Path()), 5)
}

func TestInMemoryNeverWrites(t *testing.T) {
	t.Parallel()
	f := InMemory("/tmp", "fixed-id")
	require.NoError(t, f.Append(userMsg("hi")))
	assert.Equal(t, "", f.Path())
	assert.Equal(t, "fixed-id", f.Header().ID)
	assert.Len(t, f.Entries(), 1)
	require.NoError(t, f.Close())
}

func TestLockContention(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "transcript_b.jsonl")
	a, err := Open(p)
	require.NoError(t, err)
	_, err = Open(p)
	require.ErrorIs(t, err, ErrLocked)
	assert.Equal(t, fmt.Sprintf("session file is in use by another pi process (pid %d): %s", os.Getpid(), p), err.Error())
	require.NoError(t, a.Close())
	b, err := Open(p)
	require.NoError(t, err, "the lock is released on Close")
	require.NoError(t, b.Close())
}

// TestHelperHoldLock is the child side of TestLockAcrossProcesses.
func TestHelperHoldLock(t *testing.T) {
	p := os.Getenv("PI_SESSION_LOCK_HELPER")
	if p == "" {
		t.Skip("helper process only")
	}
	f, err := Open(p)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	_ = f.Append(userMsg("from child"))
	fmt.Println("locked")
	select {} // hold the lock until killed
}

func TestLockAcrossProcesses(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "transcript_b.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldLock$")
	cmd.Env = append(os.Environ(), "PI_SESSION_LOCK_HELPER="+p)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "locked\n", line)

	_, err = Open(p)
	require.ErrorIs(t, err, ErrLocked)
	assert.Contains(t, err.Error(), fmt.Sprintf("(pid %d)", cmd.Process.Pid))

	// A SIGKILLed holder leaves no stale lock, and its completed entry survives.
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	f, err := Open(p)
	require.NoError(t, err)
	defer f.Close()
	es := f.Entries()
	assert.Equal(t, "from child", es[len(es)-1].Message.Content.Text())
}

func TestTornTail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		tail      string
		wantLines int // after reopening and one append
	}{
		{"fragment without newline", `{"type":"message","id":"deadbeef","parentId":"48a79c40","timestamp":"2026-11-29T18:12`, 9},
		{"garbage without newline", "\x00\x00garbage", 9},
		{"complete record without newline", `{"type":"label","id":"0badf00d","parentId":"48a79c40","timestamp":"2026-11-29T18:13:00.000Z","targetId":"d7636e6e","label":"x"}`, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := copyFixture(t, "transcript_b.jsonl")
			fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = fh.WriteString(tt.tail)
			require.NoError(t, err)
			require.NoError(t, fh.Close())

			f, err := Open(p)
			require.NoError(t, err)
			require.NoError(t, f.Append(userMsg("after crash")))
			require.NoError(t, f.Close())
			ls := lines(t, p)
			assert.Len(t, ls, tt.wantLines)
			assert.Contains(t, ls[len(ls)-1], "after crash")

			g, err := Open(p)
			require.NoError(t, err)
			defer g.Close()
			assert.Len(t, g.Entries(), tt.wantLines-1)
		})
	}
}

func TestNotASession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "x.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"hello":1}`+"\n"), 0o644))
	_, err := Open(p)
	require.ErrorIs(t, err, ErrNotSession)
	assert.Equal(t, "Session file is not a valid pi session: "+p, err.Error())
	data, _ := os.ReadFile(p)
	assert.Equal(t, `{"hello":1}`+"\n", string(data), "left untouched")

	empty := filepath.Join(dir, "empty.jsonl")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	f, err := Open(empty)
	require.NoError(t, err)
	defer f.Close()
	assert.Len(t, lines(t, empty), 1, "an empty file gets a header")
}

func TestSessionIDs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		id string
		ok bool
	}{{"abc", true}, {"my-custom.id_1", true}, {"a", true}, {"-bad", false}, {"bad.", false}, {"", false}, {"a b", false}} {
		err := ValidateSessionID(tt.id)
		assert.Equal(t, tt.ok, err == nil, tt.id)
	}
	_, err := Create(t.TempDir(), "/", CreateOptions{ID: "-bad"})
	assert.Equal(t, "Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character", err.Error())
	assert.Equal(t, "/a/sessions/--home-user-proj--", AgentSessionsDir("/a", "/home/user/proj"))
	assert.Equal(t, "2026-11-29T18-12-20-322Z_x.jsonl", FileName("2026-11-29T18:12:20.322Z", "x"))
}

func TestAppendAfterClose(t *testing.T) {
	t.Parallel()
	f := InMemory("/", "")
	require.NoError(t, f.Close())
	assert.Error(t, f.Append(userMsg("x")))
}

var _ = bytes.Equal
var _ = errors.Is
