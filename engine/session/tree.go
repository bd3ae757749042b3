package session

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/pi-go/pi/engine"
)

// Errors whose text clients match on (RPC fork, clone and get_entries).
var (
	ErrInvalidForkEntry = errors.New("Invalid entry ID for forking")
	ErrNotSaved         = errors.New("This session has not been saved yet. Send a message before cloning or forking it.")
	ErrNoLeaf           = errors.New("Cannot clone session: no current entry selected")
)

// Entries returns every entry in file order.
func (f *File) Entries() []*engine.Entry {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.entriesLocked(f.recs)
}

// EntryJSON returns the stored line of the entry with that id (nil when
// unknown). Wire dumps use it so fields our types drop survive.
func (f *File) EntryJSON(id string) json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.byID[id]; ok {
		return f.rawLocked(r)
	}
	return nil
}

// EntriesSince returns the entries strictly after id in file order; id ""
// returns all. An unknown id fails with "Entry not found: <id>".
func (f *File) EntriesSince(id string) ([]*engine.Entry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id == "" {
		return f.entriesLocked(f.recs), nil
	}
	for i, r := range f.recs {
		if r.id == id {
			return f.entriesLocked(f.recs[i+1:]), nil
		}
	}
	return nil, fmt.Errorf("Entry not found: %s", id)
}

// Branch returns the entries from the root to the current leaf.
func (f *File) Branch() []*engine.Entry {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pathLocked(f.leaf)
}

// BranchFrom returns the entries from the root to id.
func (f *File) BranchFrom(id string) []*engine.Entry {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pathLocked(id)
}

func (f *File) pathLocked(id string) []*engine.Entry {
	return f.entriesLocked(f.pathRecsLocked(id))
}

// pathRecsLocked returns the records from the root to id.
func (f *File) pathRecsLocked(id string) []*record {
	var path []*record
	seen := map[*record]bool{}
	for r, ok := f.byID[id]; ok && !seen[r]; {
		seen[r] = true
		path = append(path, r)
		if r.parent == nil {
			break
		}
		r, ok = f.byID[*r.parent]
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// LeafID returns the current leaf, "" when there is none.
func (f *File) LeafID() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.leaf
}

// SetLeaf moves the leaf to an existing entry; "" resets it so the next
// entry becomes a new root.
func (f *File) SetLeaf(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id != "" && !f.taken(id) {
		return fmt.Errorf("Entry %s not found", id)
	}
	f.leaf = id
	return nil
}

// Get returns the entry with that id.
func (f *File) Get(id string) (*engine.Entry, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.byID[id]
	if !ok {
		return nil, false
	}
	return f.entryLocked(r), true
}

// BranchWithSummary moves the leaf to fromID ("" = before the root) and
// appends a branch_summary entry there whose fromId is the old leaf (or
// "root"). e carries the summary, details, usage and fromHook.
func (f *File) BranchWithSummary(fromID string, e *engine.Entry) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fromID != "" && !f.taken(fromID) {
		return fmt.Errorf("Entry %s not found", fromID)
	}
	e.Type = engine.EntryBranchSummary
	e.FromID = f.leaf
	if e.FromID == "" {
		e.FromID = "root"
	}
	var parent *string
	if fromID != "" {
		parent = &fromID
	}
	return f.appendLocked(e, parent)
}

// AppendLabel sets (or with "" clears) the label of an entry.
func (f *File) AppendLabel(targetID, label string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.taken(targetID) {
		return fmt.Errorf("Entry %s not found", targetID)
	}
	e := &engine.Entry{Type: engine.EntryLabel, TargetID: targetID}
	if label != "" {
		e.Label = &label
	}
	var parent *string
	if f.leaf != "" {
		p := f.leaf
		parent = &p
	}
	return f.appendLocked(e, parent)
}

// Label returns the current label of an entry.
func (f *File) Label(id string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	l, ok := f.labels[id]
	return l.label, ok
}

// AppendSessionInfo records the session's display name: runs of CR/LF
// become one space and the result is trimmed; "" clears the name.
func (f *File) AppendSessionInfo(name string) error {
	name = SanitizeName(name)
	return f.Append(&engine.Entry{Type: engine.EntrySessionInfo, Name: &name})
}

// SanitizeName applies the reference's session-name cleanup.
func SanitizeName(name string) string { return engine.SanitizeSessionName(name) }

// SessionName returns the latest session_info name, "" when unnamed.
func (f *File) SessionName() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.recs) - 1; i >= 0; i-- {
		if e := f.recs[i].e; e != nil && e.Type == engine.EntrySessionInfo {
			if e.Name == nil {
				return ""
			}
			return strings.TrimSpace(*e.Name)
		}
	}
	return ""
}

// ForkMessage is one candidate of get_fork_messages.
type ForkMessage struct {
	EntryID string `json:"entryId"`
	Text    string `json:"text"`
}

// ForkMessages lists every user message entry (all branches, file order)
// with non-empty text.
func (f *File) ForkMessages() []ForkMessage {
	f.mu.Lock()
	var users []*record
	for _, r := range f.recs {
		if r.role() == engine.RoleUser {
			users = append(users, r)
		}
	}
	entries := f.entriesLocked(users)
	f.mu.Unlock()
	out := []ForkMessage{}
	for _, e := range entries {
		if e.Type != engine.EntryMessage || e.Message == nil || e.Message.Role != engine.RoleUser {
			continue
		}
		if t := userText(e.Message); t != "" {
			out = append(out, ForkMessage{EntryID: e.ID, Text: t})
		}
	}
	return out
}

// userText joins the text blocks of a user message.
func userText(m *engine.Message) string {
	if m.Content.IsString {
		return m.Content.Text()
	}
	var parts []string
	for _, c := range m.Content.Blocks {
		if c.Type == engine.ContentText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "")
}

// TreeNode is one node of get_tree.
type TreeNode struct {
	Entry          json.RawMessage `json:"entry"`
	Children       []*TreeNode     `json:"children"`
	Label          string          `json:"label,omitempty"`
	LabelTimestamp string          `json:"labelTimestamp,omitempty"`

	f   *File
	rec *record
}

// EntryValue returns the decoded entry of the node, reading it from the
// session file when its body is on disk.
func (n *TreeNode) EntryValue() *engine.Entry {
	n.f.mu.Lock()
	defer n.f.mu.Unlock()
	return n.f.entryLocked(n.rec)
}

// Tree returns the session as a forest: roots are entries without a
// parent (or parented to themselves) and orphans; children are ordered by
// timestamp, oldest first.
func (f *File) Tree() []*TreeNode {
	f.mu.Lock()
	defer f.mu.Unlock()
	nodes := make(map[string]*TreeNode, len(f.recs))
	for _, r := range f.recs {
		n := &TreeNode{Entry: f.rawLocked(r), Children: []*TreeNode{}, f: f, rec: r}
		if l, ok := f.labels[r.id]; ok {
			n.Label, n.LabelTimestamp = l.label, l.timestamp
		}
		nodes[r.id] = n
	}
	roots := []*TreeNode{}
	for _, r := range f.recs {
		n := nodes[r.id]
		if r.parent == nil || *r.parent == r.id {
			roots = append(roots, n)
		} else if p, ok := nodes[*r.parent]; ok {
			p.Children = append(p.Children, n)
		} else {
			roots = append(roots, n)
		}
	}
	stack := append([]*TreeNode(nil), roots...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		sort.SliceStable(n.Children, func(i, j int) bool {
			return isoMillis(n.Children[i].rec.ts) < isoMillis(n.Children[j].rec.ts)
		})
		stack = append(stack, n.Children...)
	}
	return roots
}

func isoMillis(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

// Fork implements the RPC fork command: entryID must be a user message;
// the new session holds the path up to its parent (an empty session with
// parentSession when the message is a root). It returns the new session
// and the message text for the editor. The receiver stays open; the
// caller closes it when switching.
func (f *File) Fork(entryID string) (*File, string, error) {
	e, ok := f.Get(entryID)
	if !ok || e.Type != engine.EntryMessage || e.Message == nil || e.Message.Role != engine.RoleUser {
		return nil, "", ErrInvalidForkEntry
	}
	text := userText(e.Message)
	if e.ParentID == nil {
		var nf *File
		var err error
		if f.persist {
			nf, err = Create(f.dir, f.cwd, CreateOptions{ParentSession: f.path})
		} else {
			nf = InMemory(f.cwd, "")
		}
		return nf, text, err
	}
	nf, err := f.BranchedSession(*e.ParentID)
	return nf, text, err
}

// Clone implements the RPC clone command: a new session holding the
// whole active branch.
func (f *File) Clone() (*File, error) {
	leaf := f.LeafID()
	if leaf == "" {
		return nil, ErrNoLeaf
	}
	return f.BranchedSession(leaf)
}

// BranchedSession creates a new session (same dir and cwd, parentSession
// = this file) holding the path from the root to leafID. Label entries
// are dropped from the path (their children re-chained) and the labels
// that apply to kept entries are re-created at the end. The new file is
// written now if the path holds a conversation: line by line from this
// file, so that a copy of a large session leaves its message bodies on
// disk as a resume does, and only the entries whose links change are
// decoded and encoded again.
func (f *File) BranchedSession(leafID string) (*File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.persist && !f.flushed {
		return nil, ErrNotSaved
	}
	path := f.pathRecsLocked(leafID)
	if len(path) == 0 {
		return nil, fmt.Errorf("Entry %s not found", leafID)
	}
	var nf *File
	if f.persist {
		var err error
		if nf, err = Create(f.dir, f.cwd, CreateOptions{ParentSession: f.path}); err != nil {
			return nil, err
		}
	} else {
		nf = InMemory(f.cwd, "")
	}
	// srcs[i] is the record of f whose line nf.recs[i] copies, nil for
	// an entry encoded here.
	var srcs []*record
	replacement := map[string]string{}
	var pending []string
	var parent *string
	for _, r := range path {
		if r.typ == engine.EntryLabel {
			pending = append(pending, r.id)
			continue
		}
		for _, id := range pending {
			replacement[id] = r.id
		}
		pending = pending[:0]
		kept := r.e == nil || r.e.Type != engine.EntryCompaction || r.e.FirstKeptEntryID == r.e.ID
		if !kept {
			_, moved := replacement[r.e.FirstKeptEntryID]
			kept = !moved
		}
		if kept && sameParent(r.parent, parent) {
			c := *r
			if c.lazy != nil {
				lb := *c.lazy
				c.lazy = &lb
			}
			c.raw = nil
			nf.index(&c)
			srcs = append(srcs, r)
		} else {
			c := *f.entryLocked(r)
			c.ParentID = parent
			if c.Type == engine.EntryCompaction && c.FirstKeptEntryID != c.ID {
				if id, ok := replacement[c.FirstKeptEntryID]; ok {
					c.FirstKeptEntryID = id
				}
			}
			raw, err := engine.MarshalJSON(&c)
			if err != nil {
				return nil, fmt.Errorf("encode session entry: %w", err)
			}
			nf.index(entryRecord(&c, raw))
			srcs = append(srcs, nil)
		}
		id := r.id
		parent = &id
	}
	// Labels are re-created in the order they were set.
	type lab struct {
		target string
		labelInfo
	}
	var labs []lab
	for target, l := range f.labels {
		if _, ok := nf.byID[target]; ok {
			labs = append(labs, lab{target, l})
		}
	}
	sort.Slice(labs, func(i, j int) bool { return labs[i].timestamp < labs[j].timestamp })
	for _, l := range labs {
		text := l.label
		le := &engine.Entry{Type: engine.EntryLabel, ID: newEntryID(nf.taken), ParentID: parent,
			Timestamp: l.timestamp, TargetID: l.target, Label: &text}
		raw, err := engine.MarshalJSON(le)
		if err != nil {
			return nil, fmt.Errorf("encode label: %w", err)
		}
		id := le.ID
		parent = &id
		nf.index(entryRecord(le, raw))
		srcs = append(srcs, nil)
	}
	line := func(i int, r *record) []byte {
		if src := srcs[i]; src != nil {
			return f.rawLocked(src)
		}
		return r.raw
	}
	if nf.persist && nf.hasConversation() {
		if err := nf.writeNewLocked(line); err != nil {
			return nil, err
		}
		return nf, nil
	}
	// Nothing is written yet: the copies hold their entries and lines.
	for i, r := range nf.recs {
		if src := srcs[i]; src != nil {
			r.raw = line(i, r)
			if r.lazy != nil {
				r.e, r.lazy = f.entryLocked(src), nil
			}
		}
	}
	return nf, nil
}

// writeNewLocked creates the session file exclusively, locks it and writes
// the header and every record, the line of record i being line(i, r),
// through a buffer: records then find their lines in the new file, and
// none is held in memory. A failed write removes the file.
func (nf *File) writeNewLocked(line func(i int, r *record) []byte) error {
	if err := os.MkdirAll(nf.dir, 0o755); err != nil {
		return fmt.Errorf("create session dir: %w", err)
	}
	fd, err := os.OpenFile(nf.path, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create session file: %w", err)
	}
	if err := lockFile(fd); err != nil {
		fd.Close()
		return err
	}
	fail := func(err error) error {
		unlockFile(fd)
		fd.Close()
		os.Remove(nf.path)
		return fmt.Errorf("write session file: %w", err)
	}
	bw := bufio.NewWriterSize(fd, 1<<20)
	bw.Write(nf.headerRaw)
	bw.WriteByte('\n')
	off := int64(len(nf.headerRaw) + 1)
	for i, r := range nf.recs {
		b := line(i, r)
		if b == nil {
			return fail(fmt.Errorf("entry %s has no line", r.id))
		}
		bw.Write(b)
		if err := bw.WriteByte('\n'); err != nil {
			return fail(err)
		}
		r.raw, r.off, r.n = nil, off, len(b)
		off += int64(len(b) + 1)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	nf.fd, nf.flushed = fd, true
	return nil
}

func sameParent(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
