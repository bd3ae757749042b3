package engine

import (
	"context"
	"encoding/json"
)

// BeforeCompactEvent is the payload of "session_before_compact".
type BeforeCompactEvent struct {
	Preparation        *CompactionPreparation
	BranchEntries      []*Entry
	CustomInstructions string
	Reason             string
	WillRetry          bool
}

// BeforeCompactResult is what "session_before_compact" handlers decided:
// Cancel stops the compaction ("Compaction cancelled"); Compaction, when
// set, is recorded instead of a generated summary.
type BeforeCompactResult struct {
	Cancel     bool
	Compaction *ExtensionCompaction
}

// ExtensionCompaction is a compaction an extension supplied.
type ExtensionCompaction struct {
	Summary          string
	FirstKeptEntryID string
	TokensBefore     int
	Usage            json.RawMessage
	Details          json.RawMessage
}

// CompactFailedEvent is the payload of "session_compact_failed".
type CompactFailedEvent struct {
	Reason        string
	ErrorMessage  string
	Aborted       bool
	WillRetry     bool
	FromExtension bool
}

// TreePreparation is the payload of "session_before_tree".
type TreePreparation struct {
	TargetID            string
	OldLeafID           string
	CommonAncestorID    string
	EntriesToSummarize  []*Entry
	UserWantsSummary    bool
	CustomInstructions  *string
	ReplaceInstructions *bool
	Label               *string
}

// SessionController replaces the current session, as the reference's
// session runtime does for /new, /resume and /fork. The RPC server
// implements it; the extension API calls it for ctx.newSession,
// ctx.switchSession and ctx.fork. Each consults the Hooks itself.
type SessionController interface {
	// NewSession starts an empty session (parentSession recorded in its
	// header when set).
	NewSession(ctx context.Context, parentSession string) (cancelled bool, err error)
	// SwitchSession opens another session file.
	SwitchSession(ctx context.Context, path string) (cancelled bool, err error)
	// Fork starts a session from entryID: position "before" leaves the
	// user message out and returns its text, "at" keeps the entry.
	Fork(ctx context.Context, entryID, position string) (cancelled bool, selectedText string, err error)
}
