package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
)

// SwitchHooks let the extensions take part in a session replacement, as
// the reference's session_before_switch, session_before_fork,
// session_shutdown and session_start do. Every field is optional.
type SwitchHooks struct {
	// BeforeSwitch may cancel a new session (reason "new", target "") and
	// a switch (reason "resume", target = the file).
	BeforeSwitch func(ctx context.Context, reason, target string) (cancel bool)
	// BeforeFork may cancel a fork (position "before": the user message
	// is left out) and a clone (position "at": the entry is kept).
	BeforeFork func(ctx context.Context, entryID, position string) (cancel bool)
	// Teardown runs after the old session stopped and before the new one
	// starts (session_shutdown with the reason and the new file).
	Teardown func(ctx context.Context, reason, targetSessionFile string)
	// Switched reports the new session once it is current (reason "new",
	// "resume" or "fork") and the previous session file ("" in memory).
	Switched func(sess *engine.Session, reason, previousSessionFile string)
}

// Switcher owns the active session and its store and replaces them: a
// new session, a switch to another file, a fork and a clone. Each
// replacement stops the old run, starts a runtime over the new store
// (Start) and closes the old store. The RPC commands new_session,
// switch_session, fork and clone and the extensions' ctx.newSession,
// ctx.switchSession and ctx.fork all come here.
type Switcher struct {
	// Hooks are consulted on every replacement.
	Hooks SwitchHooks
	// OnAttach is told each replacement session once it is current,
	// before Hooks.Switched.
	OnAttach func(*engine.Session, *File)

	start func(store *File, prev *engine.Session) (*engine.Session, error)
	mu    sync.Mutex
	sess  *engine.Session
	store *File
}

var _ engine.SessionController = (*Switcher)(nil)

// NewSwitcher starts with sess over store; start builds the runtime for a
// replacement store, continuing from prev (the session being replaced).
func NewSwitcher(sess *engine.Session, store *File, start func(store *File, prev *engine.Session) (*engine.Session, error)) *Switcher {
	return &Switcher{sess: sess, store: store, start: start}
}

// Current returns the active session and its store.
func (w *Switcher) Current() (*engine.Session, *File) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sess, w.store
}

func (w *Switcher) attach(sess *engine.Session, store *File) {
	w.mu.Lock()
	w.sess, w.store = sess, store
	w.mu.Unlock()
	if w.OnAttach != nil {
		w.OnAttach(sess, store)
	}
}

// replace stops the current run, starts a runtime over store and makes it
// current; the old store is closed unless it is store itself.
func (w *Switcher) replace(ctx context.Context, store *File, reason string) error {
	old, oldStore := w.Current()
	prevFile := ""
	if oldStore != nil {
		prevFile = oldStore.Path()
	}
	wait, cancel := context.WithTimeout(ctx, 5*time.Second)
	_ = old.Close(wait)
	cancel()
	if w.Hooks.Teardown != nil {
		w.Hooks.Teardown(ctx, reason, store.Path())
	}
	sess, err := w.start(store, old)
	if err != nil {
		return fmt.Errorf("start session: %w", err)
	}
	w.attach(sess, store)
	if oldStore != nil && oldStore != store {
		_ = oldStore.Close()
	}
	if w.Hooks.Switched != nil {
		w.Hooks.Switched(sess, reason, prevFile)
	}
	return nil
}

// NewSession replaces the current session with an empty one in the same
// folder (in memory when the current one is), unless a BeforeSwitch hook
// cancels.
func (w *Switcher) NewSession(ctx context.Context, parentSession string) (bool, error) {
	if h := w.Hooks.BeforeSwitch; h != nil && h(ctx, "new", "") {
		return true, nil
	}
	_, store := w.Current()
	var ns *File
	if store.Persisted() {
		var err error
		ns, err = Create(store.Dir(), store.Cwd(), CreateOptions{ParentSession: parentSession})
		if err != nil {
			return false, err
		}
	} else {
		ns = InMemory(store.Cwd(), "")
	}
	if err := w.replace(ctx, ns, "new"); err != nil {
		return false, err
	}
	return false, nil
}

// SwitchSession opens another session file (created when missing),
// unless a BeforeSwitch hook cancels.
func (w *Switcher) SwitchSession(ctx context.Context, sessionPath string) (bool, error) {
	if sessionPath == "" {
		return false, errors.New("Invalid sessionPath: expected a path")
	}
	path, err := filepath.Abs(sessionPath)
	if err != nil {
		return false, err
	}
	if h := w.Hooks.BeforeSwitch; h != nil && h(ctx, "resume", path) {
		return true, nil
	}
	_, store := w.Current()
	var ns *File
	if _, statErr := os.Stat(path); statErr != nil {
		ns, err = CreateAt(path, store.Cwd(), CreateOptions{})
	} else {
		if path == store.Path() {
			// The file is locked by the current session; release it first.
			_ = store.Close()
		}
		ns, err = Open(path)
	}
	if err != nil {
		return false, err
	}
	if c := ns.Cwd(); c != "" {
		if st, err := os.Stat(c); err != nil || !st.IsDir() {
			_ = ns.Close()
			return false, fmt.Errorf("Session working directory does not exist: %s", c)
		}
	}
	if err := w.replace(ctx, ns, "resume"); err != nil {
		return false, err
	}
	return false, nil
}

// Fork starts a new session from entryID: position "before" (the
// default) needs a user message and leaves it out, returning its text;
// "at" keeps the path up to and including the entry. A BeforeFork hook
// may cancel first.
func (w *Switcher) Fork(ctx context.Context, entryID, position string) (bool, string, error) {
	if position == "" {
		position = "before"
	}
	if h := w.Hooks.BeforeFork; h != nil && h(ctx, entryID, position) {
		return true, "", nil
	}
	_, store := w.Current()
	if _, found := store.Get(entryID); !found {
		return false, "", ErrInvalidForkEntry
	}
	var ns *File
	var text string
	var err error
	if position == "at" {
		ns, err = store.BranchedSession(entryID)
	} else {
		ns, text, err = store.Fork(entryID)
	}
	if err != nil {
		return false, "", err
	}
	if err := w.replace(ctx, ns, "fork"); err != nil {
		return false, "", err
	}
	return false, text, nil
}

// ForkUser is the RPC fork: entryID must be a user message, checked
// before the BeforeFork hook runs.
func (w *Switcher) ForkUser(ctx context.Context, entryID string) (bool, string, error) {
	_, store := w.Current()
	if e, found := store.Get(entryID); !found || e.Type != engine.EntryMessage || e.Message == nil || e.Message.Role != engine.RoleUser {
		return false, "", ErrInvalidForkEntry
	}
	if h := w.Hooks.BeforeFork; h != nil && h(ctx, entryID, "before") {
		return true, "", nil
	}
	ns, text, err := store.Fork(entryID)
	if err != nil {
		return false, "", err
	}
	if err := w.replace(ctx, ns, "fork"); err != nil {
		return false, "", err
	}
	return false, text, nil
}

// Clone copies the current branch into a new session (position "at" the
// leaf for the BeforeFork hook).
func (w *Switcher) Clone(ctx context.Context) (bool, error) {
	_, store := w.Current()
	leaf := store.LeafID()
	if leaf == "" {
		return false, ErrNoLeaf
	}
	if h := w.Hooks.BeforeFork; h != nil && h(ctx, leaf, "at") {
		return true, nil
	}
	ns, err := store.Clone()
	if err != nil {
		return false, err
	}
	if err := w.replace(ctx, ns, "fork"); err != nil {
		return false, err
	}
	return false, nil
}
