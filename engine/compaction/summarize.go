package compaction

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/pi-go/pi/engine"
)

// Compactor implements engine.Compactor with the functions of this package.
type Compactor struct{}

var (
	_ engine.Compactor        = Compactor{}
	_ engine.BranchSummarizer = Compactor{}
)

// Prepare calls PrepareCompaction.
func (Compactor) Prepare(branch []*engine.Entry, s engine.CompactionSettings) (*engine.CompactionPreparation, error) {
	return PrepareCompaction(branch, s)
}

// Summarize calls Summarize.
func (Compactor) Summarize(ctx context.Context, prep *engine.CompactionPreparation, req engine.SummaryRequest) (*engine.Summary, error) {
	return Summarize(ctx, prep, req)
}

// ProjectedTokens calls ProjectedTokens.
func (Compactor) ProjectedTokens(branch []*engine.Entry) int { return ProjectedTokens(branch) }

// ContextTokens calls ContextTokens.
func (Compactor) ContextTokens(msgs []*engine.Message) (int, int) { return ContextTokens(msgs) }

// MessagesTokens calls MessagesTokens.
func (Compactor) MessagesTokens(msgs []*engine.Message) int { return MessagesTokens(msgs) }

// Summarize generates the summary of a prepared compaction: one request
// for the history (extending the previous summary when there is one), and
// for a split turn a second one for the turn's prefix, merged below it.
// The file lists are appended to the text and returned as details.
func Summarize(ctx context.Context, prep *engine.CompactionPreparation, req engine.SummaryRequest) (*engine.Summary, error) {
	if prep == nil {
		return nil, ErrNothingToCompact
	}
	var (
		text  string
		usage *engine.Usage
	)
	if prep.IsSplitTurn && len(prep.TurnPrefixMessages) > 0 {
		history := prep.PreviousSummary
		if history == "" {
			history = "No prior history."
		}
		var histUsage *engine.Usage
		if len(prep.MessagesToSummarize) > 0 {
			h, u, err := historySummary(ctx, prep, req)
			if err != nil {
				return nil, err
			}
			history, histUsage = h, u
		}
		p, u, err := turnPrefixSummary(ctx, prep.TurnPrefixMessages, req)
		if err != nil {
			return nil, err
		}
		text = history + splitTurnSeparator + p
		usage = addUsage(histUsage, u)
	} else {
		h, u, err := historySummary(ctx, prep, req)
		if err != nil {
			return nil, err
		}
		text, usage = h, u
	}
	readFiles, modifiedFiles := FileLists(prep.FileOps)
	text += FormatFileOps(readFiles, modifiedFiles)
	details, err := engine.MarshalJSON(fileDetails{ReadFiles: readFiles, ModifiedFiles: modifiedFiles})
	if err != nil {
		return nil, fmt.Errorf("compaction details: %w", err)
	}
	return &engine.Summary{Text: text, Usage: usage, Details: details}, nil
}

// HistoryPrompt is the user message of a history summary request.
func HistoryPrompt(msgs []*engine.Message, previousSummary, customInstructions string) string {
	base := initialPrompt
	if previousSummary != "" {
		base = updatePrompt
	}
	if customInstructions != "" {
		base += "\n\nAdditional focus: " + customInstructions
	}
	p := "<conversation>\n" + SerializeConversation(engine.ConvertToLLM(msgs)) + "\n</conversation>\n\n"
	if previousSummary != "" {
		p += "<previous-summary>\n" + previousSummary + "\n</previous-summary>\n\n"
	}
	return p + base
}

func historySummary(ctx context.Context, prep *engine.CompactionPreparation, req engine.SummaryRequest) (string, *engine.Usage, error) {
	prompt := HistoryPrompt(prep.MessagesToSummarize, prep.PreviousSummary, req.CustomInstructions)
	return request(ctx, req, prompt, "Summarization")
}

func turnPrefixSummary(ctx context.Context, msgs []*engine.Message, req engine.SummaryRequest) (string, *engine.Usage, error) {
	prompt := "# Conversation\n" + SerializeConversation(engine.ConvertToLLM(msgs)) + "\n\n# Instructions\n" + turnPrefixPrompt
	if req.CustomInstructions != "" {
		prompt += "\n\nAdditional focus: " + req.CustomInstructions
	}
	return request(ctx, req, prompt, "Turn prefix summarization")
}

// request makes one summary request (with retries) and checks the reply:
// an error, a length stop (the summary would be cut off) or a tool call
// fails the summary with a message naming label.
func request(ctx context.Context, req engine.SummaryRequest, prompt, label string) (string, *engine.Usage, error) {
	reply := Complete(ctx, req, prompt)
	if err := failure(reply, label); err != nil {
		return "", nil, err
	}
	if len(reply.ToolCalls()) > 0 {
		return "", nil, errors.New(label + " attempted to call a tool")
	}
	u := reply.Usage
	return textOf(reply.Content, "\n"), &u, nil
}

// failure is the error of a reply that must not become a checkpoint.
func failure(m *engine.Message, label string) error {
	switch m.StopReason {
	case engine.StopError:
		msg := m.ErrorMessage
		if msg == "" {
			msg = "Unknown error"
		}
		return fmt.Errorf("%s failed: %s", label, msg)
	case engine.StopLength:
		return fmt.Errorf("%s failed: generation hit the token cap and the summary is incomplete", label)
	}
	return nil
}

// Complete sends one summary request: the summarisation system prompt and
// prompt as the only user message, no tools, the model's output limit
// fitted to its window. Transient failures are retried with the session's
// retry policy, announced by summarization_retry_* events.
func Complete(ctx context.Context, req engine.SummaryRequest, prompt string) *engine.Message {
	user := &engine.Message{Role: engine.RoleUser, Content: engine.Blocks(engine.TextContent(prompt)), Timestamp: time.Now().UnixMilli()}
	sys := &engine.Message{Role: engine.RoleSystem, Content: engine.StringContents(SystemPrompt)}
	thinking := engine.ThinkingOff
	if req.Model != nil && req.Model.Reasoning && req.ThinkingLevel != "" {
		thinking = req.ThinkingLevel
	}
	maxTokens := 0
	if req.Model != nil {
		maxTokens = engine.ClampMaxTokens(req.Model, engine.EstimateContextTokens([]*engine.Message{sys, user}), req.Model.MaxTokens)
	}
	// A summary is a one-off request: like the reference, it writes no
	// prompt cache (no cache markers, prompt cache key or affinity
	// headers) and has a routing id of its own, which only OpenCode's
	// session header uses.
	llmReq := &engine.LLMRequest{
		Model: req.Model, SystemPrompt: SystemPrompt, Messages: []*engine.Message{user},
		ThinkingLevel: thinking, MaxTokens: maxTokens, APIKey: req.APIKey,
		SessionID: newRoutingID(), CacheRetention: "none",
	}
	emit := req.Emit
	if emit == nil {
		emit = func(engine.Event) {}
	}
	sleep := req.Sleep
	if sleep == nil {
		sleep = engine.Sleep
	}
	maxAttempts := 0
	if req.Retry.Enabled {
		maxAttempts = req.Retry.MaxRetries
	}
	attempt := 0
	retried := false
	for {
		reply := stream(ctx, req.Provider, llmReq)
		switch {
		case reply.StopReason == engine.StopAborted:
			if retried {
				emit(engine.SummarizationRetryFinished{})
			}
			return reply
		case reply.StopReason != engine.StopError:
			if retried {
				emit(engine.SummarizationRetryFinished{})
			}
			return reply
		case attempt >= maxAttempts || !engine.IsRetryableError(reply):
			if retried {
				emit(engine.SummarizationRetryFinished{})
			}
			return reply
		}
		attempt++
		retried = true
		errText := reply.ErrorMessage
		if errText == "" {
			errText = "Unknown error"
		}
		delay := engine.RetryDelayMs(req.Retry.BaseDelayMs, req.Retry.MaxAgentDelayMs, attempt)
		emit(engine.SummarizationRetryScheduled{Attempt: attempt, MaxAttempts: maxAttempts, DelayMs: delay, ErrorMessage: errText})
		if err := sleep(ctx, time.Duration(delay)*time.Millisecond); err != nil {
			emit(engine.SummarizationRetryFinished{})
			aborted := *reply
			aborted.StopReason, aborted.ErrorMessage = engine.StopAborted, ""
			return &aborted
		}
		emit(engine.SummarizationRetryAttemptStart{Source: req.Source, Reason: req.Reason})
	}
}

// stream runs one request, turning a missing reply or a cancelled context
// into the message shapes callers expect.
func stream(ctx context.Context, p engine.Provider, req *engine.LLMRequest) *engine.Message {
	if p == nil {
		return &engine.Message{Role: engine.RoleAssistant, StopReason: engine.StopError, ErrorMessage: "no provider for the summary request"}
	}
	reply := p.Stream(ctx, req, func(engine.AssistantEvent) {})
	if reply == nil {
		reply = &engine.Message{Role: engine.RoleAssistant, StopReason: engine.StopError, ErrorMessage: "provider returned no message"}
	}
	if ctx.Err() != nil && reply.StopReason != engine.StopAborted {
		c := *reply
		c.StopReason = engine.StopAborted
		reply = &c
	}
	return reply
}

// addUsage sums two usages; either may be nil.
func addUsage(a, b *engine.Usage) *engine.Usage {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	s := *a
	s.Input += b.Input
	s.Output += b.Output
	s.CacheRead += b.CacheRead
	s.CacheWrite += b.CacheWrite
	s.TotalTokens += b.TotalTokens
	s.Cost.Input += b.Cost.Input
	s.Cost.Output += b.Cost.Output
	s.Cost.CacheRead += b.Cost.CacheRead
	s.Cost.CacheWrite += b.Cost.CacheWrite
	s.Cost.Total += b.Cost.Total
	if a.Reasoning != nil || b.Reasoning != nil {
		r := 0
		if a.Reasoning != nil {
			r += *a.Reasoning
		}
		if b.Reasoning != nil {
			r += *b.Reasoning
		}
		s.Reasoning = &r
	}
	return &s
}

// BranchResult is a generated branch summary.
type BranchResult struct {
	Summary       string
	Usage         *engine.Usage
	ReadFiles     []string
	ModifiedFiles []string
	// Aborted reports a cancelled request; Summary is then empty.
	Aborted bool
}

// Details returns the details object of the branch_summary entry.
func (r *BranchResult) Details() json.RawMessage {
	b, _ := engine.MarshalJSON(fileDetails{ReadFiles: nonNil(r.ReadFiles), ModifiedFiles: nonNil(r.ModifiedFiles)})
	return b
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// BranchOptions qualify a branch summary.
type BranchOptions struct {
	CustomInstructions string
	// ReplaceInstructions uses CustomInstructions instead of the default
	// instructions rather than in addition to them.
	ReplaceInstructions bool
	// ReserveTokens is kept free of the window (branchSummary.reserveTokens).
	ReserveTokens int
}

// BranchSummary summarises the entries of an abandoned branch (oldest
// first), newest first within the window's budget, for the branch_summary
// entry written when the user navigates away.
func BranchSummary(ctx context.Context, entries []*engine.Entry, req engine.SummaryRequest, opts BranchOptions) (*BranchResult, error) {
	window := 128000
	if req.Model != nil && req.Model.ContextWindow > 0 {
		window = req.Model.ContextWindow
	}
	reserve := opts.ReserveTokens
	if reserve == 0 {
		reserve = 16384
	}
	msgs, ops := PrepareBranchEntries(entries, window-reserve)
	if len(msgs) == 0 {
		return &BranchResult{Summary: "No content to summarize"}, nil
	}
	instructions := branchPrompt
	switch {
	case opts.ReplaceInstructions && opts.CustomInstructions != "":
		instructions = opts.CustomInstructions
	case opts.CustomInstructions != "":
		instructions += "\n\nAdditional focus: " + opts.CustomInstructions
	}
	prompt := "<conversation>\n" + SerializeConversation(engine.ConvertToLLM(msgs)) + "\n</conversation>\n\n" + instructions
	if req.Source == "" {
		req.Source = "branchSummary"
	}
	reply := Complete(ctx, req, prompt)
	if reply.StopReason == engine.StopAborted {
		return &BranchResult{Aborted: true}, nil
	}
	if err := failure(reply, "Branch summarization"); err != nil {
		return nil, err
	}
	if len(reply.ToolCalls()) > 0 {
		return nil, errors.New("Branch summarization attempted to call a tool")
	}
	readFiles, modifiedFiles := FileLists(ops)
	summary := branchPreamble + textOf(reply.Content, "\n") + FormatFileOps(readFiles, modifiedFiles)
	u := reply.Usage
	return &BranchResult{Summary: summary, Usage: &u, ReadFiles: readFiles, ModifiedFiles: modifiedFiles}, nil
}

// PrepareBranchEntries picks the messages of a branch summary: newest
// first until budget tokens (0 = no limit), with context edits applied and
// tool results left out (the calls carry their meaning). File operations
// come from every entry, earlier pi-generated branch summaries included.
func PrepareBranchEntries(entries []*engine.Entry, budget int) ([]*engine.Message, engine.FileOps) {
	ops := engine.NewFileOps()
	edits := map[string]*engine.Entry{}
	for _, e := range entries {
		if e.Type == engine.EntryBranchSummary {
			addDetails(&ops, e)
		}
		if e.Type == engine.EntryContextEdit {
			edits[e.TargetID] = e
		}
	}
	var out []*engine.Message
	total := 0
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		m := branchMessage(e, edits[e.ID])
		if m == nil {
			continue
		}
		ExtractFileOps(m, &ops)
		t := EstimateTokens(m)
		if budget > 0 && total+t > budget {
			if (e.Type == engine.EntryCompaction || e.Type == engine.EntryBranchSummary) && float64(total) < float64(budget)*0.9 {
				out = append([]*engine.Message{m}, out...)
			}
			break
		}
		out = append([]*engine.Message{m}, out...)
		total += t
	}
	return out, ops
}

// branchMessage is the message an entry contributes to a branch summary.
func branchMessage(e *engine.Entry, edit *engine.Entry) *engine.Message {
	switch e.Type {
	case engine.EntryMessage:
		if e.Message == nil || e.Message.Role == engine.RoleToolResult {
			return nil
		}
	case engine.EntryCustomMessage, engine.EntryBranchSummary:
	case engine.EntryCompaction:
		return &engine.Message{Role: engine.RoleCompactionSummary, Summary: e.Summary, TokensBefore: e.TokensBefore}
	default:
		return nil
	}
	branch := []*engine.Entry{e}
	if edit != nil {
		branch = append(branch, edit)
	}
	for _, ce := range engine.ProjectContext(branch) {
		if ce.Entry == e {
			if len(ce.Messages) == 0 {
				return nil
			}
			return ce.Messages[0]
		}
	}
	return nil
}

// SummarizeBranch implements engine.BranchSummarizer with BranchSummary.
func (Compactor) SummarizeBranch(ctx context.Context, entries []*engine.Entry, req engine.SummaryRequest, opts engine.BranchSummaryOptions) (*engine.BranchSummary, error) {
	r, err := BranchSummary(ctx, entries, req, BranchOptions{CustomInstructions: opts.CustomInstructions,
		ReplaceInstructions: opts.ReplaceInstructions, ReserveTokens: opts.ReserveTokens})
	if err != nil {
		return nil, err
	}
	if r.Aborted {
		return &engine.BranchSummary{Aborted: true}, nil
	}
	summary := r.Summary
	if summary == "" {
		summary = "No summary generated"
	}
	return &engine.BranchSummary{Summary: summary, Usage: r.Usage, Details: r.Details()}, nil
}

// newRoutingID is a fresh time-ordered id (UUIDv7, as the reference's).
func newRoutingID() string {
	if id, err := uuid.NewV7(); err == nil {
		return id.String()
	}
	return uuid.NewString()
}
