package engine

import (
	"context"
	"encoding/json"
)

// SessionHooks is the optional part of Hooks that takes part in session
// lifecycle operations: switching, forking, compacting and tree
// navigation. A Hooks value that also implements it is consulted by the
// runtime (compaction) and by the hosts that replace sessions (RPC
// new_session, switch_session, fork, clone, and the extensions' own
// ctx.newSession and friends). It is a separate interface so that Hooks
// implementations without extensions need not grow.
type SessionHooks interface {
	// BeforeSwitch runs "session_before_switch" (reason "new" or
	// "resume"); true cancels the switch.
	BeforeSwitch(ctx context.Context, reason, targetSessionFile string) (cancel bool)
	// BeforeFork runs "session_before_fork" (position "before" or "at");
	// true cancels the fork.
	BeforeFork(ctx context.Context, entryID, position string) (cancel bool)
	// BeforeCompact runs "session_before_compact"; a result may cancel the
	// compaction or supply its content.
	BeforeCompact(ctx context.Context, ev BeforeCompactEvent) *BeforeCompactResult
	// Compacted runs "session_compact" once the compaction entry is saved.
	Compacted(ctx context.Context, entry *Entry, fromExtension bool, reason string, willRetry bool)
	// CompactFailed runs "session_compact_failed".
	CompactFailed(ctx context.Context, ev CompactFailedEvent)
	// BeforeTree runs "session_before_tree" before a tree navigation.
	BeforeTree(ctx context.Context, prep TreePreparation) *BeforeTreeResult
	// Tree runs "session_tree" after a navigation.
	Tree(ctx context.Context, newLeafID, oldLeafID string)
	// Shutdown runs "session_shutdown" before the session is replaced
	// (reason "new", "resume" or "fork") or the process quits ("quit").
	Shutdown(ctx context.Context, reason, targetSessionFile string)
	// Started runs "session_start" for a replacement session (reason
	// "new", "resume" or "fork").
	Started(ctx context.Context, reason, previousSessionFile string)
}

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

// BeforeTreeResult is what "session_before_tree" handlers decided.
type BeforeTreeResult struct {
	Cancel bool
	Label  *string
}

// SettleHooks is the optional part of Hooks that runs
// "agent_before_settle" once a run has nothing more to do (not after an
// abort). outcome is "completed" or "error"; a true answer makes the
// session continue with one more run over the current context (the
// handlers may have queued messages for it).
type SettleHooks interface {
	BeforeSettle(ctx context.Context, outcome string) (continueRun bool)
}

// SessionHooksOf returns h's SessionHooks, or nil when it has none.
func SessionHooksOf(h Hooks) SessionHooks {
	if sh, ok := h.(SessionHooks); ok {
		return sh
	}
	return nil
}

// SessionController replaces the current session, as the reference's
// session runtime does for /new, /resume and /fork. The RPC server
// implements it; the extension API calls it for ctx.newSession,
// ctx.switchSession and ctx.fork. Each consults SessionHooks itself.
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
