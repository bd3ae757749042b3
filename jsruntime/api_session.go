package jsruntime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/pi-go/pi/engine"
)

// This file is the session-lifecycle half of the extension API: the
// session_before_* / session_* events (engine.Hooks) and the
// command context's session control (ctx.newSession, ctx.fork,
// ctx.switchSession, ctx.navigateTree, ctx.compact).

var _ engine.Hooks = hooks{}

// SetSessionController gives the command context a way to replace the
// session. Without one, ctx.newSession, ctx.fork and ctx.switchSession
// answer {cancelled: true}; a controller that is also a Reloader serves
// ctx.reload.
func (a *API) SetSessionController(c engine.SessionController) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sessions = c
}

// Reloader is the optional part of a session controller that serves
// ctx.reload: it tears the extension runtime down and loads the
// extensions afresh, as the reference's reload does.
type Reloader interface {
	Reload(ctx context.Context) error
}

func (a *API) sessionController() engine.SessionController {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sessions
}

// beforeResult dispatches a session_before_* event and decodes what the
// handlers returned ("" when nothing).
func (h hooks) beforeResult(ctx context.Context, typ string, fields []Field, out any) bool {
	a := h.api()
	if !a.HasHandlers(typ) {
		return false
	}
	res, err := a.dispatch(ctx, typ, orderedEvent(typ, fields))
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			a.reportError("", typ, err.Error())
		}
		return false
	}
	if res == "" {
		return false
	}
	return json.Unmarshal([]byte(res), out) == nil
}

type cancelResult struct {
	Cancel bool `json:"cancel"`
}

// BeforeSwitch runs session_before_switch.
func (h hooks) BeforeSwitch(ctx context.Context, reason, target string) bool {
	fields := []Field{{"reason", reason}}
	if target != "" {
		fields = append(fields, Field{"targetSessionFile", target})
	}
	var r cancelResult
	return h.beforeResult(ctx, "session_before_switch", fields, &r) && r.Cancel
}

// BeforeFork runs session_before_fork.
func (h hooks) BeforeFork(ctx context.Context, entryID, position string) bool {
	var r cancelResult
	return h.beforeResult(ctx, "session_before_fork", []Field{{"entryId", entryID}, {"position", position}}, &r) && r.Cancel
}

// preparationJSON is a compaction plan in the reference's shape; the file
// sets become arrays (iterable like the reference's Sets).
func preparationJSON(p *engine.CompactionPreparation) ordered {
	msgs := func(m []*engine.Message) []*engine.Message {
		if m == nil {
			return []*engine.Message{}
		}
		return m
	}
	keys := func(m map[string]bool) []string {
		out := []string{}
		for k := range m {
			out = append(out, k)
		}
		return out
	}
	o := ordered{{"firstKeptEntryId", p.FirstKeptEntryID}, {"messagesToSummarize", msgs(p.MessagesToSummarize)},
		{"turnPrefixMessages", msgs(p.TurnPrefixMessages)}, {"isSplitTurn", p.IsSplitTurn}, {"tokensBefore", p.TokensBefore}}
	if p.PreviousSummary != "" {
		o = append(o, Field{"previousSummary", p.PreviousSummary})
	}
	o = append(o,
		Field{"fileOps", ordered{{"read", keys(p.FileOps.Read)}, {"written", keys(p.FileOps.Written)}, {"edited", keys(p.FileOps.Edited)}}},
		Field{"settings", ordered{{"enabled", p.Settings.Enabled}, {"reserveTokens", p.Settings.ReserveTokens}, {"keepRecentTokens", p.Settings.KeepRecentTokens}}})
	return o
}

// BeforeCompact runs session_before_compact: {cancel: true} stops the
// compaction, {compaction: {...}} supplies it.
func (h hooks) BeforeCompact(ctx context.Context, ev engine.BeforeCompactEvent) *engine.BeforeCompactResult {
	branch := ev.BranchEntries
	if branch == nil {
		branch = []*engine.Entry{}
	}
	fields := []Field{{"preparation", preparationJSON(ev.Preparation)}, {"branchEntries", branch}}
	if ev.CustomInstructions != "" {
		fields = append(fields, Field{"customInstructions", ev.CustomInstructions})
	}
	fields = append(fields, Field{"reason", ev.Reason}, Field{"willRetry", ev.WillRetry})
	var r struct {
		Cancel     bool `json:"cancel"`
		Compaction *struct {
			Summary          string          `json:"summary"`
			FirstKeptEntryID string          `json:"firstKeptEntryId"`
			TokensBefore     int             `json:"tokensBefore"`
			Usage            json.RawMessage `json:"usage"`
			Details          json.RawMessage `json:"details"`
		} `json:"compaction"`
	}
	if !h.beforeResult(ctx, "session_before_compact", fields, &r) {
		return nil
	}
	out := &engine.BeforeCompactResult{Cancel: r.Cancel}
	if c := r.Compaction; c != nil {
		out.Compaction = &engine.ExtensionCompaction{Summary: c.Summary, FirstKeptEntryID: c.FirstKeptEntryID,
			TokensBefore: c.TokensBefore, Usage: c.Usage, Details: c.Details}
	}
	return out
}

// Compacted runs session_compact.
func (h hooks) Compacted(ctx context.Context, entry *engine.Entry, fromExtension bool, reason string, willRetry bool) {
	h.api().Emit(ctx, "session_compact", Field{"compactionEntry", entry}, Field{"fromExtension", fromExtension},
		Field{"reason", reason}, Field{"willRetry", willRetry})
}

// CompactFailed runs session_compact_failed.
func (h hooks) CompactFailed(ctx context.Context, ev engine.CompactFailedEvent) {
	fields := []Field{{"reason", ev.Reason}}
	if ev.ErrorMessage != "" {
		fields = append(fields, Field{"errorMessage", ev.ErrorMessage})
	}
	fields = append(fields, Field{"aborted", ev.Aborted}, Field{"willRetry", ev.WillRetry}, Field{"fromExtension", ev.FromExtension})
	h.api().Emit(ctx, "session_compact_failed", fields...)
}

// Shutdown runs session_shutdown.
func (h hooks) Shutdown(ctx context.Context, reason, target string) {
	fields := []Field{{"reason", reason}}
	if target != "" {
		fields = append(fields, Field{"targetSessionFile", target})
	}
	h.api().Emit(ctx, "session_shutdown", fields...)
}

// Started runs session_start for a replacement session.
func (h hooks) Started(ctx context.Context, reason, previous string) {
	fields := []Field{{"reason", reason}}
	if previous != "" {
		fields = append(fields, Field{"previousSessionFile", previous})
	}
	h.api().Emit(ctx, "session_start", fields...)
}

// sessionCallAsync answers the command context's session control. It runs
// on its own goroutine (callAsync), so the hooks it triggers can use the
// loop while the calling handler awaits.
func (a *API) sessionCallAsync(ctx context.Context, name string, raw json.RawMessage) (any, bool, error) {
	if v, ok, err := a.sendWaitCall(ctx, name, raw); ok {
		return v, ok, err
	}
	ctl := a.sessionController()
	switch name {
	case "newSession":
		var p struct {
			ParentSession string `json:"parentSession"`
		}
		_ = json.Unmarshal(raw, &p)
		if ctl == nil {
			return ordered{{"cancelled", true}}, true, nil
		}
		cancelled, err := ctl.NewSession(ctx, p.ParentSession)
		return ordered{{"cancelled", cancelled}}, true, err
	case "switchSession":
		var p struct {
			Path string `json:"path"`
		}
		_ = json.Unmarshal(raw, &p)
		if ctl == nil {
			return ordered{{"cancelled", true}}, true, nil
		}
		cancelled, err := ctl.SwitchSession(ctx, p.Path)
		return ordered{{"cancelled", cancelled}}, true, err
	case "fork":
		var p struct {
			EntryID  string `json:"entryId"`
			Position string `json:"position"`
		}
		_ = json.Unmarshal(raw, &p)
		if ctl == nil {
			return ordered{{"cancelled", true}}, true, nil
		}
		cancelled, text, err := ctl.Fork(ctx, p.EntryID, p.Position)
		if err != nil || cancelled {
			return ordered{{"cancelled", cancelled}}, true, err
		}
		out := ordered{{"cancelled", false}}
		if p.Position != "at" {
			out = append(out, Field{"selectedText", text})
		}
		return out, true, nil
	case "navigateTree":
		s := a.session()
		if s == nil {
			return nil, true, errNoSession
		}
		var p struct {
			TargetID            string  `json:"targetId"`
			Summarize           bool    `json:"summarize"`
			CustomInstructions  *string `json:"customInstructions"`
			ReplaceInstructions *bool   `json:"replaceInstructions"`
			Label               *string `json:"label"`
		}
		_ = json.Unmarshal(raw, &p)
		res, err := s.NavigateTree(ctx, p.TargetID, engine.NavigateOptions{Summarize: p.Summarize,
			CustomInstructions: p.CustomInstructions, ReplaceInstructions: p.ReplaceInstructions, Label: p.Label})
		if err != nil {
			return nil, true, err
		}
		if res.Cancelled {
			return ordered{{"cancelled", true}}, true, nil
		}
		out := ordered{}
		if res.EditorText != nil {
			out = append(out, Field{"editorText", *res.EditorText})
		}
		return append(out, Field{"cancelled", false}), true, nil
	case "compact":
		s := a.session()
		if s == nil {
			return nil, true, errNoSession
		}
		var p struct {
			CustomInstructions string `json:"customInstructions"`
		}
		_ = json.Unmarshal(raw, &p)
		res, err := s.Compact(ctx, p.CustomInstructions)
		if err != nil {
			return nil, true, err
		}
		return res, true, nil
	case "reload":
		if s := a.session(); s != nil {
			if s.IsStreaming() {
				return nil, true, errors.New("Wait for the current response to finish before reloading.")
			}
			if s.IsCompacting() {
				return nil, true, errors.New("Wait for compaction to finish before reloading.")
			}
		}
		if r, ok := ctl.(Reloader); ok {
			// The host loads the next generation and runs the reload's
			// events there; this one is stale once it returns.
			return nil, true, r.Reload(ctx)
		}
		// Without a host that reloads, the extensions stay loaded and
		// see the reload's session_shutdown and session_start.
		a.Emit(ctx, "session_shutdown", Field{"reason", "reload"})
		a.Emit(ctx, "session_start", Field{"reason", "reload"})
		return nil, true, nil
	case "refreshContext":
		if s := a.session(); s != nil {
			s.Reload()
		}
		return nil, true, nil
	}
	return nil, false, nil
}

// sessionWriteCall answers the setup callback's session manager
// (ctx.newSession({setup})): entries appended straight to the new
// session's store, without events, as the reference's SessionManager
// writes do. It returns the new entry's id.
func sessionWriteCall(st engine.Store, name string, av []json.RawMessage) (any, bool, error) {
	var e *engine.Entry
	switch name {
	case "smw.appendMessage":
		var m engine.Message
		if len(av) == 0 || json.Unmarshal(av[0], &m) != nil {
			return nil, true, errors.New("appendMessage: invalid message")
		}
		e = &engine.Entry{Type: engine.EntryMessage, Message: &m}
	case "smw.appendCustomEntry":
		e = &engine.Entry{Type: engine.EntryCustom, CustomType: argString(av, 0)}
		if len(av) > 1 && string(av[1]) != "null" {
			e.Data = av[1]
		}
	case "smw.appendSessionInfo":
		n := engine.SanitizeSessionName(argString(av, 0))
		e = &engine.Entry{Type: engine.EntrySessionInfo, Name: &n}
	case "smw.appendLabelChange":
		e = &engine.Entry{Type: engine.EntryLabel, TargetID: argString(av, 0)}
		if len(av) > 1 && string(av[1]) != "null" {
			l := argString(av, 1)
			e.Label = &l
		}
	case "smw.appendCustomMessageEntry":
		e = &engine.Entry{Type: engine.EntryCustomMessage, CustomType: argString(av, 0)}
		if len(av) > 1 {
			var c engine.Contents
			if json.Unmarshal(av[1], &c) == nil {
				e.Content = &c
			}
		}
		d := true
		if len(av) > 2 {
			_ = json.Unmarshal(av[2], &d)
		}
		e.Display = d
		if len(av) > 3 && string(av[3]) != "null" {
			e.Details = av[3]
		}
	default:
		return nil, false, nil
	}
	if err := st.Append(e); err != nil {
		return nil, true, fmt.Errorf("%s: %w", name[len("smw."):], err)
	}
	return e.ID, true, nil
}

// turnEndBoundary dispatches turn_end as the reference's boundary event
// and applies what the handlers returned: "custom" drafts are appended at
// once; "custom_message" drafts join the context, as steering messages
// when the handlers asked to continue (so the loop makes one more
// request) and for the next prompt otherwise.
func (a *API) turnEndBoundary(ctx context.Context, ev engine.TurnEnd, turn int) {
	s := a.session()
	results := ev.ToolResults
	if results == nil {
		results = []*engine.Message{}
	}
	msgID, resultIDs := "", []string{}
	if s != nil {
		isResult := map[*engine.Message]bool{}
		for _, r := range results {
			isResult[r] = true
		}
		for _, e := range s.Store().Branch() {
			if e.Type != engine.EntryMessage {
				continue
			}
			if e.Message == ev.Message {
				msgID = e.ID
			} else if isResult[e.Message] {
				resultIDs = append(resultIDs, e.ID)
			}
		}
	}
	outcome := "completed"
	if ev.Message != nil {
		switch ev.Message.StopReason {
		case engine.StopAborted:
			outcome = "aborted"
		case engine.StopError:
			outcome = "error"
		}
	}
	fields := []Field{{"turnIndex", turn}, {"message", ev.Message}, {"toolResults", results}}
	if msgID != "" {
		fields = append(fields, Field{"messageEntryId", msgID})
	}
	fields = append(fields, Field{"toolResultEntryIds", resultIDs}, Field{"outcome", outcome},
		Field{"entries", []any{}}, Field{"continue", false},
		Field{"context", boundaryContext(s, "turn_end")})
	a.boundary(ctx, "turn_end", fields, outcome == "completed")
}

// BeforeSettle runs agent_before_settle as a boundary.
func (h hooks) BeforeSettle(ctx context.Context, outcome string) bool {
	a := h.api()
	if !a.HasHandlers("agent_before_settle") {
		return false
	}
	fields := []Field{{"outcome", outcome}, {"entries", []any{}}, {"continue", false},
		{"context", boundaryContext(a.session(), "agent_before_settle")}}
	return a.boundary(ctx, "agent_before_settle", fields, true)
}

// ProjectTrust runs the project_trust handlers for cwd. decided is false
// when no handler answered "yes" or "no"; remember asks the caller to
// store the decision.
func (a *API) ProjectTrust(ctx context.Context, cwd string) (decided, trusted, remember bool) {
	if !a.HasHandlers("project_trust") {
		return false, false, false
	}
	out, err := a.dispatch(ctx, "project_trust", orderedEvent("project_trust", []Field{{"cwd", cwd}}))
	if err != nil || out == "" {
		return false, false, false
	}
	var r struct {
		Trusted  string `json:"trusted"`
		Remember bool   `json:"remember"`
	}
	if json.Unmarshal([]byte(out), &r) != nil {
		return false, false, false
	}
	return true, r.Trusted == "yes", r.Remember
}

// StaleMessage is what a retired generation's pi and ctx throw, the
// reference's words (extensions may match on them).
const StaleMessage = "This extension ctx is stale after session replacement or reload. Do not use a captured pi or command ctx after ctx.newSession(), ctx.fork(), ctx.switchSession(), or ctx.reload(). For newSession, fork, and switchSession, move post-replacement work into withSession and use the ctx passed to withSession. For reload, do not use the old ctx after await ctx.reload()."

// Invalidate retires this generation: from now on its pi methods and its
// ctx members throw StaleMessage, and the errors it reports are dropped.
// Its timers and pending promises keep running. The reference does this
// right after session_shutdown, before the next generation loads.
func (a *API) Invalidate(ctx context.Context) {
	if a.rt == nil {
		return
	}
	run := func(vm *goja.Runtime) error {
		if fn, ok := goja.AssertFunction(a.bridgeObj.Get("invalidate")); ok {
			_, err := fn(goja.Undefined(), vm.ToValue(StaleMessage))
			return err
		}
		return nil
	}
	if a.onLoop() {
		_ = run(a.rt.vm)
		return
	}
	_ = a.rt.loop.Do(context.WithoutCancel(ctx), run)
}

// SetSuccessor names the generation that replaced this one: the
// withSession callback of a command that replaced the session gets the
// successor's command ctx, as the reference hands it the new session's.
func (a *API) SetSuccessor(next *API) {
	a.mu.Lock()
	a.successor = next
	a.mu.Unlock()
}

// replacedCtx is G.replacedCtx(): the successor's command ctx, or
// undefined when there is none (api.js falls back to its own). Runs on
// the loop, which every generation shares.
func (a *API) replacedCtx() goja.Value {
	a.mu.Lock()
	next := a.successor
	a.mu.Unlock()
	// The successor may itself have been replaced already (a reload in
	// the callback of an older command): the newest generation answers.
	for next != nil {
		next.mu.Lock()
		n := next.successor
		next.mu.Unlock()
		if n == nil {
			break
		}
		next = n
	}
	if next == nil || next.bridgeObj == nil {
		return goja.Undefined()
	}
	fn, ok := goja.AssertFunction(next.bridgeObj.Get("commandCtx"))
	if !ok {
		return goja.Undefined()
	}
	v, err := fn(goja.Undefined())
	if err != nil {
		panic(err)
	}
	return v
}
