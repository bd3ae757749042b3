package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// This file holds the session operations the extension API (pi.*) needs
// beyond what the RPC commands use. They are additive helpers over the
// runtime's state; none of them runs hooks synchronously on the caller's
// behalf except SendCustom when it starts a run.

// AppendEntry stores a non-message entry (custom, label, session_info) and
// announces it with entry_appended, as the reference does for entries that
// extensions append.
func (s *Session) AppendEntry(e *Entry) error {
	if err := s.store.Append(e); err != nil {
		return fmt.Errorf("append %s entry: %w", e.Type, err)
	}
	s.notify(EntryAppended{Entry: e})
	return nil
}

// SendCustom delivers an extension's custom message as the reference's
// sendCustomMessage does:
//   - deliverAs "nextTurn" always waits for the next run's start, where it
//     follows the starting message;
//   - during a run, unless triggerTurn is explicitly false, it is queued as
//     a steering message (a follow-up for deliverAs "followUp"), hidden
//     from queue_update and pendingMessageCount;
//   - during a run with triggerTurn false it is held until the current
//     turn ends, so that it never lands between a tool call and its
//     result, and is then recorded without starting anything;
//   - while idle, triggerTurn starts a run with it as the starting
//     message, and otherwise it is recorded at once.
func (s *Session) SendCustom(m *Message, deliverAs string, triggerTurn *bool) error {
	if m.Timestamp == 0 {
		m.Timestamp = s.now().UnixMilli()
	}
	s.mu.Lock()
	streaming := s.streaming
	if deliverAs == "nextTurn" {
		s.nextTurn = append(s.nextTurn, m)
		s.mu.Unlock()
		return nil
	}
	if streaming && triggerTurn != nil && !*triggerTurn {
		s.pendingCustom = append(s.pendingCustom, m)
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	if streaming {
		if deliverAs == "followUp" {
			s.followUp.pushHidden(m)
		} else {
			s.steering.pushHidden(m)
		}
		return nil
	}
	if triggerTurn == nil || !*triggerTurn {
		s.appendCustomMessage(m)
		return nil
	}
	s.mu.Lock()
	if s.settleWait != nil {
		// agent_settled is being delivered: the run starts after it.
		s.deferred = append(s.deferred, func() {
			if err := s.SendCustom(m, deliverAs, triggerTurn); err != nil {
				s.publish(ExtensionError{ExtensionPath: "<runtime>", Event: "send_message", Error: err.Error()})
			}
		})
		s.mu.Unlock()
		return nil
	}
	model := s.model
	s.mu.Unlock()
	if model == nil {
		return ErrNoModel
	}
	provider, apiKey, err := s.resolveProvider(model)
	if err != nil {
		return err
	}
	s.startRun(func(ctx context.Context) {
		s.compactBeforePrompt(ctx)
		s.runCustom(ctx, provider, apiKey, m)
	})
	return nil
}

// runCustom is runPrompt for a run started by a custom message: the
// handlers' messages and the nextTurn ones follow it.
func (s *Session) runCustom(ctx context.Context, provider Provider, apiKey string, m *Message) {
	s.beginRun(ctx, provider, apiKey, m, func(sysText string) *BeforeAgentStartResult {
		res, err := s.hooks.BeforeAgentStartCustom(ctx, m, sysText)
		if err != nil {
			return nil
		}
		return res
	})
}

// messageEntry is the session entry that records a message: an
// extension's custom message is a custom_message entry, as the reference
// writes it, and everything else a message entry.
func messageEntry(m *Message) *Entry {
	if m.Role == RoleCustom {
		content := m.Content
		return &Entry{Type: EntryCustomMessage, CustomType: m.CustomType, Content: &content, Display: m.Display,
			DisplayOmitted: m.DisplayOmitted, Details: m.Details}
	}
	return &Entry{Type: EntryMessage, Message: m}
}

// flushPendingCustom records the custom messages held during a run (see
// SendCustom), each announced to listeners with message_start and
// message_end. Mid-run (rebuild) the loop's next request is built from
// the transcript that now holds them.
func (s *Session) flushPendingCustom(rebuild bool) {
	s.mu.Lock()
	pending := s.pendingCustom
	s.pendingCustom = nil
	if rebuild && len(pending) > 0 {
		s.bnd.rebuild = true
	}
	s.mu.Unlock()
	for _, m := range pending {
		s.appendCustomMessage(m)
	}
}

// takeNextTurn returns and clears the custom messages queued for the next
// prompt.
func (s *Session) takeNextTurn() []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.nextTurn
	s.nextTurn = nil
	return out
}

// PendingCount is the number of queued steering and follow-up messages,
// extensions' custom messages included: whether the agent has more to do.
func (s *Session) PendingCount() int { return s.steering.len() + s.followUp.len() }

// PendingMessageCount is the number of the user's queued messages, as
// get_state and pi.hasPendingMessages report it (extensions' custom
// messages are not counted, as in the reference).
func (s *Session) PendingMessageCount() int {
	return s.steering.visibleLen() + s.followUp.visibleLen()
}

// Errors of tree navigation whose text the reference uses.
var (
	ErrNavigateStreaming  = errors.New("Wait for the current response to finish before navigating the session tree.")
	ErrNavigateCompacting = errors.New("Wait for the current compaction or tree navigation to finish before navigating the session tree.")
)

// NavigateOptions are ctx.navigateTree's options.
type NavigateOptions struct {
	// Summarize asks for a branch_summary entry of the abandoned branch.
	Summarize           bool
	CustomInstructions  *string
	ReplaceInstructions *bool
	Label               *string
}

// NavigateResult is ctx.navigateTree's answer.
type NavigateResult struct {
	Cancelled bool
	// Aborted reports a summary request cancelled by an abort.
	Aborted    bool
	EditorText *string
	// SummaryEntry is the branch_summary entry written, if any.
	SummaryEntry *Entry
}

// ErrNoSummaryModel is the reference's refusal to summarise without a
// model.
var ErrNoSummaryModel = errors.New("No model available for summarization")

// BranchSummarizer is the optional part of a Compactor that writes the
// summary of a branch the user navigates away from (engine/compaction
// implements it).
type BranchSummarizer interface {
	SummarizeBranch(ctx context.Context, entries []*Entry, req SummaryRequest, opts BranchSummaryOptions) (*BranchSummary, error)
}

// BranchSummaryOptions qualify a branch summary request.
type BranchSummaryOptions struct {
	CustomInstructions string
	// ReplaceInstructions uses CustomInstructions instead of the default
	// instructions rather than in addition to them.
	ReplaceInstructions bool
	// ReserveTokens is kept free of the model's window (0 = default).
	ReserveTokens int
}

// BranchSummary is a generated branch summary.
type BranchSummary struct {
	Summary string
	Usage   *Usage
	// Details is {readFiles, modifiedFiles}.
	Details json.RawMessage
	// Aborted reports a cancelled request; nothing is recorded then.
	Aborted bool
}

// BeforeTreeOutcome is everything "session_before_tree" handlers may
// return. Summary is used only when the caller asked for a summary.
type BeforeTreeOutcome struct {
	Cancel              bool
	Summary             *ExtensionBranchSummary
	CustomInstructions  *string
	ReplaceInstructions *bool
	Label               *string
}

// ExtensionBranchSummary is a branch summary an extension supplied.
type ExtensionBranchSummary struct {
	Summary string
	Details json.RawMessage
	Usage   json.RawMessage
}

// NavigateTree moves the leaf to targetID as the reference's /tree does:
// a user or custom message puts the leaf on its parent and returns its
// text for the editor; any other entry becomes the leaf. The
// session_before_tree handlers may cancel, relabel, change the summary
// instructions or supply the summary. With Summarize, the abandoned
// branch is summarised into a branch_summary entry at the new leaf (the
// label then goes on it); session_tree follows. The navigation counts
// as a compaction while it runs, so prompts wait and abort cancels it.
func (s *Session) NavigateTree(ctx context.Context, targetID string, opts NavigateOptions) (NavigateResult, error) {
	if s.IsStreaming() {
		return NavigateResult{}, ErrNavigateStreaming
	}
	if s.IsCompacting() {
		return NavigateResult{}, ErrNavigateCompacting
	}
	oldLeaf := s.store.LeafID()
	if targetID == oldLeaf {
		return NavigateResult{}, nil
	}
	s.mu.Lock()
	model, thinking, retry := s.model, s.thinking, s.settings.Retry
	s.mu.Unlock()
	if opts.Summarize && model == nil {
		return NavigateResult{}, ErrNoSummaryModel
	}
	target, ok := s.store.Get(targetID)
	if !ok {
		return NavigateResult{}, fmt.Errorf("Entry %s not found", targetID)
	}
	runCtx, done := s.beginCompaction(ctx, true)
	defer done()
	label, custom, replace := opts.Label, opts.CustomInstructions, opts.ReplaceInstructions
	var ext *ExtensionBranchSummary
	common, abandoned := s.abandonedBranch(oldLeaf, targetID)
	{
		sh := s.hooks
		prep := TreePreparation{TargetID: targetID, OldLeafID: oldLeaf, CommonAncestorID: common, EntriesToSummarize: abandoned,
			UserWantsSummary: opts.Summarize, CustomInstructions: opts.CustomInstructions, ReplaceInstructions: opts.ReplaceInstructions, Label: opts.Label}
		if r := sh.BeforeTree(runCtx, prep); r != nil {
			if r.Cancel {
				return NavigateResult{Cancelled: true}, nil
			}
			if r.Summary != nil && opts.Summarize {
				ext = r.Summary
			}
			if r.CustomInstructions != nil {
				custom = r.CustomInstructions
			}
			if r.ReplaceInstructions != nil {
				replace = r.ReplaceInstructions
			}
			if r.Label != nil {
				label = r.Label
			}
		}
	}
	var summary *Entry
	switch {
	case ext != nil:
		summary = &Entry{Type: EntryBranchSummary, Summary: ext.Summary, Details: ext.Details, Usage: ext.Usage}
	case opts.Summarize && len(abandoned) > 0:
		sum, err := s.summarizeBranch(runCtx, abandoned, model, thinking, retry, custom, replace)
		if err != nil {
			return NavigateResult{}, err
		}
		if sum.Aborted {
			return NavigateResult{Cancelled: true, Aborted: true}, nil
		}
		summary = &Entry{Type: EntryBranchSummary, Summary: sum.Summary, Details: sum.Details}
		if sum.Usage != nil {
			summary.Usage = mustJSON(*sum.Usage)
		}
	}
	newLeaf := targetID
	var editor *string
	switch {
	case target.Type == EntryMessage && target.Message != nil && target.Message.Role == RoleUser:
		newLeaf = parentOf(target)
		t := joinText(target.Message.Content.Blocks)
		editor = &t
	case target.Type == EntryCustomMessage:
		newLeaf = parentOf(target)
		t := ""
		if target.Content != nil {
			t = joinText(target.Content.Blocks)
		}
		editor = &t
	}
	if err := s.store.SetLeaf(newLeaf); err != nil {
		return NavigateResult{}, fmt.Errorf("navigate: %w", err)
	}
	labelTarget := targetID
	if summary != nil && summary.Summary != "" {
		// The summary hangs at the new leaf and remembers where the user
		// came from ("root" for an empty session, as the reference).
		summary.FromID = oldLeaf
		if summary.FromID == "" {
			summary.FromID = "root"
		}
		fromHook := ext != nil
		summary.FromHook = &fromHook
		if err := s.store.Append(summary); err != nil {
			return NavigateResult{}, fmt.Errorf("append branch_summary entry: %w", err)
		}
		labelTarget = summary.ID
	} else {
		summary = nil
	}
	if label != nil && *label != "" {
		if err := s.store.Append(&Entry{Type: EntryLabel, TargetID: labelTarget, Label: label}); err != nil {
			return NavigateResult{}, fmt.Errorf("append label entry: %w", err)
		}
	}
	s.Reload()
	done()
	s.hooks.Tree(ctx, s.store.LeafID(), oldLeaf, summary, ext != nil)
	return NavigateResult{EditorText: editor, SummaryEntry: summary}, nil
}

// summarizeBranch asks the compactor for the summary of abandoned
// entries with the session's model, thinking level and retry policy.
func (s *Session) summarizeBranch(ctx context.Context, entries []*Entry, model *Model, thinking ThinkingLevel, retry RetrySettings, custom *string, replace *bool) (*BranchSummary, error) {
	bs, ok := s.opts.Compactor.(BranchSummarizer)
	if !ok {
		return nil, errNoCompactor
	}
	provider, apiKey, err := s.resolveProvider(model)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	o := BranchSummaryOptions{ReserveTokens: s.settings.BranchSummaryReserveTokens}
	s.mu.Unlock()
	if custom != nil {
		o.CustomInstructions = *custom
	}
	if replace != nil {
		o.ReplaceInstructions = *replace
	}
	// The summary request carries the before_provider_headers hooks, as
	// the reference's summary goes through the session's request options
	// (an extension's complete() and stream() do not).
	return bs.SummarizeBranch(ctx, entries, SummaryRequest{
		Provider: withHeaderHooks(s.hooks, provider), Model: model, APIKey: apiKey, ThinkingLevel: thinking,
		Retry: retry, Sleep: s.sleep, Source: "branchSummary", Emit: s.publish,
	}, o)
}

// abandonedBranch returns the deepest common ancestor of two entries and
// the entries from it (exclusive) down to from, root first.
func (s *Session) abandonedBranch(from, to string) (string, []*Entry) {
	onPath := map[string]bool{}
	for id := to; id != ""; {
		onPath[id] = true
		e, ok := s.store.Get(id)
		if !ok {
			break
		}
		id = parentOf(e)
	}
	var out []*Entry
	common := ""
	for id := from; id != ""; {
		if onPath[id] {
			common = id
			break
		}
		e, ok := s.store.Get(id)
		if !ok {
			break
		}
		out = append(out, e)
		id = parentOf(e)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return common, out
}

func parentOf(e *Entry) string {
	if e.ParentID == nil {
		return ""
	}
	return *e.ParentID
}

func joinText(blocks []Content) string {
	var b strings.Builder
	for _, c := range blocks {
		if c.Type == ContentText {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// beforeSettle runs agent_before_settle after a run that was not aborted
// and reports whether the handlers asked for another run.
func (s *Session) beforeSettle(ctx context.Context, last *Message) bool {
	if ctx.Err() != nil {
		return false
	}
	s.mu.Lock()
	aborted := s.aborted
	s.mu.Unlock()
	if aborted || (last != nil && last.StopReason == StopAborted) {
		return false
	}
	outcome := "completed"
	if last != nil && last.StopReason == StopError {
		outcome = "error"
	}
	// Messages that agent_end handlers queued need one more run before
	// the settle boundary runs at all, as in the reference.
	if s.PendingCount() > 0 {
		return true
	}
	cont := s.hooks.BeforeSettle(ctx, outcome)
	s.flushPendingCustom(false)
	return cont || s.PendingCount() > 0
}

// AppendCustomMessageEntry records a custom message drafted at a boundary
// (agent_before_settle) as a custom_message entry, announced only with
// entry_appended as the reference commits boundary drafts, and rebuilds
// the transcript so that the next run's context holds it. It must not be
// called while the loop is mid-run.
func (s *Session) AppendCustomMessageEntry(customType string, content Contents, display bool, details json.RawMessage) error {
	e := &Entry{Type: EntryCustomMessage, CustomType: customType, Content: &content, Display: display, Details: details}
	if err := s.store.Append(e); err != nil {
		return fmt.Errorf("append custom_message entry: %w", err)
	}
	s.Reload()
	s.publish(EntryAppended{Entry: e})
	return nil
}

// boundaryState is what turn_end boundary handlers asked of the running
// loop, guarded by Session.mu.
type boundaryState struct {
	// cont asks for one more request after the current turn.
	cont bool
	// rebuild says entries joined the context mid-run, so the loop's
	// next request starts from the rebuilt transcript.
	rebuild bool
}

// RecordBoundaryMessage records a custom message a boundary handler
// drafted (turn_end, agent_before_settle) as a custom_message entry,
// announced only with entry_appended as the reference commits boundary
// drafts. The transcript is rebuilt, and a running loop takes the new
// context into its next request.
func (s *Session) RecordBoundaryMessage(customType string, content Contents, display bool, details json.RawMessage) error {
	if err := s.AppendCustomMessageEntry(customType, content, display, details); err != nil {
		return err
	}
	s.mu.Lock()
	s.bnd.rebuild = s.streaming
	s.mu.Unlock()
	return nil
}

// AppendBoundaryEntry commits an entry a boundary handler drafted
// (context_edit, compaction) as the reference commits boundary drafts:
// appended, announced only with entry_appended, and the transcript
// rebuilt; a running loop takes the new context into its next request.
func (s *Session) AppendBoundaryEntry(e *Entry) error {
	if err := s.store.Append(e); err != nil {
		return fmt.Errorf("append %s entry: %w", e.Type, err)
	}
	s.Reload()
	s.publish(EntryAppended{Entry: e})
	s.mu.Lock()
	s.bnd.rebuild = s.streaming
	s.mu.Unlock()
	return nil
}

// ContinueAfterTurn makes the running loop send one more request after
// the turn whose turn_end is being handled.
func (s *Session) ContinueAfterTurn() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bnd.cont = true
}

func (s *Session) takeBoundaryContinue() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.bnd.cont
	s.bnd.cont = false
	return c
}

// beforeNextTurn is the loop's check between turns: a compaction, or
// boundary entries, rebuild the context of the next request.
func (s *Session) beforeNextTurn(ctx context.Context) []*Message {
	if rebuilt := s.compactBetweenTurns(ctx); rebuilt != nil {
		return rebuilt
	}
	s.mu.Lock()
	rebuild := s.bnd.rebuild
	s.bnd.rebuild = false
	s.mu.Unlock()
	if rebuild {
		return s.Messages()
	}
	return nil
}
