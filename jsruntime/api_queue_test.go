package jsruntime

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/builtins"
)

// withFileMutationQueue shares the built-in tools' queue: a mutation the
// Go side holds delays the extension's, and two extension mutations of
// one file run one after the other even when the first awaits a timer.
func TestWithFileMutationQueueSharesBuiltinQueue(t *testing.T) {
	t.Parallel()
	src := `import { withFileMutationQueue } from "@earendil-works/pi-coding-agent";
export default function () {
	const log = [];
	globalThis.__log = log;
	globalThis.__run = () => Promise.all([
		withFileMutationQueue("f.txt", async () => { log.push("a:start"); await new Promise((r) => setTimeout(r, 20)); log.push("a:end"); return 1; }),
		withFileMutationQueue("f.txt", () => { log.push("b"); return 2; }),
		withFileMutationQueue("f.txt", () => { throw new Error("boom"); }).catch((e) => { log.push("c:" + e.message); return 3; }),
	]).then((v) => { log.push("done:" + v.join(",")); });
}
`
	var api *API
	h := runTS(t, map[string]string{"ext.ts": src}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "print", Cwd: o.Cwd, MutationQueue: builtins.ReserveFileMutation})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	path := filepath.Join(h.dir, "f.txt")
	held := make(chan struct{})
	release := make(chan struct{})
	go func() {
		_ = builtins.WithFileMutationQueue(path, func() error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, h.rt.Loop().Do(ctx, func(vm *goja.Runtime) error {
		_, err := vm.RunString("__run()")
		return err
	}))
	var before string
	require.NoError(t, h.rt.Loop().Do(ctx, func(vm *goja.Runtime) error {
		before = vm.Get("__log").String()
		return nil
	}))
	require.Equal(t, "", before, "the extension's mutation ran while the Go side held the file")
	close(release)
	h.settle(t)
	var after string
	require.NoError(t, h.rt.Loop().Do(ctx, func(vm *goja.Runtime) error {
		after = vm.Get("__log").String()
		return nil
	}))
	require.Equal(t, "a:start,a:end,b,c:boom,done:1,2,3", after)
}
