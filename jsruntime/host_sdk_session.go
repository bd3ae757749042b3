package jsruntime

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
)

// sdkSession is one SessionManager an extension made itself
// (SessionManager.open/create/inMemory/continueRecent): its store, the cwd
// and session folder the reference's manager would report.
type sdkSession struct {
	st  engine.Store
	cwd string
	dir string
}

// readOnlyStore is a session file another writer holds (the host's own
// session, most often: extensions open ctx.sessionManager's file to read
// it): a snapshot that reads like the file and refuses appends, rather
// than two writers interleaving lines.
type readOnlyStore struct {
	*session.File
	path, dir string
}

func (r readOnlyStore) Path() string    { return r.path }
func (r readOnlyStore) Dir() string     { return r.dir }
func (r readOnlyStore) Persisted() bool { return true }
func (r readOnlyStore) Flushed() bool   { return true }
func (r readOnlyStore) Append(*engine.Entry) error {
	return fmt.Errorf("%s is in use by this pi process; this SessionManager can only read it", r.path)
}

// installSDKSessionHost gives the coding-agent package's SessionManager
// (hostjs/pi_internal_sdk_session.js) its natives: sdkSessionOpen makes a
// manager and returns its handle, sdkSessionCall runs one method on it
// (the methods of ctx.sessionManager, storeManagerCall), sdkSessionList
// lists sessions. Values cross as JSON, as the API bridge's do.
func (r *Runtime) installSDKSessionHost() {
	vm := r.vm
	var mu sync.Mutex
	handles := map[int]*sdkSession{}
	next := 0
	agentDir := func() string { return r.opts.AgentDir }
	throw := func(err error) { panic(vm.NewGoError(err)) }
	// sdkSessionStore hands a manager's store to createAgentSession
	// (api_subagent.go), so the sub-agent writes where the manager reads.
	_ = r.host.Set("sdkSessionStore", func(h int) goja.Value {
		mu.Lock()
		defer mu.Unlock()
		if s, ok := handles[h]; ok {
			return vm.ToValue(s.st)
		}
		return goja.Undefined()
	})
	_ = r.host.Set("sdkSessionOpen", func(kind, argsJSON string) int {
		var av []string
		_ = json.Unmarshal([]byte(argsJSON), &av)
		arg := func(i int) string {
			if i < len(av) {
				return av[i]
			}
			return ""
		}
		s, err := openSDKSession(agentDir(), kind, arg)
		var errno syscall.Errno
		if errors.As(err, &errno) {
			// A file-system failure reads as Node's (code ENOENT, EISDIR…),
			// as the reference's fs calls throw it.
			panic(r.jsFSError(toNodeErr(errno, "open", arg(0))))
		}
		if err != nil {
			throw(err)
		}
		mu.Lock()
		defer mu.Unlock()
		next++
		handles[next] = s
		return next
	})
	_ = r.host.Set("sdkSessionCall", func(h int, name, argsJSON string) string {
		mu.Lock()
		s := handles[h]
		mu.Unlock()
		if s == nil {
			throw(errors.New("SessionManager: unknown session"))
		}
		var v any
		var err error
		if name == "sm.getSessionName" {
			if f, ok := s.st.(interface{ SessionName() string }); ok && f.SessionName() != "" {
				v = f.SessionName()
			}
		} else {
			defaultDir := ""
			if agentDir() != "" {
				defaultDir = session.AgentSessionsDir(agentDir(), s.cwd)
			}
			var ok bool
			v, ok, err = storeManagerCall(s.st, s.cwd, defaultDir, name, args(json.RawMessage(argsJSON)))
			if err == nil && !ok {
				err = fmt.Errorf("SessionManager: unknown method %q", name)
			}
		}
		if err != nil {
			throw(err)
		}
		if v == nil {
			return ""
		}
		b, err := engine.MarshalJSON(v)
		if err != nil {
			throw(err)
		}
		return string(b)
	})
	_ = r.host.Set("sdkSessionList", func(all bool, cwd, dir string) string {
		var infos []session.Info
		var err error
		if all {
			infos, err = session.ListAll(agentDir(), dir)
		} else {
			infos, err = session.List(agentDir(), cwd, dir)
		}
		// Unreadable files are left out, as the reference's listing skips
		// them; only a failure with nothing listed is an error.
		if err != nil && len(infos) == 0 && !errors.Is(err, os.ErrNotExist) {
			throw(err)
		}
		b, merr := engine.MarshalJSON(sessionInfos(infos))
		if merr != nil {
			throw(merr)
		}
		return string(b)
	})
}

func openSDKSession(agentDir, kind string, arg func(int) string) (*sdkSession, error) {
	defaultDir := func(cwd string) string {
		if agentDir == "" {
			return ""
		}
		return session.AgentSessionsDir(agentDir, absDir(cwd))
	}
	switch kind {
	case "inMemory":
		cwd := absDir(arg(0))
		return &sdkSession{st: session.InMemory(cwd, ""), cwd: cwd}, nil
	case "create":
		cwd, dir := absDir(arg(0)), arg(1)
		if dir == "" {
			dir = defaultDir(cwd)
		}
		f, err := session.Create(dir, cwd, session.CreateOptions{})
		if err != nil {
			return nil, err
		}
		return &sdkSession{st: f, cwd: cwd, dir: f.Dir()}, nil
	case "open":
		path := absDir(arg(0))
		dir := arg(1)
		if dir == "" {
			dir = filepath.Dir(path)
		}
		s, err := openSessionFile(path, dir)
		if err != nil {
			return nil, err
		}
		if c := arg(2); c != "" {
			s.cwd = c
		}
		return s, nil
	case "continueRecent":
		cwd, dir := absDir(arg(0)), arg(1)
		infos, _ := session.List(agentDir, cwd, dir)
		if dir == "" {
			dir = defaultDir(cwd)
		}
		if len(infos) > 0 {
			return openSessionFile(infos[0].Path, dir)
		}
		f, err := session.Create(dir, cwd, session.CreateOptions{})
		if err != nil {
			return nil, err
		}
		return &sdkSession{st: f, cwd: cwd, dir: f.Dir()}, nil
	}
	return nil, fmt.Errorf("SessionManager: unknown constructor %q", kind)
}

// openSessionFile opens path for reading and appending, or as a
// read-only snapshot when another writer holds it.
func openSessionFile(path, dir string) (*sdkSession, error) {
	f, err := session.Open(path)
	if err == nil {
		return &sdkSession{st: f, cwd: f.Header().Cwd, dir: dir}, nil
	}
	if !errors.Is(err, session.ErrLocked) {
		return nil, err
	}
	header, entries, lerr := session.Load(path)
	if lerr != nil {
		return nil, lerr
	}
	snap, serr := session.InMemoryWith(header.Cwd, header.ID, entries)
	if serr != nil {
		return nil, serr
	}
	return &sdkSession{st: readOnlyStore{File: snap, path: path, dir: dir}, cwd: header.Cwd, dir: dir}, nil
}

func absDir(p string) string {
	if p == "" {
		p, _ = os.Getwd()
	}
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[2:])
		}
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// sessionInfos is the reference's SessionInfo list: the latest message
// activity as modified (the header's time when there is none), the text
// of every user and assistant message, newest first.
func sessionInfos(infos []session.Info) []ordered {
	type row struct {
		o        ordered
		modified int64
	}
	rows := make([]row, 0, len(infos))
	for _, in := range infos {
		var texts []string
		var last int64
		_, entries, err := session.Load(in.Path)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.Type != engine.EntryMessage || e.Message == nil {
				continue
			}
			m := e.Message
			if m.Role == engine.RoleUser || m.Role == engine.RoleAssistant {
				last = max(last, m.Timestamp)
				if t := m.Content.Text(); t != "" {
					texts = append(texts, t)
				}
			}
		}
		modified := in.Created.UnixMilli()
		if last > 0 {
			modified = last
		}
		first := in.FirstMessage
		if first == "" {
			first = "(no messages)"
		}
		o := ordered{{"path", in.Path}, {"id", in.ID}, {"cwd", in.Cwd}}
		if in.Name != "" {
			o = append(o, Field{"name", in.Name})
		}
		if in.ParentSession != "" {
			o = append(o, Field{"parentSessionPath", in.ParentSession})
		}
		o = append(o, Field{"created", in.Created.UTC().Format("2006-01-02T15:04:05.000Z")},
			Field{"modified", time.UnixMilli(modified).UTC().Format("2006-01-02T15:04:05.000Z")},
			Field{"messageCount", in.MessageCount}, Field{"firstMessage", first}, Field{"allMessagesText", strings.Join(texts, " ")})
		rows = append(rows, row{o, modified})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].modified > rows[j].modified })
	out := make([]ordered, len(rows))
	for i, r := range rows {
		out[i] = r.o
	}
	return out
}
