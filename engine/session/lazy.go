package session

import (
	"encoding/json"
	"os"
	"runtime"
	"sync"
	"weak"

	"github.com/pi-go/pi/engine"
)

// record is one entry of the session. Most records hold their decoded
// entry (e). A message entry read from the file on resume holds only its
// index (see msgMeta): its body stays on disk, is decoded when something
// asks for the entry (a model call building the context, get_messages, an
// export), and is cached weakly, so it stays in memory exactly as long as
// someone uses it. A resumed 200 MB session is then an index of a few MB
// until its context is needed.
//
// raw is the exact line the record was written as, when it is in memory;
// a record read from the file does not hold it: its line is the n bytes
// at off, read again when needed (rawLocked), so that copies (--fork) and
// wire dumps keep fields our types do not know.
type record struct {
	id     string
	parent *string
	typ    string
	ts     string

	e    *engine.Entry
	lazy *lazyBody

	raw []byte
	off int64
	n   int
}

// lazyBody is the part of a record whose message is on disk.
type lazyBody struct {
	role, provider, model string
	// ent and msg are the decoded entry and its message while something
	// holds them. A message outlives its entry when the runtime keeps
	// the transcript: the entry is rebuilt around it (a lazy line has no
	// field besides the five an entry is rebuilt from).
	ent weak.Pointer[engine.Entry]
	msg weak.Pointer[engine.Message]
}

// entryRecord is a record for a decoded entry.
func entryRecord(e *engine.Entry, raw []byte) *record {
	return &record{id: e.ID, parent: e.ParentID, typ: e.Type, ts: e.Timestamp, e: e, raw: raw}
}

// lazyRecord is a record for a message line left in the file.
func lazyRecord(m msgMeta, off int64, n int) *record {
	return &record{id: m.id, parent: m.parent, typ: engine.EntryMessage, ts: m.ts,
		lazy: &lazyBody{role: internRole(m.role), provider: m.provider, model: m.model}, off: off, n: n}
}

// internRole shares the strings of the usual roles instead of keeping a
// copy per record.
func internRole(r string) string {
	for _, k := range [...]string{engine.RoleUser, engine.RoleAssistant, engine.RoleToolResult, engine.RoleCustom,
		engine.RoleBashExecution, engine.RoleSystem} {
		if r == k {
			return k
		}
	}
	return r
}

// role is the role of a message record ("" for other entries).
func (r *record) role() string {
	if r.lazy != nil {
		return r.lazy.role
	}
	if r.e.Type == engine.EntryMessage && r.e.Message != nil {
		return r.e.Message.Role
	}
	return ""
}

// cached returns the decoded entry when it is in memory.
func (r *record) cached() *engine.Entry {
	if r.e != nil {
		return r.e
	}
	if e := r.lazy.ent.Value(); e != nil {
		return e
	}
	if m := r.lazy.msg.Value(); m != nil {
		e := &engine.Entry{Type: engine.EntryMessage, ID: r.id, ParentID: r.parent, Timestamp: r.ts, Message: m}
		r.lazy.ent = weak.Make(e)
		return e
	}
	return nil
}

// light is the entry as far as the index knows it: the entry itself when
// decoded, else a message with only its role, provider and model. It is
// for engine.StateOfEntries and must not leave the package.
func (r *record) light() *engine.Entry {
	if e := r.cached(); e != nil {
		return e
	}
	return &engine.Entry{Type: engine.EntryMessage, ID: r.id, ParentID: r.parent, Timestamp: r.ts,
		Message: &engine.Message{Role: r.lazy.role, Provider: r.lazy.provider, Model: r.lazy.model}}
}

// decoded takes the result of decoding r's line: the entry when it is
// still the line that was indexed, else (the file changed behind the
// lock) the entry as the index knows it, not cached, so the next call
// reads the file again.
func (r *record) decoded(e *engine.Entry, err error) *engine.Entry {
	if err != nil || e.ID != r.id || e.Type != engine.EntryMessage || e.Message == nil {
		return r.light()
	}
	r.lazy.msg = weak.Make(e.Message)
	r.lazy.ent = weak.Make(e)
	return e
}

// readLineLocked reads the n bytes at off: through the session's
// descriptor while it is open, else from the path.
func (f *File) readLineLocked(off int64, n int) ([]byte, error) {
	buf := make([]byte, n)
	if f.fd != nil {
		if _, err := f.fd.ReadAt(buf, off); err != nil {
			return nil, err
		}
		return buf, nil
	}
	fd, err := os.Open(f.path)
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	if _, err := fd.ReadAt(buf, off); err != nil {
		return nil, err
	}
	return buf, nil
}

// entryLocked returns r's decoded entry, reading it from the file when it
// is not in memory.
func (f *File) entryLocked(r *record) *engine.Entry {
	if e := r.cached(); e != nil {
		return e
	}
	line, err := f.readLineLocked(r.off, r.n)
	if err != nil {
		return r.decoded(nil, err)
	}
	return r.decoded(decodeEntry(line))
}

// parallelFrom is how many entries to decode from which entriesLocked
// spreads the work over every processor.
const parallelFrom = 64

// entriesLocked returns the decoded entries of recs, in order. Entries
// that are on disk are read and decoded on every processor: the first
// model call after resuming a large session decodes its whole context.
func (f *File) entriesLocked(recs []*record) []*engine.Entry {
	out := make([]*engine.Entry, len(recs))
	var todo []int
	for i, r := range recs {
		if e := r.cached(); e != nil {
			out[i] = e
		} else {
			todo = append(todo, i)
		}
	}
	if len(todo) < parallelFrom {
		for _, i := range todo {
			out[i] = f.entryLocked(recs[i])
		}
		return out
	}
	// Workers only read the file and decode; the records are updated
	// here, in order, under f.mu.
	type result struct {
		e   *engine.Entry
		err error
	}
	res := make([]result, len(todo))
	workers := min(runtime.GOMAXPROCS(0), len(todo)/8+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < len(todo); k += workers {
				r := recs[todo[k]]
				line, err := f.readLineLocked(r.off, r.n)
				if err != nil {
					res[k].err = err
					continue
				}
				res[k].e, res[k].err = decodeEntry(line)
			}
		}()
	}
	wg.Wait()
	for k, i := range todo {
		out[i] = recs[i].decoded(res[k].e, res[k].err)
	}
	return out
}

// BranchState describes the current branch from the index: the model and
// thinking level at the leaf, the messages its context holds and its
// name, without reading a message body from the file. The runtime starts
// from it, so resuming a session reads no message until one is needed.
func (f *File) BranchState() engine.BranchState {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.state != nil && f.stateLeaf == f.leaf && f.stateLen == len(f.recs) {
		return *f.state
	}
	light := lightEntries(f.pathRecsLocked(f.leaf))
	st := engine.StateOfEntries(light)
	f.state, f.stateLeaf, f.stateLen = &st, f.leaf, len(f.recs)
	return st
}

var _ engine.BranchStater = (*File)(nil)

// lightEntries returns the entries of recs as far as the index knows them
// (see record.light), for engine.StateOfEntries and BuildContext, which
// read nothing of a message but its role, provider and model. The entries
// that stand in for messages on disk take one allocation for all, and
// share one message per role, provider and model, since a 700-byte message
// per record was the largest allocation of a resume.
func lightEntries(recs []*record) []*engine.Entry {
	light := make([]*engine.Entry, len(recs))
	var slab []engine.Entry
	msgs := map[[3]string]*engine.Message{}
	for i, r := range recs {
		if e := r.cached(); e != nil {
			light[i] = e
			continue
		}
		if slab == nil {
			slab = make([]engine.Entry, 0, len(recs)-i)
		}
		k := [3]string{r.lazy.role, r.lazy.provider, r.lazy.model}
		m := msgs[k]
		if m == nil {
			m = &engine.Message{Role: k[0], Provider: k[1], Model: k[2]}
			msgs[k] = m
		}
		slab = append(slab, engine.Entry{Type: engine.EntryMessage, ID: r.id, ParentID: r.parent, Timestamp: r.ts, Message: m})
		light[i] = &slab[len(slab)-1]
	}
	return light
}

// Context builds the LLM context of the current branch, decoding only the
// entries it holds: after a compaction, the entries it summarised stay on
// disk (what they tell of the model and thinking level is in the index).
func (f *File) Context() engine.SessionContext {
	f.mu.Lock()
	defer f.mu.Unlock()
	recs := f.pathRecsLocked(f.leaf)
	last := -1
	for i, r := range recs {
		if r.typ == engine.EntryCompaction && r.e != nil {
			last = i
		}
	}
	if last < 0 {
		return engine.BuildContext(f.entriesLocked(recs))
	}
	// engine.ContextEntries keeps the entries from the first one with the
	// compaction's firstKeptEntryId, or none before the compaction.
	kept := last
	for i, r := range recs[:last] {
		if r.id == recs[last].e.FirstKeptEntryID {
			kept = i
			break
		}
	}
	branch := append(lightEntries(recs[:kept]), f.entriesLocked(recs[kept:])...)
	return engine.BuildContext(branch)
}

// rawLocked returns the record's line, reading it from the file when only
// its place is known. Should the file no longer hold it (changed behind
// our back), the entry is encoded afresh. A message line is checked with
// the index's scan (it must still be the entry indexed), twice as fast
// as json.Valid on the bulk of a session.
func (f *File) rawLocked(r *record) []byte {
	if r.raw != nil || r.n == 0 {
		return r.raw
	}
	buf, err := f.readLineLocked(r.off, r.n)
	if err == nil {
		if r.lazy != nil {
			if m, ok := scanMessageLine(buf); ok && m.id == r.id {
				return buf
			}
		} else if json.Valid(buf) {
			return buf
		}
	}
	b, merr := engine.MarshalJSON(f.entryLocked(r))
	if merr != nil {
		return nil
	}
	return b
}
