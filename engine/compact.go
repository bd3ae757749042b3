package engine

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/pi-go/pi/internal/jsonx"
)

// compactionState is the session's compaction bookkeeping, guarded by
// Session.mu.
type compactionState struct {
	// running is set while any compaction runs; manual marks a manual one,
	// which refuses new prompts.
	running bool
	manual  bool
	// cancel stops the running compaction (abort).
	cancel context.CancelFunc
	// ended, set while a manual compaction runs, is closed once it has
	// published compaction_end and returned, so that an abort answers
	// only then, as the reference's abort waits for idle.
	ended chan struct{}
	// overflowTried is set once a run spent its one compact-and-retry.
	overflowTried bool
}

// compactionSettings returns the settings in effect for the session's
// current model: its compaction.modelOverrides entry over the global
// values, resolved now because the model can change mid-session.
func (s *Session) compactionSettings() CompactionSettings {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := CompactionSettings{
		Enabled:          s.settings.AutoCompaction,
		ReserveTokens:    s.settings.CompactionReserveTokens,
		KeepRecentTokens: s.settings.CompactionKeepRecentTokens,
	}
	if s.model != nil {
		if ov, ok := s.settings.CompactionModelOverrides[s.model.Ref()]; ok {
			if ov.ReserveTokens != nil {
				out.ReserveTokens = *ov.ReserveTokens
			}
			if ov.KeepRecentTokens != nil {
				out.KeepRecentTokens = *ov.KeepRecentTokens
			}
		}
	}
	return out
}

// IsCompacting reports whether a compaction is running.
func (s *Session) IsCompacting() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmp.running
}

// beginCompaction marks a compaction running under a cancellable context.
func (s *Session) beginCompaction(parent context.Context, manual bool) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	s.mu.Lock()
	s.cmp.running, s.cmp.manual, s.cmp.cancel = true, manual, cancel
	s.mu.Unlock()
	return ctx, func() {
		cancel()
		s.mu.Lock()
		s.cmp.running, s.cmp.manual, s.cmp.cancel = false, false, nil
		s.mu.Unlock()
	}
}

// abortCompaction cancels a running compaction, if any, and waits for a
// manual one to end (compaction_end published). Callers inside the
// compaction (an extension's ctx.abort) abort from another goroutine.
func (s *Session) abortCompaction() {
	s.mu.Lock()
	cancel, ended := s.cmp.cancel, s.cmp.ended
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if ended != nil {
		<-ended
	}
}

// Compact compacts the session now (RPC compact, /compact). It aborts a
// running agent first, never retries anything, and returns the result
// that compaction_end also carries. Errors are the reasons clients see.
func (s *Session) Compact(ctx context.Context, customInstructions string) (*CompactionResult, error) {
	s.Abort()
	ended := make(chan struct{})
	s.mu.Lock()
	s.cmp.ended = ended
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.cmp.ended == ended {
			s.cmp.ended = nil
		}
		s.mu.Unlock()
		close(ended)
	}()
	cctx, done := s.beginCompaction(ctx, true)
	defer done()
	s.publish(CompactionStart{Reason: CompactionManual})
	res, err := s.compactManual(cctx, customInstructions)
	if err != nil {
		aborted := cctx.Err() != nil || errors.Is(err, errCancelledByExtension)
		end := CompactionEnd{Reason: CompactionManual, Aborted: aborted}
		if aborted {
			err = ErrCompactionCancelled
		} else {
			end.ErrorMessage = "Compaction failed: " + err.Error()
		}
		done()
		s.publish(end)
		s.compactFailed(ctx, end, err)
		return nil, err
	}
	done()
	s.publish(CompactionEnd{Reason: CompactionManual, Result: mustJSON(res)})
	return res, nil
}

func (s *Session) compactManual(ctx context.Context, customInstructions string) (*CompactionResult, error) {
	s.mu.Lock()
	model := s.model
	s.mu.Unlock()
	if model == nil {
		return nil, ErrNoModel
	}
	if s.opts.Compactor == nil {
		return nil, errNoCompactor
	}
	branch := s.store.Branch()
	prep, err := s.opts.Compactor.Prepare(branch, s.compactionSettings())
	if err != nil {
		return nil, err
	}
	return s.summarizeAndRecord(ctx, model, prep, branch, CompactionManual, customInstructions, false)
}

// summarizeAndRecord generates the summary of a plan, appends the
// compaction entry and rebuilds the transcript from the branch.
// The extensions' session_before_compact handlers may cancel it or supply
// the compaction themselves; session_compact follows a saved entry and
// session_compact_failed any failure (see compactFailed).
func (s *Session) summarizeAndRecord(ctx context.Context, model *Model, prep *CompactionPreparation, branch []*Entry, reason, customInstructions string, willRetry bool) (*CompactionResult, error) {
	sh := s.hooks
	var ext *ExtensionCompaction
	{
		r := sh.BeforeCompact(ctx, BeforeCompactEvent{Preparation: prep, BranchEntries: branch,
			CustomInstructions: customInstructions, Reason: reason, WillRetry: willRetry})
		if r != nil && r.Cancel {
			return nil, errCancelledByExtension
		}
		if r != nil {
			ext = r.Compaction
		}
	}
	var sum *Summary
	firstKept, tokensBefore := prep.FirstKeptEntryID, prep.TokensBefore
	if ext != nil {
		sum = &Summary{Text: ext.Summary, Details: ext.Details}
		firstKept, tokensBefore = ext.FirstKeptEntryID, ext.TokensBefore
	} else {
		provider, apiKey, err := s.resolveProvider(model)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		retry, thinking := s.settings.Retry, s.thinking
		s.mu.Unlock()
		sum, err = s.opts.Compactor.Summarize(ctx, prep, SummaryRequest{
			Provider: withHeaderHooks(s.hooks, provider), Model: model, APIKey: apiKey, ThinkingLevel: thinking,
			CustomInstructions: customInstructions, Retry: retry, Sleep: s.sleep,
			Source: "compaction", Reason: reason, Emit: s.publish,
		})
		if err != nil {
			return nil, err
		}
	}
	if ctx.Err() != nil {
		return nil, ErrCompactionCancelled
	}
	fromHook := ext != nil
	e := &Entry{
		Type: EntryCompaction, Summary: sum.Text, FirstKeptEntryID: firstKept,
		TokensBefore: tokensBefore, Details: sum.Details, FromHook: &fromHook, SystemMessage: prep.SystemMessage,
	}
	switch {
	case sum.Usage != nil:
		e.Usage = mustJSON(*sum.Usage)
	case ext != nil && len(ext.Usage) > 0 && string(ext.Usage) != "null":
		e.Usage = ext.Usage
		var u Usage
		if json.Unmarshal(ext.Usage, &u) == nil {
			sum.Usage = &u
		}
	}
	if err := s.store.Append(e); err != nil {
		return nil, err
	}
	s.Reload()
	if sh != nil {
		sh.Compacted(ctx, e, fromHook, reason, willRetry)
	}
	return &CompactionResult{
		Summary: sum.Text, FirstKeptEntryID: firstKept, TokensBefore: tokensBefore,
		EstimatedTokensAfter: s.opts.Compactor.MessagesTokens(s.Messages()), Usage: sum.Usage, Details: sum.Details,
	}, nil
}

// errCancelledByExtension is a compaction a session_before_compact handler
// cancelled; it reads as the reference's "Compaction cancelled" and
// counts as aborted.
var errCancelledByExtension = &cancelledError{}

type cancelledError struct{}

func (*cancelledError) Error() string { return ErrCompactionCancelled.Error() }

// compactFailed runs session_compact_failed after a failed compaction.
func (s *Session) compactFailed(ctx context.Context, end CompactionEnd, err error) {
	s.hooks.CompactFailed(ctx, CompactFailedEvent{Reason: end.Reason, ErrorMessage: end.ErrorMessage, Aborted: end.Aborted,
		WillRetry: false, FromExtension: false})
}

// autoCompact runs a threshold or overflow compaction. Nothing is
// announced when there is nothing to compact. It reports whether the run
// should continue: after an overflow compaction that retries, or when
// messages wait in the queues.
func (s *Session) autoCompact(ctx context.Context, reason string, willRetry bool) bool {
	s.mu.Lock()
	model := s.model
	s.mu.Unlock()
	if model == nil || s.opts.Compactor == nil {
		return false
	}
	branch := s.store.Branch()
	prep, err := s.opts.Compactor.Prepare(branch, s.compactionSettings())
	if err != nil {
		return false
	}
	cctx, done := s.beginCompaction(ctx, false)
	defer done()
	s.publish(CompactionStart{Reason: reason})
	res, err := s.summarizeAndRecord(cctx, model, prep, branch, reason, "", willRetry)
	if err != nil {
		aborted := cctx.Err() != nil || errors.Is(err, errCancelledByExtension)
		end := CompactionEnd{Reason: reason, Aborted: aborted}
		if !aborted {
			if reason == CompactionOverflow {
				end.ErrorMessage = "Context overflow recovery failed: " + err.Error()
			} else {
				end.ErrorMessage = "Auto-compaction failed: " + err.Error()
			}
		}
		done()
		s.publish(end)
		s.compactFailed(ctx, end, err)
		return false
	}
	done()
	s.publish(CompactionEnd{Reason: reason, Result: mustJSON(res), WillRetry: willRetry})
	if willRetry {
		return true
	}
	return s.steering.len() > 0 || s.followUp.len() > 0
}

// checkCompaction decides, after a run or before a prompt, whether the
// last assistant message calls for a compaction: an overflow (compact and
// retry once, or compact only when the reply itself succeeded), else the
// threshold. It reports whether the run should continue.
func (s *Session) checkCompaction(ctx context.Context, m *Message, skipAborted bool) bool {
	settings := s.compactionSettings()
	if !settings.Enabled || m == nil || s.opts.Compactor == nil {
		return false
	}
	if skipAborted && m.StopReason == StopAborted {
		return false
	}
	model := s.UsageModel()
	if model == nil {
		return false
	}
	sameModel := m.Provider == model.Provider && m.Model == model.ID
	window := model.ContextWindow
	branch := s.store.Branch()
	entryID, at := "", -1
	for i, e := range branch {
		if e.Type == EntryMessage && e.Message == m {
			entryID, at = e.ID, i
		}
	}
	// A message from before the latest compaction has already been dealt
	// with; its stale usage must not trigger another one. Position in the
	// branch decides; timestamps only when the message is not stored,
	// because a fast retry can share the compaction's millisecond.
	for i := len(branch) - 1; i >= 0; i-- {
		if branch[i].Type == EntryCompaction {
			if at >= 0 {
				if at < i {
					return false
				}
			} else if ts, err := time.Parse(time.RFC3339Nano, branch[i].Timestamp); err == nil && m.Timestamp < ts.UnixMilli() {
				return false
			}
			break
		}
	}
	proj := ProjectContext(branch)
	projected := entryID == ""
	hasEdits := false
	for _, ce := range proj {
		if ce.Entry.ID == entryID && len(ce.Messages) > 0 {
			projected = true
		}
		if ce.Entry.Type == EntryContextEdit {
			hasEdits = true
		}
	}
	var after []*Entry
	if at >= 0 {
		after = branch[at+1:]
	}
	postEdit, compactedAfter := false, false
	var lastEdit *Entry
	for _, e := range after {
		switch e.Type {
		case EntryContextEdit:
			postEdit = true
			if e.TargetID == entryID {
				lastEdit = e
			}
		case EntryCompaction:
			compactedAfter = true
		}
	}
	retained := entryID == "" || (!compactedAfter && (lastEdit == nil || (len(lastEdit.Replacement) > 0 && string(lastEdit.Replacement) != "null")))
	explicit := m.StopReason == StopError && IsContextOverflow(m, 0)
	overflow := sameModel && ((explicit && retained) || (projected && !postEdit && IsContextOverflow(m, window)))
	length := sameModel && projected && IsRecoverableLength(m, model.MaxTokens)
	if overflow || length {
		if m.StopReason == StopStop {
			return s.autoCompact(ctx, CompactionOverflow, false)
		}
		s.mu.Lock()
		tried := s.cmp.overflowTried
		s.cmp.overflowTried = true
		s.mu.Unlock()
		if tried {
			text := textOverflowRecoveryFailed
			if !overflow {
				text = textTruncatedRecoveryFailed
			}
			s.publish(CompactionEnd{Reason: CompactionOverflow, ErrorMessage: text})
			return false
		}
		s.omitAttempt(m)
		return s.autoCompact(ctx, CompactionOverflow, true)
	}
	var tokens int
	direct := UsageContextTokens(m.Usage)
	switch {
	case hasEdits:
		tokens = s.opts.Compactor.ProjectedTokens(branch)
	case m.StopReason == StopError || direct == 0:
		msgs := s.Messages()
		est, last := s.opts.Compactor.ContextTokens(msgs)
		if last >= 0 && msgs[last].Role == RoleAssistant && compactionBefore(branch, msgs[last].Timestamp) {
			return false
		}
		tokens = est
	default:
		tokens = direct
	}
	if tokens > window-settings.ReserveTokens {
		return s.autoCompact(ctx, CompactionThreshold, false)
	}
	return false
}

// compactionBefore reports whether the latest compaction of the branch is
// no older than a message timestamp.
func compactionBefore(branch []*Entry, ts int64) bool {
	for i := len(branch) - 1; i >= 0; i-- {
		if branch[i].Type == EntryCompaction {
			t, err := time.Parse(time.RFC3339Nano, branch[i].Timestamp)
			return err == nil && ts <= t.UnixMilli()
		}
	}
	return false
}

// omitAttempt hides a failed attempt and the results of its tool calls
// from the model's context before recovery compaction.
func (s *Session) omitAttempt(m *Message) {
	ids := map[string]bool{}
	for _, c := range m.ToolCalls() {
		ids[c.ID] = true
	}
	targets := []*Message{m}
	msgs := s.Messages()
	for i, x := range msgs {
		if x != m {
			continue
		}
		for _, r := range msgs[i+1:] {
			if r.Role == RoleAssistant {
				break
			}
			if r.Role == RoleToolResult && ids[r.ToolCallID] {
				targets = append(targets, r)
			}
		}
		break
	}
	for _, t := range targets {
		s.omitFailed(t)
	}
}

// compactBetweenTurns is the loop's check after tool results, before the
// next turn: over the threshold it compacts and returns the rebuilt
// transcript for the next request, else nil.
func (s *Session) compactBetweenTurns(ctx context.Context) []*Message {
	settings := s.compactionSettings()
	model := s.UsageModel()
	if !settings.Enabled || s.opts.Compactor == nil || model == nil || model.ContextWindow <= 0 {
		return nil
	}
	if s.opts.Compactor.ProjectedTokens(s.store.Branch()) <= model.ContextWindow-settings.ReserveTokens {
		return nil
	}
	s.autoCompact(ctx, CompactionThreshold, false)
	return s.Messages()
}

// compactBeforePrompt runs the check before a new prompt, against the last
// assistant message of the transcript (aborted ones included).
func (s *Session) compactBeforePrompt(ctx context.Context) {
	msgs := s.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == RoleAssistant {
			s.checkCompaction(ctx, msgs[i], false)
			return
		}
	}
}

// resetOverflow re-arms overflow recovery: a new user message or a reply
// that neither failed nor hit the length limit.
func (s *Session) resetOverflow(m *Message) {
	if m.Role == RoleUser || (m.Role == RoleAssistant && m.StopReason != StopError && m.StopReason != StopLength) {
		s.mu.Lock()
		s.cmp.overflowTried = false
		s.mu.Unlock()
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := MarshalJSON(v)
	if err != nil {
		return nil
	}
	return b
}

// replayedSystemMessage writes a compaction entry's systemMessage. That
// message is the replay of every system message before the cut, which the
// reference builds as a fresh object whose tool declarations come before
// its timestamp (role, content, sections, toolsAdded, timestamp), unlike a
// recorded system message; extensions and session files see that order.
type replayedSystemMessage struct{ m *Message }

// MarshalJSON implements json.Marshaler.
func (r replayedSystemMessage) MarshalJSON() ([]byte, error) {
	m := r.m
	if m == nil || m.Role != RoleSystem {
		return MarshalJSON(m)
	}
	o := jsonx.NewBuilder().Set("role", m.Role).Set("content", m.Content.Text())
	if m.Sections != nil {
		o.Set("sections", m.Sections)
	}
	if len(m.ToolsAdded) > 0 {
		o.Set("toolsAdded", m.ToolsAdded)
	}
	if m.ToolsRemoved != nil {
		o.Set("toolsRemoved", m.ToolsRemoved)
	}
	return o.Set("timestamp", m.Timestamp).Bytes()
}
