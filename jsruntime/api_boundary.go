package jsruntime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
)

// boundaryDraft is one entry a boundary handler (turn_end,
// agent_before_settle) proposes; Type selects the meaningful fields.
type boundaryDraft struct {
	Type string `json:"type"`
	// custom, custom_message
	CustomType string          `json:"customType"`
	Data       json.RawMessage `json:"data"`
	Content    json.RawMessage `json:"content"`
	Display    *bool           `json:"display"`
	Details    json.RawMessage `json:"details"`
	// context_edit
	TargetID    string          `json:"targetId"`
	Replacement json.RawMessage `json:"replacement"`
	// compaction
	Summary          string          `json:"summary"`
	FirstKeptEntryID *string         `json:"firstKeptEntryId"`
	Usage            json.RawMessage `json:"usage"`
}

// boundaryDrafts are the drafts of one boundary, as the JS dispatcher
// hands them over.
type boundaryDrafts []boundaryDraft

// draftEntry turns one draft into the entry the reference would append
// after the entries of branch (root first, the drafts before this one
// included), or the reference's error for a draft it would refuse.
// byID finds an entry anywhere in the session (drafts included).
func draftEntry(d boundaryDraft, branch []*engine.Entry, byID func(string) (*engine.Entry, bool)) (*engine.Entry, error) {
	switch d.Type {
	case engine.EntryCustom:
		e := &engine.Entry{Type: engine.EntryCustom, CustomType: d.CustomType}
		if len(d.Data) > 0 && string(d.Data) != "null" {
			e.Data = d.Data
		}
		return e, nil
	case engine.EntryCustomMessage:
		var c engine.Contents
		if json.Unmarshal(d.Content, &c) != nil {
			return nil, errors.New("invalid custom_message content")
		}
		return &engine.Entry{Type: engine.EntryCustomMessage, CustomType: d.CustomType, Content: &c,
			Display: d.Display == nil || *d.Display, Details: d.Details}, nil
	case engine.EntryContextEdit:
		return draftContextEdit(d, branch, byID)
	case engine.EntryCompaction:
		fromHook := true
		e := &engine.Entry{Type: engine.EntryCompaction, Summary: d.Summary, TokensBefore: compaction.ProjectedTokens(branch),
			Details: d.Details, FromHook: &fromHook}
		if d.FirstKeptEntryID != nil {
			e.FirstKeptEntryID = *d.FirstKeptEntryID
		}
		if len(d.Usage) > 0 && string(d.Usage) != "null" {
			e.Usage = d.Usage
		}
		e.Timestamp = engine.ISOTime(time.Now())
		if sys := compaction.CurrentSystemMessage(engine.BuildContext(branch).Messages); sys != nil {
			// The compaction carries the prompt and tools in effect, stamped
			// with its own time, as the reference records it.
			c := *sys
			if t, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
				c.Timestamp = t.UnixMilli()
			}
			e.SystemMessage = &c
		}
		return e, nil
	}
	return nil, fmt.Errorf("unsupported boundary entry type %q", d.Type)
}

// draftContextEdit checks a context_edit draft as the reference's
// appendContextEdit does, with its messages, and normalises a string
// replacement of an assistant or tool result to one text block.
func draftContextEdit(d boundaryDraft, branch []*engine.Entry, byID func(string) (*engine.Entry, bool)) (*engine.Entry, error) {
	rep := d.Replacement
	isNull := string(rep) == "null"
	var r struct {
		Content json.RawMessage `json:"content"`
	}
	if !isNull {
		if len(rep) == 0 || rep[0] != '{' || json.Unmarshal(rep, &r) != nil ||
			len(r.Content) == 0 || (r.Content[0] != '"' && r.Content[0] != '[') {
			return nil, errors.New("Context edit replacement must be null or contain string/array content")
		}
	}
	target, ok := byID(d.TargetID)
	if !ok {
		return nil, fmt.Errorf("Entry %s not found", d.TargetID)
	}
	onBranch := false
	for _, e := range branch {
		onBranch = onBranch || e.ID == d.TargetID
	}
	if !onBranch {
		return nil, fmt.Errorf("Entry %s is not on the active branch", d.TargetID)
	}
	role := ""
	if target.Type == engine.EntryMessage && target.Message != nil {
		role = target.Message.Role
	}
	editable := target.Type == engine.EntryCustomMessage ||
		role == engine.RoleUser || role == engine.RoleAssistant || role == engine.RoleToolResult
	if !editable {
		return nil, fmt.Errorf("Entry %s does not contribute editable model content", d.TargetID)
	}
	e := &engine.Entry{Type: engine.EntryContextEdit, TargetID: d.TargetID, Replacement: json.RawMessage("null")}
	if !isNull {
		e.Replacement = rep
		if (role == engine.RoleAssistant || role == engine.RoleToolResult) && r.Content[0] == '"' {
			var text string
			_ = json.Unmarshal(r.Content, &text)
			b, err := engine.MarshalJSON(map[string]any{"content": []engine.Content{engine.TextContent(text)}})
			if err != nil {
				return nil, err
			}
			e.Replacement = b
		}
	}
	return e, nil
}

// previewID is an id for a draft in a preview; the committed entry gets
// the store's own.
func previewID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// previewBranch is the branch as it would read with the drafts appended,
// or the first draft's error.
func previewBranch(s *engine.Session, drafts boundaryDrafts) ([]*engine.Entry, error) {
	var branch []*engine.Entry
	if s != nil {
		branch = s.Store().Branch()
	}
	if len(drafts) == 0 {
		return branch, nil
	}
	branch = append([]*engine.Entry(nil), branch...)
	added := map[string]*engine.Entry{}
	byID := func(id string) (*engine.Entry, bool) {
		if e, ok := added[id]; ok {
			return e, true
		}
		if s == nil {
			return nil, false
		}
		return s.Store().Get(id)
	}
	for _, d := range drafts {
		e, err := draftEntry(d, branch, byID)
		if err != nil {
			return nil, err
		}
		e.ID = previewID()
		if len(branch) > 0 {
			p := branch[len(branch)-1].ID
			e.ParentID = &p
		}
		if e.Timestamp == "" {
			e.Timestamp = engine.ISOTime(time.Now())
		}
		if e.Type == engine.EntryCompaction && e.FirstKeptEntryID == "" {
			e.FirstKeptEntryID = e.ID
		}
		added[e.ID] = e
		branch = append(branch, e)
	}
	return branch, nil
}

// projectedEntry is one entry of a boundary context: the entry and the
// messages it contributes, the reference's ProjectedSessionEntry.
type projectedEntry struct {
	SourceEntry *engine.Entry     `json:"sourceEntry"`
	Messages    []*engine.Message `json:"messages"`
}

// boundaryPreview is a boundary event's context with the drafts applied,
// as the reference rebuilds it for each handler: the projected entries,
// their messages, what the model would be sent (custom messages and
// summaries as user messages) and whether a continuation would have
// anything to answer.
func boundaryPreview(s *engine.Session, typ string, drafts boundaryDrafts) (ordered, error) {
	branch, err := previewBranch(s, drafts)
	if err != nil {
		return nil, err
	}
	proj := engine.ProjectContext(branch)
	entries := make([]projectedEntry, 0, len(proj))
	msgs := []*engine.Message{}
	for _, ce := range proj {
		m := ce.Messages
		if m == nil {
			m = []*engine.Message{}
		}
		entries = append(entries, projectedEntry{SourceEntry: ce.Entry, Messages: m})
		msgs = append(msgs, ce.Messages...)
	}
	llm := engine.ConvertToLLM(msgs)
	return ordered{{"contextEntries", entries}, {"contextMessages", msgs}, {"llmMessages", llm},
		{"pendingMessages", []any{}}, {"canContinue", canContinueWith(s, typ, llm)}}, nil
}

// canContinueWith is the reference's test for a boundary continuation:
// the context has something besides system messages and does not end
// with the model's answer, or queued messages will give the next request
// (at turn_end always; before settling only after an answer).
func canContinueWith(s *engine.Session, typ string, llm []*engine.Message) bool {
	final, nonSystem := "", false
	for _, m := range llm {
		nonSystem = nonSystem || m.Role != engine.RoleSystem
	}
	if len(llm) > 0 {
		final = llm[len(llm)-1].Role
	}
	if nonSystem && final != engine.RoleAssistant {
		return true
	}
	queued := s != nil && s.PendingCount() > 0
	if typ == "turn_end" {
		return queued
	}
	return final == engine.RoleAssistant && queued
}

// boundaryContext is the context a boundary event starts with.
func boundaryContext(s *engine.Session, typ string) ordered {
	c, err := boundaryPreview(s, typ, nil)
	if err != nil {
		// Without drafts there is nothing to refuse.
		return ordered{{"contextEntries", []any{}}, {"contextMessages", []any{}}, {"llmMessages", []any{}},
			{"pendingMessages", []any{}}, {"canContinue", false}}
	}
	return c
}

// previewJSON is G.boundaryPreview: the JS dispatcher rebuilds the
// context after each handler from the entries proposed so far; an error
// is the reference's reason for refusing them.
func (a *API) previewJSON(typ, drafts string) (string, error) {
	var ds boundaryDrafts
	if err := json.Unmarshal([]byte(drafts), &ds); err != nil {
		return "", fmt.Errorf("boundary entries must be an array of entry drafts: %w", err)
	}
	c, err := boundaryPreview(a.session(), typ, ds)
	if err != nil {
		return "", err
	}
	b, err := engine.MarshalJSON(c)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// textNoContinuation is the reference's error for a continuation request
// with nothing for the model to answer.
// (prefixed with the event's name).
const textNoContinuation = " requested continuation without runnable model context"

// boundary dispatches a boundary event (turn_end, agent_before_settle),
// commits the drafts its handlers settled on, in order, and reports
// whether the agent should make one more request. The JS dispatcher has
// already checked the drafts against the session (and dropped them all
// when the last check failed); a draft that still fails here is reported
// and the rest are committed, as the reference's persistence is not
// transactional.
func (a *API) boundary(ctx context.Context, typ string, fields []Field, completed bool) bool {
	s := a.session()
	out, err := a.dispatch(ctx, typ, orderedEvent(typ, fields))
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			a.reportError("", typ, err.Error())
		}
		return false
	}
	if out == "" || s == nil {
		return false
	}
	var r struct {
		Entries  boundaryDrafts `json:"entries"`
		Continue bool           `json:"continue"`
	}
	if json.Unmarshal([]byte(out), &r) != nil {
		return false
	}
	for _, d := range r.Entries {
		e, err := draftEntry(d, s.Store().Branch(), s.Store().Get)
		if err != nil {
			a.reportError("<boundary>", typ, err.Error())
			continue
		}
		if err := a.commitDraft(s, typ, e); err != nil {
			a.reportError("<boundary>", typ, err.Error())
		}
	}
	cont := r.Continue && completed
	if cont {
		c, _ := boundaryPreview(s, typ, nil)
		can := false
		for _, f := range c {
			if f.Key == "canContinue" {
				can, _ = f.Value.(bool)
			}
		}
		if !can {
			a.reportError("<boundary>", typ, typ+textNoContinuation)
			cont = false
		}
	}
	if cont && typ == "turn_end" {
		// The loop makes one more request even when the turn would end
		// the run.
		s.ContinueAfterTurn()
	}
	return cont
}

// commitDraft appends one checked draft entry to the session.
func (a *API) commitDraft(s *engine.Session, typ string, e *engine.Entry) error {
	switch e.Type {
	case engine.EntryCustom:
		return s.AppendEntry(e)
	case engine.EntryCustomMessage:
		// Between runs (before settle) the next run starts from the
		// rebuilt context; mid-run the entry joins the loop's next
		// request.
		record := s.RecordBoundaryMessage
		if typ == "agent_before_settle" {
			record = s.AppendCustomMessageEntry
		}
		return record(e.CustomType, *e.Content, e.Display, e.Details)
	}
	return s.AppendBoundaryEntry(e)
}
