package engine

import (
	"context"
	"time"
)

// nestedKey carries, in a running tool's context, how that tool runs
// other tools (ExecuteNested).
type nestedKey struct{}

// nestedRunner is the loop and the call a nested call belongs to.
type nestedRunner struct {
	a      *agentLoop
	parent string
	// rec is shared by every depth below one model-issued call.
	rec *nestedRecorder
}

// withNested gives a tool's context what ExecuteNested needs, and the
// record its nested calls leave on its result message.
func (a *agentLoop) withNested(ctx context.Context, parentID string) (context.Context, *nestedRecorder) {
	rec := &nestedRecorder{}
	return context.WithValue(ctx, nestedKey{}, &nestedRunner{a: a, parent: parentID, rec: rec}), rec
}

// nestedStartedKey carries the function WithNestedStarted sets.
type nestedStartedKey struct{}

// WithNestedStarted returns a context whose next ExecuteNested call runs
// f once its tool_execution_start is out, so a caller can report the
// call as running after the event that starts it (codemode's progress
// update follows the nested start, as in the reference).
func WithNestedStarted(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, nestedStartedKey{}, f)
}

// ExecuteNested runs a call that one tool makes of another (codemode's
// scripts do) the way a model's call runs: argument validation, the
// tool_call hooks (which may block it or change its arguments), the
// tool, and the tool_result hooks, with tool_execution_start and
// tool_execution_end events that carry parentToolCallId. The call's ID is
// the caller's choice (codemode uses "<parent id>/<n>"). Outside an agent
// loop it validates and runs the tool alone. It is safe to call from any
// goroutine while the parent tool runs.
func ExecuteNested(ctx context.Context, t Tool, call ToolCall) ToolResult {
	info := t.Info()
	n, _ := ctx.Value(nestedKey{}).(*nestedRunner)
	emit := func(Event) {}
	parent := ""
	var hooks Hooks
	if n != nil {
		emit, parent, hooks = n.a.emit, n.parent, n.a.hooks
	}
	emit(ToolExecutionStart{ToolCallID: call.ID, ToolName: info.Name, Args: call.Args, ParentToolCallID: parent})
	var rec *nestedCall
	if n != nil {
		rec = n.rec.start(call.ID, info.Name, call.Args)
		// A call that a nested tool makes has this call as its parent
		// and joins the same record.
		ctx = context.WithValue(ctx, nestedKey{}, &nestedRunner{a: n.a, parent: call.ID, rec: n.rec})
	}
	if f, ok := ctx.Value(nestedStartedKey{}).(func()); ok && f != nil {
		ctx = context.WithValue(ctx, nestedStartedKey{}, nil)
		f()
	}
	end := func(res ToolResult, d *int64) ToolResult {
		if n != nil {
			n.rec.finish(rec, res)
		}
		emit(ToolExecutionEnd{ToolCallID: call.ID, ToolName: info.Name, Result: res, IsError: res.IsError, DurationMs: d, ParentToolCallID: parent})
		return res
	}
	raw := call.Args
	if p, ok := t.(ArgumentPreparer); ok {
		raw = p.PrepareArguments(raw)
	}
	args, err := ValidateToolArgs(info.Name, info.Parameters, raw)
	if err != nil {
		return end(ErrorResult(err.Error()), nil)
	}
	if hooks != nil {
		d, err := hooks.ToolCall(ctx, ToolCall{ID: call.ID, Name: info.Name, Args: args})
		if err != nil {
			return end(ErrorResult(err.Error()), nil)
		}
		if d != nil && d.Block {
			reason := d.Reason
			if reason == "" {
				reason = textToolBlocked
			}
			return end(ErrorResult(reason), nil)
		}
		if d != nil && len(d.Args) > 0 {
			args = d.Args
		}
	}
	call.Args = args
	begin := time.Now()
	res, err := safeExecute(ctx, t, call, nil)
	dur := time.Since(begin).Milliseconds()
	if err != nil {
		res = ErrorResult(err.Error())
	}
	if hooks != nil {
		if repl, herr := hooks.ToolResult(ctx, call, res); herr != nil {
			res = ErrorResult(herr.Error())
		} else if repl != nil {
			res = *repl
		}
	}
	return end(res, &dur)
}
