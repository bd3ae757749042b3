package compaction

import (
	"encoding/json"
	"errors"
	"sort"

	"github.com/pi-go/pi/engine"
)

// Reasons PrepareCompaction finds nothing to do; manual compaction reports
// their text to the client, so it is the reference's.
var (
	ErrAlreadyCompacted = errors.New("Already compacted")
	ErrNothingToCompact = errors.New("Nothing to compact (session too small)")
)

// CutPoint says where a compaction cuts a projected branch.
type CutPoint struct {
	// FirstKeptIndex is the first projected entry kept verbatim.
	FirstKeptIndex int
	// TurnStartIndex is the entry that starts the split turn, or -1.
	TurnStartIndex int
	// SplitTurn reports a cut inside one user-message span.
	SplitTurn bool
}

// isCutPoint reports whether a kept context may start at this message.
// Tool results never can: they must stay with the call that asked.
func isCutPoint(m *engine.Message) bool {
	switch m.Role {
	case engine.RoleUser, engine.RoleAssistant, engine.RoleBashExecution, engine.RoleCustom,
		engine.RoleBranchSummary, engine.RoleCompactionSummary:
		return true
	}
	return false
}

// isTurnStart reports whether a message opens a user-message span.
func isTurnStart(m *engine.Message) bool {
	switch m.Role {
	case engine.RoleUser, engine.RoleBashExecution, engine.RoleCustom,
		engine.RoleBranchSummary, engine.RoleCompactionSummary:
		return true
	}
	return false
}

func anyMsg(msgs []*engine.Message, f func(*engine.Message) bool) bool {
	for _, m := range msgs {
		if f(m) {
			return true
		}
	}
	return false
}

func entryStartsTurn(ce engine.ContextEntry) bool {
	return ce.Entry.Type != engine.EntryCompaction && anyMsg(ce.Messages, isTurnStart)
}

// FindCutPoint walks the projected entries [start, end) from the newest
// back, adding up estimated tokens until keepRecentTokens is reached, and
// cuts at the nearest valid cut point at or after that entry. A cut that
// lands inside a user-message span is a split turn.
func FindCutPoint(entries []engine.ContextEntry, start, end, keepRecentTokens int) CutPoint {
	var cuts []int
	for i := start; i < end; i++ {
		if entries[i].Entry.Type != engine.EntryCompaction && anyMsg(entries[i].Messages, isCutPoint) {
			cuts = append(cuts, i)
		}
	}
	if len(cuts) == 0 {
		return CutPoint{FirstKeptIndex: start, TurnStartIndex: -1}
	}
	acc := 0
	exceeded := false
	cut := cuts[0]
	for i := end - 1; i >= start; i-- {
		t := MessagesTokens(entries[i].Messages)
		if t == 0 {
			continue
		}
		acc += t
		if acc >= keepRecentTokens {
			exceeded = true
			cut = cuts[len(cuts)-1]
			for _, c := range cuts {
				if c >= i {
					cut = c
					break
				}
			}
			break
		}
	}
	if exceeded && isRecoveryOmissionSuffix(entries[cut+1:end]) {
		// A failed attempt hidden by its omission edits is invisible to the
		// model; keeping it would only keep the edits' target out of the
		// summary, so the cut moves past the input it answered.
		cut++
	}
	for cut > start {
		prev := entries[cut-1]
		if prev.Entry.Type == engine.EntryCompaction || len(prev.Messages) > 0 {
			break
		}
		cut--
	}
	if cut >= end {
		cut = end - 1
	}
	if entryStartsTurn(entries[cut]) {
		return CutPoint{FirstKeptIndex: cut, TurnStartIndex: -1}
	}
	turn := -1
	for i := cut; i >= start; i-- {
		if entryStartsTurn(entries[i]) {
			turn = i
			break
		}
	}
	return CutPoint{FirstKeptIndex: cut, TurnStartIndex: turn, SplitTurn: turn != -1}
}

// isRecoveryOmissionSuffix reports a suffix made only of omitted entries
// (at least one an assistant attempt) and bookkeeping, with no edit that
// replaces the content of an entry outside it.
func isRecoveryOmissionSuffix(suffix []engine.ContextEntry) bool {
	visible := func(ce engine.ContextEntry) bool {
		return ce.Entry.Type != engine.EntryContextEdit && len(engine.EntryMessages(ce.Entry)) > 0
	}
	omitted := func(ce engine.ContextEntry) bool { return visible(ce) && len(ce.Messages) == 0 }
	ids := map[string]bool{}
	for _, ce := range suffix {
		if omitted(ce) {
			ids[ce.Entry.ID] = true
		}
	}
	hasAssistant := false
	for _, ce := range suffix {
		e := ce.Entry
		if e.Type == engine.EntryContextEdit && string(e.Replacement) != "null" && len(e.Replacement) > 0 && !ids[e.TargetID] {
			return false
		}
		if e.Type == engine.EntryCompaction || (visible(ce) && !omitted(ce)) {
			return false
		}
		if e.Type == engine.EntryMessage && e.Message != nil && e.Message.Role == engine.RoleAssistant && omitted(ce) {
			hasAssistant = true
		}
	}
	return hasAssistant
}

// summarisable returns the conversation messages of one projected entry:
// system messages are prompt state the compaction entry carries itself.
func summarisable(ce engine.ContextEntry) []*engine.Message {
	if ce.Entry.Type == engine.EntryCompaction {
		return nil
	}
	var out []*engine.Message
	for _, m := range ce.Messages {
		if m.Role != engine.RoleSystem {
			out = append(out, m)
		}
	}
	return out
}

// PrepareCompaction plans a compaction of a branch (root first): the cut,
// the messages to summarise, the split-turn prefix, the token estimate of
// the context being replaced, the previous summary to extend and the file
// operations to record.
func PrepareCompaction(branch []*engine.Entry, s engine.CompactionSettings) (*engine.CompactionPreparation, error) {
	if len(branch) > 0 && branch[len(branch)-1].Type == engine.EntryCompaction {
		return nil, ErrAlreadyCompacted
	}
	proj := engine.ProjectContext(branch)
	prev := -1
	for i, ce := range proj {
		if ce.Entry.Type == engine.EntryCompaction && len(ce.Messages) > 0 {
			prev = i
			break
		}
	}
	start := 0
	previousSummary := ""
	if prev >= 0 {
		previousSummary = proj[prev].Entry.Summary
		start = prev + 1
	}
	end := len(proj)
	if start >= end {
		return nil, ErrNothingToCompact
	}
	tokensBefore := projectedTokens(proj, branch)
	cut := FindCutPoint(proj, start, end, s.KeepRecentTokens)
	first := proj[cut.FirstKeptIndex].Entry
	if first == nil || first.ID == "" {
		return nil, ErrNothingToCompact
	}
	historyEnd := cut.FirstKeptIndex
	if cut.SplitTurn {
		historyEnd = cut.TurnStartIndex
	}
	var toSummarize, prefix []*engine.Message
	for _, ce := range proj[start:historyEnd] {
		toSummarize = append(toSummarize, summarisable(ce)...)
	}
	if cut.SplitTurn {
		for _, ce := range proj[cut.TurnStartIndex:cut.FirstKeptIndex] {
			prefix = append(prefix, summarisable(ce)...)
		}
	}
	if len(toSummarize) == 0 && len(prefix) == 0 {
		return nil, ErrNothingToCompact
	}
	ops := engine.NewFileOps()
	if prev >= 0 {
		addDetails(&ops, proj[prev].Entry)
	}
	for _, m := range toSummarize {
		ExtractFileOps(m, &ops)
	}
	for _, m := range prefix {
		ExtractFileOps(m, &ops)
	}
	return &engine.CompactionPreparation{
		FirstKeptEntryID: first.ID, MessagesToSummarize: toSummarize, TurnPrefixMessages: prefix,
		IsSplitTurn: cut.SplitTurn, TokensBefore: tokensBefore, PreviousSummary: previousSummary,
		FileOps: ops, Settings: s, SystemMessage: CurrentSystemMessage(projectionMessages(proj)),
	}, nil
}

// fileDetails is the details object of pi-generated summaries.
type fileDetails struct {
	ReadFiles     []string `json:"readFiles"`
	ModifiedFiles []string `json:"modifiedFiles"`
}

// addDetails carries the file lists of an earlier pi-generated summary
// forward; an extension's details have their own shape and are skipped.
func addDetails(ops *engine.FileOps, e *engine.Entry) {
	if e.FromHook != nil && *e.FromHook || len(e.Details) == 0 {
		return
	}
	var d fileDetails
	if json.Unmarshal(e.Details, &d) != nil {
		return
	}
	for _, f := range d.ReadFiles {
		ops.Read[f] = true
	}
	for _, f := range d.ModifiedFiles {
		ops.Edited[f] = true
	}
}

// ExtractFileOps records the paths of read, write and edit tool calls in
// an assistant message, or of the nested calls recorded on a tool result.
func ExtractFileOps(m *engine.Message, ops *engine.FileOps) {
	switch m.Role {
	case engine.RoleToolResult:
		var nested struct {
			Calls []struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"calls"`
		}
		if len(m.NestedCalls) > 0 && json.Unmarshal(m.NestedCalls, &nested) == nil {
			for _, c := range nested.Calls {
				addFileOp(c.Name, c.Arguments, ops)
			}
		}
	case engine.RoleAssistant:
		for _, b := range m.Content.Blocks {
			if b.Type == engine.ContentToolCall {
				addFileOp(b.Name, b.Arguments, ops)
			}
		}
	}
}

func addFileOp(tool string, args json.RawMessage, ops *engine.FileOps) {
	var a struct {
		Path any `json:"path"`
	}
	if json.Unmarshal(args, &a) != nil {
		return
	}
	path, ok := a.Path.(string)
	if !ok || path == "" {
		return
	}
	switch tool {
	case "read":
		ops.Read[path] = true
	case "write":
		ops.Written[path] = true
	case "edit":
		ops.Edited[path] = true
	}
}

// FileLists splits file operations into files only read and files
// modified, both sorted.
func FileLists(ops engine.FileOps) (readFiles, modifiedFiles []string) {
	mod := map[string]bool{}
	for f := range ops.Edited {
		mod[f] = true
	}
	for f := range ops.Written {
		mod[f] = true
	}
	readFiles, modifiedFiles = []string{}, []string{}
	for f := range ops.Read {
		if !mod[f] {
			readFiles = append(readFiles, f)
		}
	}
	for f := range mod {
		modifiedFiles = append(modifiedFiles, f)
	}
	sort.Strings(readFiles)
	sort.Strings(modifiedFiles)
	return readFiles, modifiedFiles
}

// FormatFileOps renders the file lists appended to a summary, or "".
func FormatFileOps(readFiles, modifiedFiles []string) string {
	var parts []string
	if len(readFiles) > 0 {
		parts = append(parts, "<read-files>\n"+joinLines(readFiles)+"\n</read-files>")
	}
	if len(modifiedFiles) > 0 {
		parts = append(parts, "<modified-files>\n"+joinLines(modifiedFiles)+"\n</modified-files>")
	}
	if len(parts) == 0 {
		return ""
	}
	out := ""
	for _, p := range parts {
		out += "\n\n" + p
	}
	return out
}

func joinLines(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += "\n"
		}
		out += x
	}
	return out
}
