package main

import (
	"context"

	"github.com/pi-go/pi/engine/rpc"
)

// wireUserBash lets the extensions' "user_bash" handlers answer or cancel
// an RPC "bash" command before it runs; the current generation's handlers
// decide (session replacement loads the extensions afresh).
func (app *App) wireUserBash(srv *rpc.Server) {
	if app.ext == nil || !app.ext.active() {
		return
	}
	srv.UserBash = func(ctx context.Context, command string, exclude bool, cwd string) *rpc.BashResult {
		api, _ := app.ext.cur()
		if api == nil {
			return nil
		}
		d := api.UserBash(ctx, command, exclude, cwd)
		switch {
		case d == nil:
			return nil
		case d.Cancel:
			return &rpc.BashResult{Cancelled: true}
		}
		r := d.Result
		return &rpc.BashResult{Output: r.Output, ExitCode: r.ExitCode, Cancelled: r.Cancelled, Truncated: r.Truncated, FullOutputPath: r.FullOutputPath}
	}
}
