package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
)

type labelInfo struct {
	label     string
	timestamp string
}

// File is a session: a JSONL file on disk, or only memory for --no-session.
// It implements engine.Store and is safe for concurrent use.
type File struct {
	mu        sync.Mutex
	path      string // "" for in-memory sessions
	dir       string
	cwd       string
	persist   bool
	header    engine.Header
	headerRaw []byte
	recs      []*record
	byID      map[string]*record
	labels    map[string]labelInfo
	leaf      string
	flushed   bool     // the file exists and holds every record
	fd        *os.File // locked append handle while flushed
	closed    bool

	// state is BranchState's answer for the leaf stateLeaf and the
	// first stateLen records: get_state asks for it on every call.
	state     *engine.BranchState
	stateLeaf string
	stateLen  int
}

var _ engine.Store = (*File)(nil)

// CreateOptions tune a new session.
type CreateOptions struct {
	// ID is a custom session id (validated); "" draws a UUIDv7.
	ID string
	// ParentSession is the path of the session this one was forked from.
	ParentSession string
}

// Create starts a new session stored in dir for the working directory cwd.
// Nothing is written until the first user or assistant message; dir itself
// is created now, as the reference does.
func Create(dir, cwd string, opts CreateOptions) (*File, error) {
	dir = absPath(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create session dir: %w", err)
	}
	f, err := newFile(cwd, opts)
	if err != nil {
		return nil, err
	}
	f.persist = true
	f.dir = dir
	f.path = filepath.Join(dir, FileName(f.header.Timestamp, f.header.ID))
	return f, nil
}

// CreateAt starts a new session that will be saved at path, for an
// explicit --session path or switch_session target that does not exist.
func CreateAt(path, cwd string, opts CreateOptions) (*File, error) {
	path = absPath(path)
	f, err := newFile(cwd, opts)
	if err != nil {
		return nil, err
	}
	f.persist = true
	f.dir = filepath.Dir(path)
	f.path = path
	return f, nil
}

// InMemory starts a session that is never written (--no-session). id ""
// draws a UUIDv7; callers validate custom ids with ValidateSessionID.
func InMemory(cwd, id string) *File {
	f, err := newFile(cwd, CreateOptions{ID: id})
	if err != nil {
		// Only id validation fails; keep the caller's id regardless.
		f, _ = newFile(cwd, CreateOptions{})
		f.header.ID = id
		f.headerRaw, _ = engine.MarshalJSON(f.header)
	}
	return f
}

func newFile(cwd string, opts CreateOptions) (*File, error) {
	id := opts.ID
	if id == "" {
		id = NewSessionID()
	} else if err := ValidateSessionID(id); err != nil {
		return nil, err
	}
	f := &File{cwd: absPath(cwd), byID: map[string]*record{}, labels: map[string]labelInfo{}}
	f.header = engine.Header{
		Type: "session", Version: engine.SessionVersion, ID: id,
		Timestamp: engine.ISOTime(time.Now()), Cwd: f.cwd, ParentSession: opts.ParentSession,
	}
	raw, err := engine.MarshalJSON(f.header)
	if err != nil {
		return nil, fmt.Errorf("session header: %w", err)
	}
	f.headerRaw = raw
	return f, nil
}

// Open loads an existing session file for writing: it takes the file's
// lock, drops a torn last line, migrates old versions (rewriting the file)
// and puts the leaf on the last entry in file order. An empty file becomes
// a new session with the process cwd. A non-empty file that is not a
// session fails with ErrNotSession and is left untouched.
func Open(path string) (*File, error) { return openFile(path, false) }

// openFile is Open; eager decodes every entry up front, as resume did
// before message bodies stayed on disk (the tests compare the two).
func openFile(path string, eager bool) (*File, error) {
	path = absPath(path)
	fd, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	if err := lockFile(fd); err != nil {
		fd.Close()
		return nil, err
	}
	f, err := openLocked(path, fd, eager)
	if err != nil {
		unlockFile(fd)
		fd.Close()
		return nil, err
	}
	return f, nil
}

func openLocked(path string, fd *os.File, eager bool) (*File, error) {
	p, err := readSession(fd, eager)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	cwd, _ := os.Getwd()
	if p.headerRaw == nil {
		if p.size > 0 {
			return nil, fmt.Errorf("%w: %s", ErrNotSession, path)
		}
		// An empty file is initialised with a fresh header, as the
		// reference does.
		f, err := newFile(cwd, CreateOptions{})
		if err != nil {
			return nil, err
		}
		f.persist, f.path, f.dir, f.fd, f.flushed = true, path, filepath.Dir(path), fd, true
		if _, err := fd.Write(append(f.headerRaw, '\n')); err != nil {
			return nil, fmt.Errorf("write session header: %w", err)
		}
		return f, nil
	}
	if p.header.Cwd != "" {
		cwd = p.header.Cwd
	}
	f := &File{
		path: path, dir: filepath.Dir(path), cwd: cwd, persist: true, header: p.header,
		headerRaw: p.headerRaw, byID: map[string]*record{}, labels: map[string]labelInfo{},
		flushed: true, fd: fd,
	}
	for _, r := range p.recs {
		f.index(r)
	}
	switch {
	case p.migrated:
		if err := f.rewrite(); err != nil {
			return nil, err
		}
	case p.tornAt >= 0:
		// A crash cut the last record short. Cutting it off keeps the next
		// append from being glued onto the fragment.
		if err := fd.Truncate(p.tornAt); err != nil {
			return nil, fmt.Errorf("repair torn session tail: %w", err)
		}
	case p.needLF:
		if _, err := fd.Write([]byte{'\n'}); err != nil {
			return nil, fmt.Errorf("repair session tail: %w", err)
		}
	}
	return f, nil
}

// index adds a loaded record to the lookup tables and moves the leaf.
func (f *File) index(r *record) {
	f.recs = append(f.recs, r)
	f.byID[r.id] = r
	f.leaf = r.id
	if r.e != nil && r.e.Type == engine.EntryLabel {
		if r.e.Label != nil && *r.e.Label != "" {
			f.labels[r.e.TargetID] = labelInfo{*r.e.Label, r.e.Timestamp}
		} else {
			delete(f.labels, r.e.TargetID)
		}
	}
}

// content returns the whole file as it should be on disk.
func (f *File) content() []byte {
	var b bytes.Buffer
	b.Write(f.headerRaw)
	b.WriteByte('\n')
	for _, r := range f.recs {
		b.Write(f.rawLocked(r))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// rewrite replaces the file with the records in memory. It writes a
// temporary file and renames it over the original, so a crash leaves
// either the old or the new file, then locks the new inode.
func (f *File) rewrite() error {
	tmp, err := os.CreateTemp(f.dir, ".pi-session-*.tmp")
	if err != nil {
		return fmt.Errorf("rewrite session: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(f.content()); err != nil {
		tmp.Close()
		return fmt.Errorf("rewrite session: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("rewrite session: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("rewrite session: %w", err)
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(f.path); err == nil {
		mode = fi.Mode().Perm()
	}
	_ = os.Chmod(tmp.Name(), mode)
	if err := os.Rename(tmp.Name(), f.path); err != nil {
		return fmt.Errorf("rewrite session: %w", err)
	}
	fd, err := os.OpenFile(f.path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("reopen session: %w", err)
	}
	if err := lockFile(fd); err != nil {
		fd.Close()
		return err
	}
	if f.fd != nil {
		unlockFile(f.fd)
		f.fd.Close()
	}
	f.fd = fd
	// The new file holds the records in order after the header; records
	// without their line in memory now find it there.
	off := int64(len(f.headerRaw) + 1)
	for _, r := range f.recs {
		n := r.n
		if r.raw != nil {
			n = len(r.raw)
		} else {
			r.off = off
		}
		off += int64(n + 1)
	}
	return nil
}

// Header returns the session header.
func (f *File) Header() engine.Header {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.header
}

// HeaderJSON returns the header line as stored.
func (f *File) HeaderJSON() json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append(json.RawMessage(nil), f.headerRaw...)
}

// Path returns the session file ("" for in-memory sessions). The file may
// not exist yet: see Flushed.
func (f *File) Path() string { return f.path }

// Dir returns the directory new sessions derived from this one go to.
func (f *File) Dir() string { return f.dir }

// Cwd returns the session's working directory.
func (f *File) Cwd() string { return f.cwd }

// Persisted reports whether the session is file-backed.
func (f *File) Persisted() bool { return f.persist }

// Flushed reports whether the file has been written.
func (f *File) Flushed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.flushed
}

func (f *File) taken(id string) bool { _, ok := f.byID[id]; return ok }

// hasConversation reports whether a user or assistant message exists,
// the reference's trigger for the first write.
func (f *File) hasConversation() bool {
	for _, r := range f.recs {
		if role := r.role(); role == engine.RoleUser || role == engine.RoleAssistant {
			return true
		}
	}
	return false
}

// Append gives e a fresh id, the current leaf as parent and a timestamp
// (when empty), stores it and makes it the leaf.
func (f *File) Append(e *engine.Entry) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var parent *string
	if f.leaf != "" {
		p := f.leaf
		parent = &p
	}
	return f.appendLocked(e, parent)
}

func (f *File) appendLocked(e *engine.Entry, parent *string) error {
	if f.closed {
		return errors.New("session is closed")
	}
	e.ID = newEntryID(f.taken)
	e.ParentID = parent
	if e.Type == engine.EntryCompaction && e.FirstKeptEntryID == "" {
		// A compaction that keeps nothing names itself as its first kept
		// entry, as the reference records a retain-none compaction.
		e.FirstKeptEntryID = e.ID
	}
	if e.Timestamp == "" {
		e.Timestamp = engine.ISOTime(time.Now())
	}
	raw, err := engine.MarshalJSON(e)
	if err != nil {
		return fmt.Errorf("encode session entry: %w", err)
	}
	r := entryRecord(e, raw)
	prevLeaf := f.leaf
	prevLabel, hadLabel := f.labels[e.TargetID]
	f.index(r)
	if err := f.persistLocked(r); err != nil {
		// Memory must match the file: an unwritten entry must not become
		// the parent of later ones.
		f.recs = f.recs[:len(f.recs)-1]
		delete(f.byID, e.ID)
		f.leaf = prevLeaf
		if e.Type == engine.EntryLabel {
			if hadLabel {
				f.labels[e.TargetID] = prevLabel
			} else {
				delete(f.labels, e.TargetID)
			}
		}
		return err
	}
	return nil
}

// persistLocked writes r, or the whole file when it is the record that
// makes the session worth saving.
func (f *File) persistLocked(r *record) error {
	if !f.persist {
		return nil
	}
	if !f.flushed {
		if !f.hasConversation() {
			return nil
		}
		return f.flushLocked()
	}
	return f.writeLine(r.raw)
}

// flushLocked creates the file exclusively, locks it and writes every
// record in one write.
func (f *File) flushLocked() error {
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return fmt.Errorf("create session dir: %w", err)
	}
	fd, err := os.OpenFile(f.path, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create session file: %w", err)
	}
	if err := lockFile(fd); err != nil {
		fd.Close()
		return err
	}
	if _, err := fd.Write(f.content()); err != nil {
		unlockFile(fd)
		fd.Close()
		os.Remove(f.path)
		return fmt.Errorf("write session file: %w", err)
	}
	f.fd = fd
	f.flushed = true
	return nil
}

// writeLine appends one record as a single write(2) on an O_APPEND
// descriptor: a kill can lose the record being written but never splice
// two records, and nothing completed sits in a user-space buffer. A short
// write (disk full) is cut back so the file ends on a record boundary.
func (f *File) writeLine(raw []byte) error {
	st, statErr := f.fd.Stat()
	line := make([]byte, 0, len(raw)+1)
	line = append(append(line, raw...), '\n')
	n, err := f.fd.Write(line)
	if err == nil && n == len(line) {
		return nil
	}
	if statErr == nil && n > 0 {
		_ = f.fd.Truncate(st.Size())
	}
	if err == nil {
		err = io.ErrShortWrite
	}
	return fmt.Errorf("append session entry: %w", err)
}

// Close releases the file lock. Appends after Close fail.
func (f *File) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	if f.fd == nil {
		return nil
	}
	unlockFile(f.fd)
	err := f.fd.Close()
	f.fd = nil
	if err != nil {
		return fmt.Errorf("close session: %w", err)
	}
	return nil
}
