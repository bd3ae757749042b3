package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// Errors whose text clients match on.
var (
	errExportMissing = errors.New("export_html not available yet")
)

// SessionHooks let the extension runtime take part in session switches,
// as the reference's session_before_switch, session_before_fork and
// session_start events do. Every field is optional.
type SessionHooks struct {
	// BeforeSwitch may cancel new_session (reason "new", target "") and
	// switch_session (reason "resume", target = the file).
	BeforeSwitch func(ctx context.Context, reason, target string) (cancel bool)
	// BeforeFork may cancel fork (position "before": the user message is
	// left out) and clone (position "at": the leaf is kept).
	BeforeFork func(ctx context.Context, entryID, position string) (cancel bool)
	// Switched reports the new runtime after a switch (reason "new",
	// "resume" or "fork") and the previous session file ("" in memory).
	Switched func(sess *engine.Session, reason, previousSessionFile string)
	// Teardown runs after the old session stopped and before the new one
	// starts (session_shutdown with the reason and the new file).
	Teardown func(ctx context.Context, reason, targetSessionFile string)
}

type cancelledData struct {
	Cancelled bool `json:"cancelled"`
}

// switcher is the session replacement both hosts share: the RPC server
// (new_session, switch_session, fork, clone and the extensions' session
// control) and the print and JSON modes' Controller (the extensions'
// session control only).
type switcher struct {
	current func() (*engine.Session, *session.File)
	attach  func(*engine.Session, *session.File)
	start   func(store *session.File, prev *engine.Session) (*engine.Session, error)
	hooks   *SessionHooks
}

// replaceSession stops the current run, starts a runtime over store and
// makes it current; the old store is closed unless it is store itself.
func (w switcher) replaceSession(ctx context.Context, store *session.File, reason string) error {
	old, oldStore := w.current()
	prevFile := ""
	if oldStore != nil {
		prevFile = oldStore.Path()
	}
	wait, cancel := context.WithTimeout(ctx, 5*time.Second)
	_ = old.Close(wait)
	cancel()
	if w.hooks.Teardown != nil {
		w.hooks.Teardown(ctx, reason, store.Path())
	}
	sess, err := w.start(store, old)
	if err != nil {
		return fmt.Errorf("start session: %w", err)
	}
	w.attach(sess, store)
	if oldStore != nil && oldStore != store {
		_ = oldStore.Close()
	}
	if w.hooks.Switched != nil {
		w.hooks.Switched(sess, reason, prevFile)
	}
	return nil
}

func (s *Server) switcher() switcher {
	return switcher{current: s.current, attach: s.attach, start: s.opts.Host.StartSession, hooks: &s.Sessions}
}

func (s *Server) replaceSession(ctx context.Context, store *session.File, reason string) error {
	return s.switcher().replaceSession(ctx, store, reason)
}

func handleNewSession(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		ParentSession string `json:"parentSession"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	cancelled, err := s.NewSession(ctx, f.ParentSession)
	if err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, cancelledData{cancelled})
}

var _ engine.SessionController = (*Server)(nil)

// NewSession replaces the current session with an empty one, unless a
// session_before_switch handler cancels (the RPC new_session command and
// the extensions' ctx.newSession).
func (s *Server) NewSession(ctx context.Context, parentSession string) (bool, error) {
	return s.switcher().newSession(ctx, parentSession)
}

func (w switcher) newSession(ctx context.Context, parentSession string) (bool, error) {
	if h := w.hooks.BeforeSwitch; h != nil && h(ctx, "new", "") {
		return true, nil
	}
	_, store := w.current()
	var ns *session.File
	if store.Persisted() {
		var err error
		ns, err = session.Create(store.Dir(), store.Cwd(), session.CreateOptions{ParentSession: parentSession})
		if err != nil {
			return false, err
		}
	} else {
		ns = session.InMemory(store.Cwd(), "")
	}
	if err := w.replaceSession(ctx, ns, "new"); err != nil {
		return false, err
	}
	return false, nil
}

func handleSwitchSession(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		SessionPath *string `json:"sessionPath"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	if f.SessionPath == nil || *f.SessionPath == "" {
		return fail(cmd, errors.New("Invalid sessionPath: expected a path"))
	}
	cancelled, err := s.SwitchSession(ctx, *f.SessionPath)
	if err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, cancelledData{cancelled})
}

// SwitchSession opens another session file (created when missing),
// unless a session_before_switch handler cancels.
func (s *Server) SwitchSession(ctx context.Context, sessionPath string) (bool, error) {
	return s.switcher().switchSession(ctx, sessionPath)
}

func (w switcher) switchSession(ctx context.Context, sessionPath string) (bool, error) {
	path, err := filepath.Abs(sessionPath)
	if err != nil {
		return false, err
	}
	if h := w.hooks.BeforeSwitch; h != nil && h(ctx, "resume", path) {
		return true, nil
	}
	_, store := w.current()
	var ns *session.File
	if _, statErr := os.Stat(path); statErr != nil {
		ns, err = session.CreateAt(path, store.Cwd(), session.CreateOptions{})
	} else {
		if path == store.Path() {
			// The file is locked by the current session; release it first.
			_ = store.Close()
		}
		ns, err = session.Open(path)
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
	if err := w.replaceSession(ctx, ns, "resume"); err != nil {
		return false, err
	}
	return false, nil
}

// Fork starts a new session from entryID (ctx.fork): position "before"
// needs a user message and leaves it out, returning its text; "at" keeps
// the path up to and including the entry. A session_before_fork handler
// may cancel first.
func (s *Server) Fork(ctx context.Context, entryID, position string) (bool, string, error) {
	return s.switcher().fork(ctx, entryID, position)
}

func (w switcher) fork(ctx context.Context, entryID, position string) (bool, string, error) {
	if position == "" {
		position = "before"
	}
	if h := w.hooks.BeforeFork; h != nil && h(ctx, entryID, position) {
		return true, "", nil
	}
	_, store := w.current()
	if _, found := store.Get(entryID); !found {
		return false, "", session.ErrInvalidForkEntry
	}
	var ns *session.File
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
	if err := w.replaceSession(ctx, ns, "fork"); err != nil {
		return false, "", err
	}
	return false, text, nil
}

// Controller replaces sessions where there is no RPC server (print and
// JSON modes): the extensions' ctx.newSession, ctx.fork and
// ctx.switchSession work there too, as in the reference.
type Controller struct {
	// Hooks are consulted as the server's Sessions are.
	Hooks SessionHooks
	// OnAttach is told each replacement session once it is current.
	OnAttach func(*engine.Session, *session.File)

	start func(store *session.File, prev *engine.Session) (*engine.Session, error)
	mu    sync.Mutex
	sess  *engine.Session
	store *session.File
}

var _ engine.SessionController = (*Controller)(nil)

// NewController starts with sess over store; start builds the runtime for
// a replacement store, as Host.StartSession does for the server.
func NewController(sess *engine.Session, store *session.File, start func(store *session.File, prev *engine.Session) (*engine.Session, error)) *Controller {
	return &Controller{sess: sess, store: store, start: start}
}

func (c *Controller) current() (*engine.Session, *session.File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess, c.store
}

func (c *Controller) attach(sess *engine.Session, store *session.File) {
	c.mu.Lock()
	c.sess, c.store = sess, store
	c.mu.Unlock()
	if c.OnAttach != nil {
		c.OnAttach(sess, store)
	}
}

func (c *Controller) switcher() switcher {
	return switcher{current: c.current, attach: c.attach, start: c.start, hooks: &c.Hooks}
}

// NewSession replaces the session with an empty one.
func (c *Controller) NewSession(ctx context.Context, parentSession string) (bool, error) {
	return c.switcher().newSession(ctx, parentSession)
}

// SwitchSession opens another session file.
func (c *Controller) SwitchSession(ctx context.Context, path string) (bool, error) {
	return c.switcher().switchSession(ctx, path)
}

// Fork starts a session from entryID.
func (c *Controller) Fork(ctx context.Context, entryID, position string) (bool, string, error) {
	return c.switcher().fork(ctx, entryID, position)
}

type forkData struct {
	Text      string `json:"text"`
	Cancelled bool   `json:"cancelled"`
}

func handleFork(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		EntryID string `json:"entryId"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	_, store := s.current()
	if e, found := store.Get(f.EntryID); !found || e.Type != engine.EntryMessage || e.Message == nil || e.Message.Role != engine.RoleUser {
		return fail(cmd, session.ErrInvalidForkEntry)
	}
	if h := s.Sessions.BeforeFork; h != nil && h(ctx, f.EntryID, "before") {
		return ok(cmd, cancelledData{true})
	}
	ns, text, err := store.Fork(f.EntryID)
	if err != nil {
		return fail(cmd, err)
	}
	if err := s.replaceSession(ctx, ns, "fork"); err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, forkData{Text: text})
}

func handleClone(ctx context.Context, s *Server, cmd *Command) *Response {
	_, store := s.current()
	leaf := store.LeafID()
	if leaf == "" {
		return fail(cmd, session.ErrNoLeaf)
	}
	if h := s.Sessions.BeforeFork; h != nil && h(ctx, leaf, "at") {
		return ok(cmd, cancelledData{true})
	}
	ns, err := store.Clone()
	if err != nil {
		return fail(cmd, err)
	}
	if err := s.replaceSession(ctx, ns, "fork"); err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, cancelledData{false})
}

type forkMessagesData struct {
	Messages []session.ForkMessage `json:"messages"`
}

func handleGetForkMessages(ctx context.Context, s *Server, cmd *Command) *Response {
	_, store := s.current()
	return ok(cmd, forkMessagesData{store.ForkMessages()})
}

type entriesData struct {
	Entries []json.RawMessage `json:"entries"`
	LeafID  *string           `json:"leafId"`
}

func leafOf(store *session.File) *string {
	if id := store.LeafID(); id != "" {
		return &id
	}
	return nil
}

func handleGetEntries(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		Since json.RawMessage `json:"since"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	since := ""
	if len(f.Since) > 0 {
		// A non-string cursor matches no entry; the error names it as sent.
		if json.Unmarshal(f.Since, &since) != nil {
			return fail(cmd, fmt.Errorf("Entry not found: %s", f.Since))
		}
	}
	_, store := s.current()
	entries, err := store.EntriesSince(since)
	if err != nil {
		return fail(cmd, err)
	}
	out := make([]json.RawMessage, 0, len(entries))
	for _, e := range entries {
		raw := store.EntryJSON(e.ID)
		if raw == nil {
			raw, _ = engine.MarshalJSON(e)
		}
		out = append(out, raw)
	}
	return ok(cmd, entriesData{Entries: out, LeafID: leafOf(store)})
}

type treeData struct {
	Tree   []*session.TreeNode `json:"tree"`
	LeafID *string             `json:"leafId"`
}

func handleGetTree(ctx context.Context, s *Server, cmd *Command) *Response {
	_, store := s.current()
	return ok(cmd, treeData{Tree: store.Tree(), LeafID: leafOf(store)})
}

type lastTextData struct {
	Text string `json:"text,omitempty"`
}

// LastAssistantText is the reference's pick: the last assistant message
// that ended normally or has non-blank text, its text blocks joined and
// trimmed.
func LastAssistantText(msgs []*engine.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != engine.RoleAssistant {
			continue
		}
		hasText := false
		for _, c := range m.Content.Blocks {
			if c.Type == engine.ContentText && strings.TrimSpace(c.Text) != "" {
				hasText = true
			}
		}
		if m.StopReason != engine.StopStop && !hasText {
			continue
		}
		var b strings.Builder
		for _, c := range m.Content.Blocks {
			if c.Type == engine.ContentText {
				b.WriteString(c.Text)
			}
		}
		return strings.TrimSpace(b.String())
	}
	return ""
}

func handleGetLastAssistantText(ctx context.Context, s *Server, cmd *Command) *Response {
	sess, _ := s.current()
	return ok(cmd, lastTextData{LastAssistantText(sess.Messages())})
}

func handleSetSessionName(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		Name string `json:"name"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	sess, _ := s.current()
	if _, err := sess.SetSessionName(f.Name); err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, nil)
}

type commandsData struct {
	Commands []prompts.CommandInfo `json:"commands"`
}

func handleGetCommands(ctx context.Context, s *Server, cmd *Command) *Response {
	out := []prompts.CommandInfo{}
	if s.ExtensionCommands != nil {
		out = append(out, s.ExtensionCommands()...)
	}
	templates, sk := s.resources()
	out = append(out, prompts.TemplateCommands(templates)...)
	out = append(out, skills.Commands(sk)...)
	return ok(cmd, commandsData{out})
}

type pathData struct {
	Path string `json:"path"`
}

func handleExportHTML(ctx context.Context, s *Server, cmd *Command) *Response {
	var f struct {
		OutputPath string `json:"outputPath"`
	}
	if err := fields(cmd, &f); err != nil {
		return fail(cmd, err)
	}
	_, store := s.current()
	if !store.Persisted() {
		return fail(cmd, ErrExportInMemory)
	}
	if !store.Flushed() {
		return fail(cmd, ErrNothingToExport)
	}
	out := f.OutputPath
	if out == "" {
		out = "pi-session-" + strings.TrimSuffix(filepath.Base(store.Path()), ".jsonl") + ".html"
	}
	if s.ExportHTML == nil {
		return fail(cmd, errExportMissing)
	}
	path, err := s.ExportHTML(store.Header(), store.Entries(), out)
	if err != nil {
		return fail(cmd, err)
	}
	return ok(cmd, pathData{path})
}
