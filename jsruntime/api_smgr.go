package jsruntime

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/session"
)

// The session file's extras that the engine.Store interface leaves out;
// the JSONL store (engine/session.File) has them all, other stores answer
// the reference's defaults.
type (
	storeDirs interface {
		Dir() string
		Persisted() bool
		Flushed() bool
	}
	storeTree interface {
		Tree() []*session.TreeNode
		BranchFrom(id string) []*engine.Entry
		Labels() (labels, timestamps map[string]string)
		BranchWithSummary(fromID string, e *engine.Entry) error
	}
)

// PinSessionManager keeps this generation's ctx.sessionManager on the
// session bound now. The host calls it when it retires the generation for
// a session replacement: the reference's old runner keeps its own
// SessionManager, so a manager an extension held on to goes on reading
// and writing the old session (its file included), while the generation's
// other calls (the replacing command's withSession messages) follow the
// new session.
func (a *API) PinSessionManager() {
	a.mu.Lock()
	if a.smStore == nil && a.sess != nil {
		a.smStore = a.sess.Store()
	}
	a.mu.Unlock()
}

// pinnedStore is a retired generation's session store as its
// ctx.sessionManager writes to it. The host closes a replaced session's
// file, while the reference's old SessionManager goes on appending to it:
// an append the closed store refuses opens the file again, appends there
// and closes it, and that fresh copy is what the manager reads from then.
type pinnedStore struct {
	engine.Store
	api *API
}

func (p pinnedStore) Append(e *engine.Entry) error {
	err := p.Store.Append(e)
	path := p.Store.Path()
	if err == nil || path == "" {
		return err
	}
	f, oerr := session.Open(path)
	if oerr != nil {
		return err
	}
	defer f.Close()
	if aerr := f.Append(e); aerr != nil {
		return aerr
	}
	p.api.mu.Lock()
	p.api.smStore = f
	p.api.mu.Unlock()
	return nil
}

// sessionManagerCall answers ctx.sessionManager (hostjs/pi_internal_views.js):
// the reference's SessionManager instance, its read methods and the
// writes it allows, which go straight to the session's store without
// events, as the reference's do.
func (a *API) sessionManagerCall(s *engine.Session, name string, av []json.RawMessage) (any, bool, error) {
	st := s.Store()
	// "cur:" names the setup callback's manager, on the bound session;
	// ctx.sessionManager stays on its generation's own.
	if rest, ok := strings.CutPrefix(name, "cur:"); ok {
		name = rest
	} else {
		a.mu.Lock()
		if a.smStore != nil {
			st = a.smStore
		}
		a.mu.Unlock()
	}
	if st != s.Store() {
		st = pinnedStore{Store: st, api: a}
	}
	defaultDir := ""
	if a.rt != nil && a.rt.opts.AgentDir != "" {
		defaultDir = session.AgentSessionsDir(a.rt.opts.AgentDir, a.opts.Cwd)
	}
	return storeManagerCall(st, a.opts.Cwd, defaultDir, name, av)
}

// storeManagerCall answers a SessionManager's read and write methods over
// the session store st: ctx.sessionManager's, and those of the managers
// extensions open themselves (SessionManager.open, host_sdk_session.go).
// defaultDir is the cwd's default session folder ("" when unknown).
func storeManagerCall(st engine.Store, cwd, defaultDir, name string, av []json.RawMessage) (any, bool, error) {
	inner := st
	if p, ok := st.(pinnedStore); ok {
		inner = p.Store
	}
	dirs, _ := inner.(storeDirs)
	tree, _ := inner.(storeTree)
	if v, ok, err := sessionWriteCall(st, name, av); ok {
		return v, ok, err
	}
	switch name {
	case "sm.getCwd":
		return cwd, true, nil
	case "sm.getSessionId":
		return st.Header().ID, true, nil
	case "sm.getSessionFile":
		if p := st.Path(); p != "" {
			return p, true, nil
		}
		return nil, true, nil
	case "sm.getSessionDir":
		if dirs != nil {
			return dirs.Dir(), true, nil
		}
		if p := st.Path(); p != "" {
			return filepath.Dir(p), true, nil
		}
		return "", true, nil
	case "sm.usesDefaultSessionDir":
		if dirs == nil || dirs.Dir() == "" || defaultDir == "" {
			return false, true, nil
		}
		return filepath.Clean(dirs.Dir()) == defaultDir, true, nil
	case "sm.isPersisted":
		return dirs == nil || dirs.Persisted(), true, nil
	case "sm.flushed":
		return dirs != nil && dirs.Flushed(), true, nil
	case "sm.getHeader":
		return st.Header(), true, nil
	case "sm.getLeafId":
		if id := st.LeafID(); id != "" {
			return id, true, nil
		}
		return nil, true, nil
	case "sm.getLeafEntry":
		if e, ok := st.Get(st.LeafID()); ok {
			return e, true, nil
		}
		return nil, true, nil
	case "sm.getEntry":
		if e, ok := st.Get(argString(av, 0)); ok {
			return e, true, nil
		}
		return nil, true, nil
	case "sm.getEntries":
		return nonNilEntries(st.Entries()), true, nil
	case "sm.getBranch":
		if len(av) > 0 && string(av[0]) != "null" && tree != nil {
			return nonNilEntries(tree.BranchFrom(argString(av, 0))), true, nil
		}
		return nonNilEntries(st.Branch()), true, nil
	case "sm.buildContextEntries":
		return nonNilEntries(engine.ContextEntries(st.Branch())), true, nil
	case "sm.getLabel":
		return label(st, argString(av, 0)), true, nil
	case "sm.labels":
		return labelList(st, tree), true, nil
	case "sm.getTree":
		if tree != nil {
			if t := tree.Tree(); t != nil {
				return t, true, nil
			}
		}
		return []any{}, true, nil
	case "sm.getChildren":
		parent := argString(av, 0)
		out := []*engine.Entry{}
		for _, e := range st.Entries() {
			if e.ParentID != nil && *e.ParentID == parent {
				out = append(out, e)
			}
		}
		return out, true, nil
	case "sm.buildSessionContext":
		return sessionContextFields(engine.BuildContext(st.Branch()), nil), true, nil
	case "sm.buildSessionProjection":
		branch := st.Branch()
		var projected []any
		for _, pe := range engine.ProjectContext(branch) {
			projected = append(projected, ordered{{"sourceEntry", pe.Entry}, {"messages", nonNilMessages(pe.Messages)}})
		}
		if projected == nil {
			projected = []any{}
		}
		return sessionContextFields(engine.BuildContext(branch), projected), true, nil
	}
	return sessionManagerWrite(st, tree, name, av)
}

// sessionManagerWrite answers the session manager's writes beyond those
// the newSession setup callback has (sessionWriteCall): each returns the
// new entry's id, as the reference's append methods do (appendUsage the
// entry itself).
func sessionManagerWrite(st engine.Store, tree storeTree, name string, av []json.RawMessage) (any, bool, error) {
	var e *engine.Entry
	switch name {
	case "smw.appendThinkingLevelChange":
		e = &engine.Entry{Type: engine.EntryThinkingLevelChange, ThinkingLevel: argString(av, 0)}
	case "smw.appendModelChange":
		e = &engine.Entry{Type: engine.EntryModelChange, Provider: argString(av, 0), ModelID: argString(av, 1)}
	case "smw.appendUsage":
		e = &engine.Entry{Type: engine.EntryUsage, Kind: argString(av, 0), Provider: argString(av, 1), Model: argString(av, 2),
			Usage: rawArg(av, 3), Note: argString(av, 4)}
	case "smw.appendCompaction":
		e = &engine.Entry{Type: engine.EntryCompaction, Summary: argString(av, 0), FirstKeptEntryID: argString(av, 1),
			Details: rawArg(av, 3), Usage: rawArg(av, 5)}
		if len(av) > 2 {
			_ = json.Unmarshal(av[2], &e.TokensBefore)
		}
		e.FromHook = boolArg(av, 4)
	case "smw.appendContextEdit":
		e = &engine.Entry{Type: engine.EntryContextEdit, TargetID: argString(av, 0), Replacement: json.RawMessage("null")}
		if r := rawArg(av, 1); r != nil {
			e.Replacement = r
		}
	case "smw.branch", "smw.resetLeaf":
		id := ""
		if name == "smw.branch" {
			id = argString(av, 0)
		}
		if err := st.SetLeaf(id); err != nil {
			return nil, true, fmt.Errorf("branch: %w", err)
		}
		return nil, true, nil
	case "smw.branchWithSummary":
		if tree == nil {
			return nil, true, errors.New("branchWithSummary: not supported by this session store")
		}
		e = &engine.Entry{Summary: argString(av, 1), Details: rawArg(av, 2), FromHook: boolArg(av, 3), Usage: rawArg(av, 4)}
		if err := tree.BranchWithSummary(argString(av, 0), e); err != nil {
			return nil, true, err
		}
		return e.ID, true, nil
	default:
		return nil, false, nil
	}
	if err := st.Append(e); err != nil {
		return nil, true, fmt.Errorf("%s: %w", name[len("smw."):], err)
	}
	if name == "smw.appendUsage" {
		return e, true, nil
	}
	return e.ID, true, nil
}

// label is getLabel: the target's current label, or undefined.
func label(st engine.Store, id string) any {
	var label any
	for _, e := range st.Entries() {
		if e.Type == engine.EntryLabel && e.TargetID == id {
			if e.Label != nil {
				label = *e.Label
			} else {
				label = nil
			}
		}
	}
	return label
}

// labelList is the labelsById and labelTimestampsById maps as
// [targetId, label, timestamp] triples, in the reference's Map order
// (stores without LabelOrder: oldest label first).
func labelList(st engine.Store, tree storeTree) [][3]string {
	out := [][3]string{}
	if tree == nil {
		return out
	}
	labels, stamps := tree.Labels()
	if lo, ok := tree.(interface{ LabelOrder() []string }); ok {
		// The reference's Map order: when each target got its label.
		for _, id := range lo.LabelOrder() {
			if l, ok := labels[id]; ok {
				out = append(out, [3]string{id, l, stamps[id]})
			}
		}
		return out
	}
	for id, l := range labels {
		out = append(out, [3]string{id, l, stamps[id]})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][2] != out[j][2] {
			return out[i][2] < out[j][2]
		}
		return out[i][0] < out[j][0]
	})
	return out
}

// sessionContextFields is a SessionContext object (with the projection's
// entries first when projected is set).
func sessionContextFields(c engine.SessionContext, projected []any) ordered {
	var model any
	if c.Model != nil {
		model = c.Model
	}
	level := string(c.ThinkingLevel)
	if level == "" {
		level = "off"
	}
	o := ordered{}
	if projected != nil {
		o = append(o, Field{"entries", projected})
	}
	return append(o, Field{"messages", nonNilMessages(c.Messages)}, Field{"thinkingLevel", level}, Field{"model", model})
}

func nonNilMessages(ms []*engine.Message) []*engine.Message {
	if ms == nil {
		return []*engine.Message{}
	}
	return ms
}

func nonNilEntries(es []*engine.Entry) []*engine.Entry {
	if es == nil {
		return []*engine.Entry{}
	}
	return slices.Clone(es)
}

// rawArg is argument i as JSON, nil when absent or null.
func rawArg(av []json.RawMessage, i int) json.RawMessage {
	if i >= len(av) || len(av[i]) == 0 || string(av[i]) == "null" {
		return nil
	}
	return av[i]
}

// boolArg is argument i as an optional boolean.
func boolArg(av []json.RawMessage, i int) *bool {
	var b bool
	if r := rawArg(av, i); r != nil && json.Unmarshal(r, &b) == nil {
		return &b
	}
	return nil
}
