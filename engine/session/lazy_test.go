package session

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/require"
)

// writeTreeSession writes a session that uses every entry type the
// runtime reads: branches (entries parented to an earlier entry, not the
// previous one), compactions keeping a part of their branch, context
// edits that drop or replace a message, labels set and cleared, names,
// branch summaries, custom entries and messages, model and thinking
// changes, and messages of every role with long, escaped and non-ASCII
// text. A few lines are such that they must be decoded at once (extra
// keys, keys that only fold to known ones, duplicates, escaped keys, a
// null message) and a few are malformed or undecodable (skipped).
func writeTreeSession(w io.Writer, seed uint64, turns int) error {
	bw := bufio.NewWriter(w)
	r := rand.New(rand.NewPCG(seed, seed*7+1))
	var ids []string
	var msgIDs []string
	n := 0
	ts := func() string {
		n++
		return fmt.Sprintf("2026-11-29T10:%02d:%02d.%03dZ", n/3600%60, n/60%60, n%1000)
	}
	text := func(size int) string {
		var sb strings.Builder
		for sb.Len() < size {
			sb.WriteString(words[r.IntN(len(words))])
			sb.WriteByte(" \n\t"[r.IntN(3)])
		}
		return jsonString(sb.String())
	}
	parent := func() string {
		if len(ids) == 0 {
			return "null"
		}
		if r.IntN(8) == 0 { // a branch off an earlier entry
			return `"` + ids[r.IntN(len(ids))] + `"`
		}
		return `"` + ids[len(ids)-1] + `"`
	}
	head := func(typ string) string {
		id := fmt.Sprintf("e%05d", len(ids))
		h := fmt.Sprintf(`"type":"%s","id":"%s","parentId":%s,"timestamp":"%s"`, typ, id, parent(), ts())
		ids = append(ids, id)
		return h
	}
	put := func(s string) { bw.WriteString(s + "\n") }
	msg := func(body string) {
		put(`{` + head("message") + `,"message":` + body + `}`)
		msgIDs = append(msgIDs, ids[len(ids)-1])
	}
	put(`{"type":"session","version":3,"id":"0198d9b2-0000-7000-8000-000000000001","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/tmp"}`)
	put(`{` + head("model_change") + `,"provider":"mock","modelId":"m1"}`)
	put(`{` + head("thinking_level_change") + `,"thinkingLevel":"high"}`)
	usage := `"usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	for turn := 0; turn < turns; turn++ {
		msg(fmt.Sprintf(`{"role":"user","content":%s,"timestamp":%d}`, text(50+r.IntN(400)), 1700000000000+turn))
		msg(fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":%s},{"type":"image","data":"aGk=","mimeType":"image/png"}],"timestamp":%d}`, text(300), 1700000000000+turn))
		msg(fmt.Sprintf(`{"role":"assistant","content":[{"type":"thinking","thinking":%s},{"type":"text","text":%s},{"type":"toolCall","id":"c%d","name":"read","arguments":{"path":%s}}],"api":"openai-completions","provider":"mock","model":"m%d",`+usage+`,"stopReason":"toolUse","timestamp":%d}`,
			text(200), text(500+r.IntN(3000)), turn, text(300), r.IntN(3), 1700000000000+turn))
		msg(fmt.Sprintf(`{"role":"toolResult","toolCallId":"c%d","toolName":"read","content":[{"type":"text","text":%s}],"details":{"diff":%s},"isError":false,"timestamp":%d}`,
			turn, text(1000+r.IntN(20000)), text(400), 1700000000000+turn))
		switch turn % 11 {
		case 1:
			put(`{` + head("compaction") + fmt.Sprintf(`,"summary":%s,"firstKeptEntryId":"%s","tokensBefore":1234}`, text(600), ids[len(ids)-1-r.IntN(min(len(ids), 6))]))
		case 2:
			put(`{` + head("context_edit") + fmt.Sprintf(`,"targetId":"%s","replacement":null}`, msgIDs[len(msgIDs)-1-r.IntN(3)]))
		case 3:
			put(`{` + head("context_edit") + fmt.Sprintf(`,"targetId":"%s","replacement":{"content":"edited"}}`, msgIDs[len(msgIDs)-1-r.IntN(3)]))
		case 4:
			put(`{` + head("label") + fmt.Sprintf(`,"targetId":"%s","label":"mark %d"}`, ids[r.IntN(len(ids))], turn))
			put(`{` + head("session_info") + fmt.Sprintf(`,"name":"name %d"}`, turn))
		case 5:
			put(`{` + head("branch_summary") + fmt.Sprintf(`,"fromId":"%s","summary":%s}`, ids[r.IntN(len(ids))], text(300)))
			put(`{` + head("custom") + `,"customType":"ext","data":{"k":[1,2,3]}}`)
		case 6:
			put(`{` + head("custom_message") + fmt.Sprintf(`,"customType":"note","content":%s,"display":true}`, text(500)))
			put(`{` + head("model_change") + `,"provider":"mock","modelId":"m2"}`)
		case 7:
			// Lines the index cannot take: decoded at once, or skipped.
			msg(fmt.Sprintf(`{"role":"user","content":%s,"timestamp":1}`, text(300)) + `,"extra":{"kept":true}`)
			msg(fmt.Sprintf(`{"Role":"assistant","role":"user","content":%s,"timestamp":1}`, text(300)))
			msg(fmt.Sprintf(`{"role":"user","role":"assistant","provider":"mock","model":"m1","content":%s,"timestamp":1}`, text(300)))
			put(`{` + head("message") + `,"message":null}`)
			put(`{"t\u0079pe":"message",` + head("message")[len(`"type":"message",`):] + fmt.Sprintf(`,"message":{"role":"user","content":%s,"timestamp":1}}`, text(300)))
			put(`{` + head("message") + fmt.Sprintf(`,"message":{"role":"user","content":%s,"timestamp":1}`, text(300))) // torn
			put(`{` + head("message") + `,"message":{"role":5,"content":"x"}}`)
			put(`{` + head("message") + `,"message":{"role":"user","content":"tab	raw"}}`)
			put(`not json at all`)
		case 8:
			msg(fmt.Sprintf(`{"role":"bashExecution","command":"ls","output":%s,"exitCode":0,"cancelled":false,"truncated":false,"timestamp":1}`, text(2000)))
			msg(`{"role":"user","content":"surrogates \ud83d\ude00 \ud800 lone \u00e9 \u2028","timestamp":1}`)
			put(`{` + head("message") + `,"message":{"role":"user","content":"invalid utf-8 ` + "\xff\xfe" + `","timestamp":1}}` + "\r")
			msgIDs = append(msgIDs, ids[len(ids)-1])
		case 9:
			msg(fmt.Sprintf(`{"role":"hookMessage","customType":"old","content":%s,"display":false,"timestamp":1}`, text(200)))
			msg(fmt.Sprintf(`{"role":"assistant","content":[],"api":"x","provider":"p\u0041","model":"m\"q",`+usage+`,"stopReason":"error","errorMessage":%s,"timestamp":1}`, text(300)))
		}
	}
	return bw.Flush()
}

// openPair writes a tree session and opens two copies: decoded up front
// (the former resume) and with message bodies left on disk.
func openPair(t *testing.T, seed uint64, turns int) (eager, lazy *File) {
	t.Helper()
	dir := t.TempDir()
	var sb strings.Builder
	require.NoError(t, writeTreeSession(&sb, seed, turns))
	for _, name := range []string{"eager", "lazy"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, name), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name, "s.jsonl"), []byte(sb.String()), 0o644))
	}
	eager, err := openFile(filepath.Join(dir, "eager", "s.jsonl"), true)
	require.NoError(t, err)
	lazy, err = openFile(filepath.Join(dir, "lazy", "s.jsonl"), false)
	require.NoError(t, err)
	t.Cleanup(func() { eager.Close(); lazy.Close() })
	return eager, lazy
}

// requireSameValue is require.Equal with a short report: the values
// here are megabytes of text.
func requireSameValue(t *testing.T, want, got any, what string) {
	t.Helper()
	if reflect.DeepEqual(want, got) {
		return
	}
	w, g := fmt.Sprintf("%#v", want), fmt.Sprintf("%#v", got)
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(0, i-200)
	t.Fatalf("%s differs at byte %d:\nwant …%.400s\ngot  …%.400s", what, i, w[from:], g[from:])
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := engine.MarshalJSON(v)
	require.NoError(t, err)
	return string(b)
}

// requireSame checks that every reader of the session answers the same
// on both files, at the current leaf.
func requireSame(t *testing.T, eager, lazy *File) {
	t.Helper()
	// First from the index alone, before anything is decoded.
	runtime.GC()
	requireSameValue(t, engine.StateOfEntries(eager.Branch()), lazy.BranchState(), "branch state from the index")
	requireSameValue(t, eager.LeafID(), lazy.LeafID(), "eager.LeafID(), lazy.LeafID()")
	requireSameValue(t, eager.Entries(), lazy.Entries(), "eager.Entries(), lazy.Entries()")
	requireSameValue(t, eager.Branch(), lazy.Branch(), "eager.Branch(), lazy.Branch()")
	requireSameValue(t, eager.Context(), lazy.Context(), "eager.Context(), lazy.Context()")
	requireSameValue(t, engine.BuildContext(eager.Branch()), lazy.Context(), "the context of the whole branch")
	requireSameValue(t, engine.StateOfEntries(eager.Branch()), lazy.BranchState(), "engine.StateOfEntries(eager.Branch()), lazy.BranchState()")
	requireSameValue(t, engine.StateOfEntries(eager.Branch()), eager.BranchState(), "engine.StateOfEntries(eager.Branch()), eager.BranchState()")
	requireSameValue(t, jsonOf(t, eager.Tree()), jsonOf(t, lazy.Tree()), "jsonOf(t, eager.Tree()), jsonOf(t, lazy.Tree())")
	requireSameValue(t, eager.ForkMessages(), lazy.ForkMessages(), "eager.ForkMessages(), lazy.ForkMessages()")
	requireSameValue(t, eager.SessionName(), lazy.SessionName(), "eager.SessionName(), lazy.SessionName()")
	requireSameValue(t, eager.LabelOrder(), lazy.LabelOrder(), "eager.LabelOrder(), lazy.LabelOrder()")
	el, et := eager.Labels()
	ll, lt := lazy.Labels()
	requireSameValue(t, el, ll, "el, ll")
	requireSameValue(t, et, lt, "et, lt")
}

// TestLazyResumeMatchesEager checks that a session whose message bodies
// stay on disk answers every reader as the fully decoded one does:
// entries, branches at every leaf, the context (compactions and context
// edits applied), the branch state the runtime starts from, the tree,
// fork candidates, labels, names, the stored lines, and after the
// decoded entries were collected and read again.
func TestLazyResumeMatchesEager(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			eager, lazy := openPair(t, seed, 30)
			lazyCount := 0
			for _, r := range lazy.recs {
				if r.lazy != nil {
					lazyCount++
				}
			}
			require.Greater(t, lazyCount, len(lazy.recs)/2, "most records keep their body on disk")
			requireSame(t, eager, lazy)
			ids := make([]string, 0, len(eager.recs))
			for _, r := range eager.recs {
				ids = append(ids, r.id)
			}
			for i, id := range ids {
				e, ok := eager.Get(id)
				l, ok2 := lazy.Get(id)
				requireSameValue(t, ok, ok2, "ok, ok2")
				requireSameValue(t, e, l, "e, l")
				requireSameValue(t, string(eager.EntryJSON(id)), string(lazy.EntryJSON(id)), "string(eager.EntryJSON(id)), string(lazy.EntryJSON(id))")
				if i%13 == 0 {
					requireSameValue(t, eager.BranchFrom(id), lazy.BranchFrom(id), "eager.BranchFrom(id), lazy.BranchFrom(id)")
				}
				if i%17 == 0 {
					es, err := eager.EntriesSince(id)
					require.NoError(t, err)
					ls, err := lazy.EntriesSince(id)
					require.NoError(t, err)
					requireSameValue(t, es, ls, "es, ls")
				}
				if i%11 == 0 {
					require.NoError(t, eager.SetLeaf(id))
					require.NoError(t, lazy.SetLeaf(id))
					runtime.GC()
					requireSameValue(t, engine.StateOfEntries(eager.Branch()), lazy.BranchState(), "engine.StateOfEntries(eager.Branch()), lazy.BranchState()")
					runtime.GC()
					requireSameValue(t, engine.BuildContext(eager.Branch()), lazy.Context(), "context at the leaf")
				}
			}
			// Nothing holds the decoded entries now: they are read again.
			runtime.GC()
			runtime.GC()
			requireSame(t, eager, lazy)
		})
	}
}

// TestLazyIdentity checks that an entry in use is the same value on every
// read (the runtime compares message pointers), and that a message kept
// without its entry comes back inside an equal entry.
func TestLazyIdentity(t *testing.T) {
	t.Parallel()
	_, lazy := openPair(t, 9, 10)
	branch := lazy.Branch()
	again := lazy.Branch()
	for i := range branch {
		require.Same(t, branch[i], again[i])
	}
	var msgs []*engine.Message
	var want []string
	for _, e := range branch {
		if e.Type == engine.EntryMessage {
			msgs = append(msgs, e.Message)
			want = append(want, jsonOf(t, e))
		}
	}
	branch, again = nil, nil
	runtime.GC()
	runtime.GC()
	k := 0
	for _, e := range lazy.Branch() {
		if e.Type == engine.EntryMessage {
			require.Same(t, msgs[k], e.Message)
			requireSameValue(t, want[k], jsonOf(t, e), "want[k], jsonOf(t, e)")
			k++
		}
	}
	requireSameValue(t, len(msgs), k, "len(msgs), k")
}

// TestLazyAppendAndReopen checks that bodies on disk are still read right
// after the file grew, that copies (clone, fork) hold the same entries
// as copies of the decoded session, and that the file written by a
// resumed session reopens to what it showed.
func TestLazyAppendAndReopen(t *testing.T) {
	t.Parallel()
	eager, lazy := openPair(t, 5, 30)
	for _, f := range []*File{eager, lazy} {
		require.NoError(t, f.Append(userMsg("after resume "+strings.Repeat("é", 500))))
		require.NoError(t, f.AppendSessionInfo("renamed"))
	}
	runtime.GC()
	// The new entries have fresh ids; compare everything but them.
	strip := func(es []*engine.Entry) []string {
		var out []string
		for _, e := range es {
			c := *e
			c.ID, c.ParentID, c.Timestamp = "", nil, ""
			out = append(out, jsonOf(t, &c))
		}
		return out
	}
	requireSameValue(t, strip(eager.Entries()), strip(lazy.Entries()), "strip(eager.Entries()), strip(lazy.Entries())")
	requireSameValue(t, eager.Context(), lazy.Context(), "eager.Context(), lazy.Context()")

	want := lazy.Entries()
	_, reread, err := Load(lazy.Path())
	require.NoError(t, err)
	requireSameValue(t, want, reread, "entries read again")

	for _, pick := range []func(f *File) (*File, error){
		func(f *File) (*File, error) { return f.Clone() },
		func(f *File) (*File, error) {
			for _, m := range f.ForkMessages()[3:] {
				nf, _, err := f.Fork(m.EntryID)
				return nf, err
			}
			return nil, fmt.Errorf("no fork candidate")
		},
	} {
		ec, err := pick(eager)
		require.NoError(t, err)
		lc, err := pick(lazy)
		require.NoError(t, err)
		requireSameValue(t, strip(ec.Entries()), strip(lc.Entries()), "strip(ec.Entries()), strip(lc.Entries())")
		requireSameValue(t, ec.Context(), lc.Context(), "ec.Context(), lc.Context()")
		ec.Close()
		lc.Close()
	}
}

// TestLazyRuntimeMatchesEager starts the runtime over both stores: the
// state a resumed session reports (get_state) and its transcript
// (get_messages, read from disk on first use) are the same.
func TestLazyRuntimeMatchesEager(t *testing.T) {
	t.Parallel()
	eager, lazy := openPair(t, 11, 40)
	es, err := engine.NewSession(engine.SessionOptions{Store: eager})
	require.NoError(t, err)
	ls, err := engine.NewSession(engine.SessionOptions{Store: lazy})
	require.NoError(t, err)
	est, lst := es.State(), ls.State()
	est.SessionFile, lst.SessionFile = "", ""
	requireSameValue(t, est, lst, "est, lst")
	require.NotZero(t, lst.MessageCount)
	requireSameValue(t, jsonOf(t, es.Messages()), jsonOf(t, ls.Messages()), "jsonOf(t, es.Messages()), jsonOf(t, ls.Messages())")
	require.Len(t, ls.Messages(), lst.MessageCount)
	requireSameValue(t, est, func() engine.SessionState { s := ls.State(); s.SessionFile = ""; return s }(), "est, func() engine.SessionState { s := ls.State(); s.SessionFile = \"\"; return s }()")
}

// TestLazyFileChangedBehindOurBack checks that a body whose line is no
// longer where the index says (the file was rewritten by something that
// ignored the lock) gives the entry as far as the index knows it instead
// of another line's content, and is read again next time.
func TestLazyFileChangedBehindOurBack(t *testing.T) {
	t.Parallel()
	_, lazy := openPair(t, 3, 5)
	var r *record
	for _, x := range lazy.recs {
		if x.lazy != nil && x.lazy.role == engine.RoleAssistant {
			r = x
			break
		}
	}
	require.NotNil(t, r)
	data, err := os.ReadFile(lazy.Path())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(lazy.Path(), []byte(strings.Repeat(" ", 100)+string(data)), 0o644))
	e, ok := lazy.Get(r.id)
	require.True(t, ok)
	requireSameValue(t, r.id, e.ID, "r.id, e.ID")
	requireSameValue(t, engine.RoleAssistant, e.Message.Role, "engine.RoleAssistant, e.Message.Role")
	requireSameValue(t, r.lazy.model, e.Message.Model, "r.lazy.model, e.Message.Model")
	require.Nil(t, r.cached())
	require.True(t, json.Valid(lazy.EntryJSON(r.id)))
}

// TestListReadsIndexOnly checks that the picker's listing of a session,
// read from its index and the few user messages it decodes, is what the
// decoded entries give: name, message count, first user text (the first
// user messages of the tree session are empty).
func TestListReadsIndexOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString(`{"type":"session","version":3,"id":"0198d9b2-0000-7000-8000-000000000002","timestamp":"2026-11-29T09:00:00.000Z","cwd":"/tmp"}` + "\n")
	sb.WriteString(`{"type":"message","id":"u0","parentId":null,"timestamp":"2026-11-29T09:00:00.001Z","message":{"role":"user","content":[],"timestamp":1}}` + "\n")
	var tree strings.Builder
	require.NoError(t, writeTreeSession(&tree, 2, 20))
	sb.WriteString(tree.String()[strings.IndexByte(tree.String(), '\n')+1:])
	path := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(sb.String()), 0o644))
	list, err := ListAll(t.TempDir(), dir)
	require.NoError(t, err)
	require.Len(t, list, 1)
	_, entries, err := Load(path)
	require.NoError(t, err)
	var name, first string
	count := 0
	for _, e := range entries {
		switch e.Type {
		case engine.EntrySessionInfo:
			name = *e.Name
		case engine.EntryMessage:
			count++
			if first == "" && e.Message != nil && e.Message.Role == engine.RoleUser {
				first = e.Message.Content.Text()
			}
		}
	}
	require.NotEmpty(t, first)
	require.Equal(t, name, list[0].Name)
	require.Equal(t, count, list[0].MessageCount)
	require.Equal(t, first, list[0].FirstMessage)
}

// TestBranchedSessionStreams checks copies of a resumed session (clone and
// fork at many entries, and --fork's ForkFrom): the new file reads back as
// the copy shows it, its context is the source branch's, its message
// records keep their bodies on disk, labels on the path are re-created
// after it, and every kept entry is the source's with its parent
// re-chained past the dropped labels.
func TestBranchedSessionStreams(t *testing.T) {
	t.Parallel()
	_, lazy := openPair(t, 7, 30)
	copies := 0
	for i, r := range lazy.recs {
		if i%9 != 0 || r.typ == engine.EntryLabel {
			continue
		}
		nf, err := lazy.BranchedSession(r.id)
		require.NoError(t, err)
		if !nf.Flushed() {
			nf.Close()
			continue
		}
		copies++
		for _, nr := range nf.recs {
			require.Nil(t, nr.raw, "no line held in memory")
		}
		requireSameValue(t, engine.BuildContext(lazy.BranchFrom(r.id)), nf.Context(), "context of the copy")
		_, reread, err := Load(nf.Path())
		require.NoError(t, err)
		got := nf.Entries()
		requireSameValue(t, reread, got, "copy read back")
		var want []*engine.Entry
		var parent *string
		for _, e := range lazy.BranchFrom(r.id) {
			if e.Type == engine.EntryLabel {
				continue
			}
			c := *e
			c.ParentID = parent
			id := c.ID
			parent = &id
			want = append(want, &c)
		}
		require.GreaterOrEqual(t, len(got), len(want))
		for k, w := range want {
			g := got[k]
			if w.Type == engine.EntryCompaction {
				w.FirstKeptEntryID = g.FirstKeptEntryID
			}
			requireSameValue(t, jsonOf(t, w), jsonOf(t, g), "kept entry")
		}
		for _, g := range got[len(want):] {
			require.Equal(t, engine.EntryLabel, g.Type)
			l, ok := lazy.Label(g.TargetID)
			require.True(t, ok)
			require.Equal(t, l, *g.Label)
		}
		nf.Close()
	}
	require.Greater(t, copies, 10)

	fk, err := ForkFrom(lazy.Path(), "/tmp", t.TempDir(), "")
	require.NoError(t, err)
	defer fk.Close()
	requireSameValue(t, lazy.Entries(), fk.Entries(), "--fork copies every entry")
	_, reread, err := Load(fk.Path())
	require.NoError(t, err)
	requireSameValue(t, lazy.Entries(), reread, "--fork copy read back")
}

// TestContextLeavesCompactedOnDisk checks that the context of a branch
// with a compaction decodes only what the context holds: the messages the
// compaction summarised stay on disk.
func TestContextLeavesCompactedOnDisk(t *testing.T) {
	t.Parallel()
	var sb strings.Builder
	sb.WriteString(`{"type":"session","version":3,"id":"0198d9b2-0000-7000-8000-000000000003","timestamp":"2026-11-29T09:00:00.000Z","cwd":"/tmp"}` + "\n")
	parent := "null"
	for i := 0; i < 50; i++ {
		if i == 45 {
			fmt.Fprintf(&sb, `{"type":"compaction","id":"c","parentId":%s,"timestamp":"2026-11-29T09:00:01.000Z","summary":"s","firstKeptEntryId":"m40","tokensBefore":9}`+"\n", parent)
			parent = `"c"`
		}
		fmt.Fprintf(&sb, `{"type":"message","id":"m%d","parentId":%s,"timestamp":"2026-11-29T09:00:02.000Z","message":{"role":"user","content":"text %d","timestamp":1}}`+"\n", i, parent, i)
		parent = fmt.Sprintf(`"m%d"`, i)
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(sb.String()), 0o644))
	lazy, err := Open(path)
	require.NoError(t, err)
	defer lazy.Close()
	sc := lazy.Context()
	// The summary, m40..m44 kept, then m45..m49.
	require.Len(t, sc.Messages, 11)
	_, entries, err := Load(path)
	require.NoError(t, err)
	requireSameValue(t, engine.BuildContext(entries), sc, "context")
	for _, r := range lazy.recs {
		var n int
		if _, err := fmt.Sscanf(r.id, "m%d", &n); err == nil && n < 40 {
			require.Nil(t, r.cached(), "%s, summarised, was decoded", r.id)
		}
	}
	runtime.KeepAlive(sc)
}
