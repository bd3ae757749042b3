package pi

import (
	"context"

	"github.com/pi-go/pi/builtins"
	"github.com/pi-go/pi/engine/rpc"
)

// wireUserBash lets the extensions' "user_bash" handlers decide an RPC
// "bash" command before it runs: answer it ({result}), run it through
// their own backend ({operations}, whose output is cleaned, streamed and
// truncated as a local command's is) or fail it (a throw or an invalid
// value). The current generation's handlers decide (session replacement
// loads the extensions afresh).
func (app *Agent) wireUserBash(srv *rpc.Server) {
	if app.ext == nil || !app.ext.active() {
		return
	}
	srv.UserBashDecide = func(ctx context.Context, command string, exclude bool, cwd string) *rpc.UserBashDecision {
		api, _ := app.ext.cur()
		if api == nil {
			return nil
		}
		d := api.UserBash(ctx, command, exclude, cwd)
		switch {
		case d == nil:
			return nil
		case d.Err != nil:
			return &rpc.UserBashDecision{Err: d.Err}
		case d.Result != nil:
			r := d.Result
			return &rpc.UserBashDecision{Result: &rpc.BashResult{Output: r.Output, ExitCode: r.ExitCode, Cancelled: r.Cancelled,
				Truncated: r.Truncated, FullOutputPath: r.FullOutputPath}}
		case d.Run != nil:
			return &rpc.UserBashDecision{Run: func(ctx context.Context, onChunk func(string)) (rpc.BashResult, error) {
				out, err := builtins.RunBashOutput(ctx, d.Run, onChunk)
				if err != nil {
					return rpc.BashResult{}, err
				}
				return rpc.BashResult(out), nil
			}}
		}
		return nil
	}
}
