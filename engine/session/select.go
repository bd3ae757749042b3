package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pi-go/pi/engine"
)

// ErrAborted is returned when --session finds the session in another
// project and the user (or a non-interactive run) declines to fork it.
// The CLI prints "Aborted." to stdout and exits 0.
var ErrAborted = errors.New("Aborted.")

// ExitError is a session-selection failure the CLI reports by printing
// Message to stderr and exiting with Code. Message is the reference's
// exact text, including its "Error: " prefix where it has one.
type ExitError struct {
	Message string
	Code    int
}

func (e *ExitError) Error() string { return e.Message }

func exitErr(format string, args ...any) error {
	return &ExitError{Message: fmt.Sprintf(format, args...), Code: 1}
}

// SelectOptions are the CLI flags and settings that choose a session.
type SelectOptions struct {
	AgentDir string // $PI_CODING_AGENT_DIR or ~/.pi/agent
	Cwd      string

	SessionDir         string // --session-dir
	EnvSessionDir      string // $PI_CODING_AGENT_SESSION_DIR
	SettingsSessionDir string // "sessionDir" setting

	Continue  bool   // -c
	Resume    bool   // -r (the picker itself is the caller's business)
	Session   string // --session <path|id>
	SessionID string // --session-id
	Fork      string // --fork <path|id>
	NoSession bool   // --no-session
	Name      *string

	// Confirm asks a yes/no question on the terminal; nil answers no, as a
	// non-interactive run does.
	Confirm func(question string) bool
	// Notice prints an informational line to stdout (may be nil).
	Notice func(line string)
}

// ResolveSessionDir applies the precedence --session-dir >
// PI_CODING_AGENT_SESSION_DIR (tilde-expanded) > sessionDir setting; ""
// means the default per-cwd directory.
func (o SelectOptions) ResolveSessionDir() string {
	switch {
	case o.SessionDir != "":
		return absPath(o.SessionDir)
	case o.EnvSessionDir != "":
		return absPath(expandHome(o.EnvSessionDir))
	case o.SettingsSessionDir != "":
		return absPath(o.SettingsSessionDir)
	}
	return ""
}

// Select opens or creates the session the flags ask for, like the
// reference's startup. Warnings go to stderr; errors are *ExitError or
// ErrAborted (or an I/O error).
func Select(opts SelectOptions) (*File, []string, error) {
	var warnings []string
	cwd := absPath(opts.Cwd)
	if opts.Fork != "" {
		var conflicts []string
		for _, c := range []struct {
			on   bool
			name string
		}{{opts.Session != "", "--session"}, {opts.Continue, "--continue"}, {opts.Resume, "--resume"}, {opts.NoSession, "--no-session"}} {
			if c.on {
				conflicts = append(conflicts, c.name)
			}
		}
		if len(conflicts) > 0 {
			return nil, nil, exitErr("Error: --fork cannot be combined with %s", strings.Join(conflicts, ", "))
		}
	}
	if opts.SessionID != "" {
		var conflicts []string
		for _, c := range []struct {
			on   bool
			name string
		}{{opts.Session != "", "--session"}, {opts.Continue, "--continue"}, {opts.Resume, "--resume"}} {
			if c.on {
				conflicts = append(conflicts, c.name)
			}
		}
		if len(conflicts) > 0 {
			return nil, nil, exitErr("Error: --session-id cannot be combined with %s", strings.Join(conflicts, ", "))
		}
		if err := ValidateSessionID(opts.SessionID); err != nil {
			return nil, nil, exitErr("Error: %s", err.Error())
		}
	}
	f, err := selectFile(opts, cwd, &warnings)
	if err != nil {
		return nil, warnings, err
	}
	if opts.Name != nil {
		name := SanitizeName(*opts.Name)
		if name == "" {
			f.Close()
			return nil, warnings, exitErr("Error: --name requires a non-empty value")
		}
		if err := f.AppendSessionInfo(name); err != nil {
			f.Close()
			return nil, warnings, err
		}
	}
	return f, warnings, nil
}

func selectFile(opts SelectOptions, cwd string, warnings *[]string) (*File, error) {
	custom := opts.ResolveSessionDir()
	def := AgentSessionsDir(opts.AgentDir, cwd)
	dir := custom
	if dir == "" {
		dir = def
	}
	filterCwd := custom != "" && filepath.Clean(custom) != def
	if opts.NoSession {
		return InMemory(cwd, opts.SessionID), nil
	}
	lookup := finder{dir: dir, cwd: cwd, filterCwd: filterCwd, custom: custom, agentDir: opts.AgentDir}
	if opts.Fork != "" {
		if opts.SessionID != "" {
			if _, ok := lookup.exact(opts.SessionID); ok {
				return nil, exitErr("Session already exists with id '%s'", opts.SessionID)
			}
		}
		res := lookup.resolve(opts.Fork)
		if res.kind == "" {
			return nil, exitErr("No session found matching '%s'", opts.Fork)
		}
		f, err := ForkFrom(res.path, cwd, dir, opts.SessionID)
		if err != nil {
			return nil, exitErr("Error: %s", err.Error())
		}
		return f, nil
	}
	if opts.Session != "" {
		res := lookup.resolve(opts.Session)
		switch res.kind {
		case "path", "local":
			return openOrCreate(res.path, cwd, custom)
		case "global":
			if opts.Notice != nil {
				opts.Notice("Session found in different project: " + res.cwd)
			}
			if opts.Confirm == nil || !opts.Confirm("Fork this session into current directory?") {
				return nil, ErrAborted
			}
			f, err := ForkFrom(res.path, cwd, dir, "")
			if err != nil {
				return nil, exitErr("Error: %s", err.Error())
			}
			return f, nil
		}
		return nil, exitErr("No session found matching '%s'", opts.Session)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create session dir: %w", err)
	}
	if opts.Continue {
		if p, ok := lookup.mostRecent(); ok {
			f, err := Open(p)
			if err != nil {
				return nil, exitErr("Error: %s", err.Error())
			}
			// -c resumes in the current directory, not the header's.
			f.cwd = cwd
			return f, nil
		}
		return Create(dir, cwd, CreateOptions{})
	}
	if opts.SessionID != "" {
		if p, ok := lookup.exact(opts.SessionID); ok {
			return openOrCreate(p, cwd, custom)
		}
		*warnings = append(*warnings, fmt.Sprintf("Warning: No project session found with id '%s'; creating a new session with that id.", opts.SessionID))
	}
	return Create(dir, cwd, CreateOptions{ID: opts.SessionID})
}

// openOrCreate opens path, or starts a session to be saved there when it
// does not exist. New sessions derived from it go to the custom session
// dir when there is one.
func openOrCreate(path, cwd, custom string) (*File, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		f, err := CreateAt(path, cwd, CreateOptions{})
		if err != nil {
			return nil, exitErr("Error: %s", err.Error())
		}
		if custom != "" {
			f.dir = custom
		}
		return f, nil
	}
	f, err := Open(path)
	if err != nil {
		return nil, exitErr("Error: %s", err.Error())
	}
	if custom != "" {
		f.dir = custom
	}
	return f, nil
}

// ForkFrom copies every entry of the session at src (verbatim, same ids)
// into a new session in dir for cwd, with parentSession = src, and opens
// it. id "" draws a new session id. The lines are copied one by one from
// src, whose message bodies stay on disk as on resume.
func ForkFrom(src, cwd, dir, id string) (*File, error) {
	src = absPath(src)
	invalid := fmt.Errorf("Cannot fork: source session file is empty or invalid: %s", src)
	fd, err := os.Open(src)
	if err != nil {
		return nil, invalid
	}
	defer fd.Close()
	p, err := readSession(fd, false)
	if err != nil || p.headerRaw == nil {
		return nil, invalid
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create session dir: %w", err)
	}
	nf, err := Create(dir, cwd, CreateOptions{ID: id, ParentSession: src})
	if err != nil {
		return nil, err
	}
	for _, r := range p.recs {
		nf.index(r)
	}
	from := &File{path: src, fd: fd}
	if err := nf.writeNewLocked(func(_ int, r *record) []byte { return from.rawLocked(r) }); err != nil {
		return nil, err
	}
	return nf, nil
}

type finder struct {
	dir, cwd, custom, agentDir string
	filterCwd                  bool
}

type found struct {
	kind string // "path", "local", "global" or "" (not found)
	path string
	cwd  string
}

type candidate struct {
	path   string
	header engine.Header
	mtime  int64
}

// listDir returns the sessions of dir, newest first.
func listDir(dir string) []candidate {
	names, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []candidate
	for _, n := range names {
		if n.IsDir() || !strings.HasSuffix(n.Name(), ".jsonl") {
			continue
		}
		p := filepath.Join(dir, n.Name())
		h, ok := readHeader(p)
		if !ok {
			continue
		}
		var mt int64
		if fi, err := n.Info(); err == nil {
			mt = fi.ModTime().UnixNano()
		}
		out = append(out, candidate{path: p, header: h, mtime: mt})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].mtime != out[j].mtime {
			return out[i].mtime > out[j].mtime
		}
		return filepath.Base(out[i].path) > filepath.Base(out[j].path)
	})
	return out
}

func (f finder) local() []candidate {
	var out []candidate
	for _, c := range listDir(f.dir) {
		if f.filterCwd && (c.header.Cwd == "" || absPath(c.header.Cwd) != f.cwd) {
			continue
		}
		out = append(out, c)
	}
	return out
}

func (f finder) exact(id string) (string, bool) {
	for _, c := range f.local() {
		if c.header.ID == id {
			return c.path, true
		}
	}
	return "", false
}

func (f finder) mostRecent() (string, bool) {
	if l := f.local(); len(l) > 0 {
		return l[0].path, true
	}
	return "", false
}

// all lists every session: the custom dir alone, or every project dir
// under <agentDir>/sessions.
func (f finder) all() []candidate {
	if f.custom != "" {
		return listDir(f.custom)
	}
	root := filepath.Join(absPath(f.agentDir), "sessions")
	dirs, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []candidate
	for _, d := range dirs {
		if d.IsDir() || d.Type()&os.ModeSymlink != 0 {
			out = append(out, listDir(filepath.Join(root, d.Name()))...)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].mtime > out[j].mtime })
	return out
}

// resolve maps a --session/--fork argument to a file: a path when it
// looks like one, else an exact then prefix id match in this project,
// else an exact then prefix match anywhere.
func (f finder) resolve(arg string) found {
	if strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".jsonl") {
		p := arg
		if !filepath.IsAbs(p) {
			p = filepath.Join(f.cwd, expandHome(p))
		}
		return found{kind: "path", path: filepath.Clean(expandHome(p))}
	}
	if p, ok := f.exact(arg); ok {
		return found{kind: "local", path: p}
	}
	for _, c := range f.local() {
		if strings.HasPrefix(c.header.ID, arg) {
			return found{kind: "local", path: c.path}
		}
	}
	all := f.all()
	for _, c := range all {
		if c.header.ID == arg {
			return found{kind: "global", path: c.path, cwd: c.header.Cwd}
		}
	}
	for _, c := range all {
		if strings.HasPrefix(c.header.ID, arg) {
			return found{kind: "global", path: c.path, cwd: c.header.Cwd}
		}
	}
	return found{}
}
