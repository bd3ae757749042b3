package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/rpc"
)

// runRPC is a minimal RPC mode: it streams session events and answers
// get_state, so start-up can be measured; every other command is refused
// as unknown. The full protocol replaces this loop.
func runRPC(ctx context.Context, app *App, in io.Reader, out *rpc.Writer) int {
	if _, err := app.Runner(); err != nil {
		return reportStartupError(app.stderr, err)
	}
	sess := app.session()
	unsub := sess.Subscribe(func(e engine.Event) { _ = out.WriteEvent(e) })
	defer unsub()
	lr := rpc.NewLineReader(in)
	for {
		line, err := lr.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0
			}
			fmt.Fprintln(app.stderr, "Error: read stdin:", err)
			return 1
		}
		cmd, err := rpc.Decode(line)
		if err != nil {
			var de *rpc.DecodeError
			if errors.As(err, &de) {
				_ = out.WriteRecord(de.Response)
			}
			continue
		}
		switch cmd.Type {
		case "get_state":
			_ = out.WriteRecord(rpc.OK(cmd, sess.State()))
		default:
			_ = out.WriteRecord(rpc.Fail(cmd, fmt.Errorf("Unknown command: %s", cmd.Type)))
		}
		if ctx.Err() != nil {
			return 0
		}
	}
}
