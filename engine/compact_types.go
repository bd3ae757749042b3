package engine

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/pi-go/pi/internal/jsonx"
)

// Compaction reasons, as compaction_start and compaction_end carry them.
const (
	CompactionManual    = "manual"
	CompactionThreshold = "threshold"
	CompactionOverflow  = "overflow"
)

// Texts clients and extensions match on; they are the reference's.
const (
	textOverflowRecoveryFailed  = "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model."
	textTruncatedRecoveryFailed = "Truncated response recovery failed after one compact-and-retry attempt."
)

// Errors of manual compaction whose text the RPC layer returns as is.
var (
	ErrCompactionCancelled = errors.New("Compaction cancelled")
	ErrCompacting          = errors.New("Cannot submit a prompt while compaction is in progress. Wait for compaction to finish and retry.")
	errNoCompactor         = errors.New("compaction is not available in this session")
)

// CompactionSettings are the compaction.* settings in effect.
type CompactionSettings struct {
	Enabled          bool
	ReserveTokens    int
	KeepRecentTokens int
}

// CompactionOverride is one compaction.modelOverrides entry, keyed by
// "provider/id": the token settings it gives that model. A nil field keeps
// the global value. Enabled has no override: the reference reads it
// globally only.
type CompactionOverride struct {
	ReserveTokens    *int
	KeepRecentTokens *int
}

// DefaultCompactionSettings are the reference's defaults.
func DefaultCompactionSettings() CompactionSettings {
	return CompactionSettings{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 20000}
}

// FileOps collects the paths the summarised tool calls touched.
type FileOps struct {
	Read    map[string]bool
	Written map[string]bool
	Edited  map[string]bool
}

// NewFileOps returns empty sets.
func NewFileOps() FileOps {
	return FileOps{Read: map[string]bool{}, Written: map[string]bool{}, Edited: map[string]bool{}}
}

// CompactionPreparation is what a compaction will summarise and keep. It
// is computed from the branch alone, before any LLM call.
type CompactionPreparation struct {
	// FirstKeptEntryID is where the kept context starts.
	FirstKeptEntryID string
	// MessagesToSummarize is the history before the kept part (or before
	// the split turn).
	MessagesToSummarize []*Message
	// TurnPrefixMessages is the early part of a split turn.
	TurnPrefixMessages []*Message
	IsSplitTurn        bool
	// TokensBefore estimates the context being replaced.
	TokensBefore int
	// PreviousSummary is the summary of the compaction being extended.
	PreviousSummary string
	FileOps         FileOps
	Settings        CompactionSettings
	// SystemMessage is the replayed system state the compaction entry
	// carries, since the system messages it hides are dropped.
	SystemMessage *Message
}

// CompactionResult is compaction_end's result and the RPC compact
// response's data.
type CompactionResult struct {
	Summary              string
	FirstKeptEntryID     string
	TokensBefore         int
	EstimatedTokensAfter int
	Usage                *Usage
	Details              json.RawMessage
}

// MarshalJSON writes the result in the reference's key order.
func (r CompactionResult) MarshalJSON() ([]byte, error) {
	o := jsonx.NewBuilder().Set("summary", r.Summary).Set("firstKeptEntryId", r.FirstKeptEntryID).
		Set("tokensBefore", r.TokensBefore).Set("estimatedTokensAfter", r.EstimatedTokensAfter)
	if r.Usage != nil {
		o.Set("usage", *r.Usage)
	}
	return o.Opt("details", r.Details).Bytes()
}

// SummaryRequest is how a compactor reaches the model.
type SummaryRequest struct {
	Provider           Provider
	Model              *Model
	APIKey             string
	ThinkingLevel      ThinkingLevel
	CustomInstructions string
	Retry              RetrySettings
	// Sleep waits between summary retries; nil uses a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Source and Reason fill summarization_retry_attempt_start.
	Source string
	Reason string
	// Emit receives the summarization_retry_* events.
	Emit func(Event)
}

// Summary is a generated compaction summary.
type Summary struct {
	Text    string
	Usage   *Usage
	Details json.RawMessage
}

// Compactor plans and generates compactions. engine/compaction implements
// it; the session only decides when to compact and records the result.
type Compactor interface {
	// Prepare plans a compaction of the branch (root first). Its error
	// says why there is nothing to compact.
	Prepare(branch []*Entry, settings CompactionSettings) (*CompactionPreparation, error)
	// Summarize makes the summary request(s) for a plan.
	Summarize(ctx context.Context, prep *CompactionPreparation, req SummaryRequest) (*Summary, error)
	// ProjectedTokens estimates the branch's context for the threshold
	// check, trusting provider usage only when nothing edited the context
	// after it.
	ProjectedTokens(branch []*Entry) int
	// ContextTokens estimates messages: the last valid usage plus an
	// estimate of what follows; lastUsage is its index or -1.
	ContextTokens(msgs []*Message) (tokens, lastUsage int)
	// MessagesTokens estimates messages without provider usage.
	MessagesTokens(msgs []*Message) int
}
