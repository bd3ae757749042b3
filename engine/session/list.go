package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pi-go/pi/engine"
)

// Info describes one session file, as a session picker lists it.
type Info struct {
	Path string
	ID   string
	// Cwd is the directory the session ran in.
	Cwd string
	// Name is the session's latest name ("" when unnamed).
	Name string
	// ParentSession is the file it was forked from, if any.
	ParentSession string
	Created       time.Time
	Modified      time.Time
	// MessageCount counts the message entries of the whole tree;
	// FirstMessage is the text of the first user message.
	MessageCount int
	FirstMessage string
}

// List returns the sessions of cwd, newest first: those in dir, or, when
// dir is "", in the project's folder under <agentDir>/sessions. A custom
// dir holds sessions of several projects; only cwd's are listed.
func List(agentDir, cwd, dir string) ([]Info, error) {
	cwd = absPath(cwd)
	def := AgentSessionsDir(agentDir, cwd)
	filter := dir != "" && filepath.Clean(absPath(dir)) != def
	if dir == "" {
		dir = def
	}
	f := finder{dir: absPath(dir), cwd: cwd, filterCwd: filter}
	return infos(f.local())
}

// ListAll returns the sessions of every project under
// <agentDir>/sessions (or of dir alone when set), newest first.
func ListAll(agentDir, dir string) ([]Info, error) {
	f := finder{agentDir: agentDir, custom: dir}
	if dir != "" {
		f.custom = absPath(dir)
	}
	return infos(f.all())
}

// infos reads each candidate's index for its name and messages, and
// decodes only the user messages up to the first with text: a picker
// lists sessions of any size. A file that cannot be read is left out and
// reported in the joined error.
func infos(cands []candidate) ([]Info, error) {
	out := make([]Info, 0, len(cands))
	var errs []error
	for _, c := range cands {
		p, err := readIndex(c.path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		in := Info{Path: c.path, ID: c.header.ID, Cwd: c.header.Cwd, ParentSession: c.header.ParentSession,
			Modified: time.Unix(0, c.mtime)}
		if t, err := time.Parse(time.RFC3339Nano, c.header.Timestamp); err == nil {
			in.Created = t
		}
		f := &File{path: c.path}
		for _, r := range p.recs {
			switch r.typ {
			case engine.EntrySessionInfo:
				if r.e.Name != nil {
					in.Name = *r.e.Name
				}
			case engine.EntryMessage:
				in.MessageCount++
				if in.FirstMessage == "" && r.role() == engine.RoleUser {
					if e := f.entryLocked(r); e.Message != nil {
						in.FirstMessage = e.Message.Content.Text()
					}
				}
			}
		}
		out = append(out, in)
	}
	return out, errors.Join(errs...)
}

// readIndex reads a session file without locking or repairing it and
// leaves its message bodies on disk (records read them from the path).
func readIndex(path string) (*parsed, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read session: %w", err)
	}
	defer fd.Close()
	p, err := readSession(fd, false)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if p.headerRaw == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotSession, path)
	}
	return p, nil
}

// InMemoryWith is an in-memory session seeded with entries, a tree whose
// ids and parent links are kept (the leaf is the last entry). It is for
// embedders that restore a conversation they stored themselves; nothing
// is written to disk.
func InMemoryWith(cwd, id string, entries []*engine.Entry) (*File, error) {
	f := InMemory(cwd, id)
	for i, e := range entries {
		if e == nil || e.ID == "" {
			return nil, fmt.Errorf("seed entry %d: no id", i)
		}
		if _, dup := f.byID[e.ID]; dup {
			return nil, fmt.Errorf("seed entry %d: duplicate id %s", i, e.ID)
		}
		if e.ParentID != nil {
			if _, ok := f.byID[*e.ParentID]; !ok {
				return nil, fmt.Errorf("seed entry %d: parent %s is not an earlier entry", i, *e.ParentID)
			}
		}
		raw, err := engine.MarshalJSON(e)
		if err != nil {
			return nil, fmt.Errorf("seed entry %d: %w", i, err)
		}
		f.index(entryRecord(e, raw))
	}
	return f, nil
}
