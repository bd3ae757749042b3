package jsruntime

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/builtins"
)

const userBashExt = `import { createLocalBashOperations } from "@earendil-works/pi-coding-agent";
export default function (pi) {
  pi.on("user_bash", (event) => {
    const c = event.command;
    if (c.startsWith("OPS ")) return { operations: { async exec(command, cwd, o) {
      o.onData(Buffer.from("ran:" + command + "@" + (cwd === event.cwd)));
      o.onData("|str");
      return { exitCode: 3 };
    } } };
    if (c.startsWith("NULL ")) return { operations: { async exec() { return { exitCode: null }; } } };
    if (c.startsWith("THROWEXEC ")) return { operations: { async exec() { throw new Error("exec boom"); } } };
    if (c.startsWith("WAIT ")) return { operations: { exec(command, cwd, o) {
      return new Promise((resolve, reject) => o.signal.addEventListener("abort", () => reject(new Error("aborted"))));
    } } };
    if (c.startsWith("LOCAL ")) {
      const local = createLocalBashOperations();
      return { operations: { exec: (command, cwd, o) => local.exec(command.slice(6), cwd, o) } };
    }
    if (c.startsWith("RESULT ")) return { result: { output: "given", exitCode: 0, cancelled: false, truncated: false } };
    if (c.startsWith("CANCEL ")) return { cancel: true };
    if (c.startsWith("BOTH ")) return { operations: { exec() {} }, result: { output: "", exitCode: 0, cancelled: false, truncated: false } };
    if (c.startsWith("THROW ")) throw new Error("handler boom");
    return undefined;
  });
}
`

const invalidUserBash = "Invalid user_bash handler result: return undefined for local execution or exactly one valid { operations } or { result } object"

// TestUserBashDecisions covers every kind of user_bash answer: none,
// {result}, {operations} (custom and the local backend), and the values
// and throws the reference refuses with an error.
func TestUserBashDecisions(t *testing.T) {
	t.Parallel()
	var api *API
	h := runTS(t, map[string]string{"ext.ts": userBashExt}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd, LocalShell: builtins.LocalShell})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	require.NoError(t, api.Bind(context.Background(), nil))
	type want struct {
		none   bool
		err    string
		result string
		run    bool
		output string
		code   *int
		runErr string
	}
	three, zero := 3, 0
	cases := []struct {
		command string
		want    want
	}{
		{"echo plain", want{none: true}},
		{"RESULT x", want{result: "given"}},
		{"OPS x", want{run: true, output: "ran:OPS x@true|str", code: &three}},
		{"NULL x", want{run: true}},
		{"THROWEXEC x", want{run: true, runErr: "exec boom"}},
		{"LOCAL echo local", want{run: true, output: "local\n", code: &zero}},
		{"CANCEL x", want{err: invalidUserBash}},
		{"BOTH x", want{err: invalidUserBash}},
		{"THROW x", want{err: "handler boom"}},
	}
	for _, tc := range cases {
		t.Run(tc.command, func(t *testing.T) {
			d := api.UserBash(context.Background(), tc.command, false, h.dir)
			switch {
			case tc.want.none:
				require.Nil(t, d)
				return
			case tc.want.err != "":
				require.NotNil(t, d)
				require.EqualError(t, d.Err, tc.want.err)
				return
			case tc.want.result != "":
				require.NotNil(t, d)
				require.NotNil(t, d.Result)
				require.Equal(t, tc.want.result, d.Result.Output)
				return
			}
			require.NotNil(t, d)
			require.NotNil(t, d.Run)
			var mu sync.Mutex
			var out strings.Builder
			code, err := d.Run(context.Background(), func(b []byte) {
				mu.Lock()
				out.Write(b)
				mu.Unlock()
			})
			if tc.want.runErr != "" {
				require.EqualError(t, err, tc.want.runErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want.code, code)
			mu.Lock()
			require.Equal(t, tc.want.output, out.String())
			mu.Unlock()
		})
	}
	var events []string
	for _, e := range h.extErrors() {
		events = append(events, e.Event+": "+e.Error)
	}
	require.Equal(t, []string{"user_bash: " + invalidUserBash, "user_bash: " + invalidUserBash, "user_bash: handler boom"}, events)
}

// TestUserBashOperationsAbort checks that cancelling the command's context
// aborts the signal the operations' exec received.
func TestUserBashOperationsAbort(t *testing.T) {
	t.Parallel()
	var api *API
	h := runTS(t, map[string]string{"ext.ts": userBashExt}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	require.NoError(t, api.Bind(context.Background(), nil))
	d := api.UserBash(context.Background(), "WAIT x", false, h.dir)
	require.NotNil(t, d)
	require.NotNil(t, d.Run)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := d.Run(ctx, func([]byte) {})
	require.EqualError(t, err, "aborted")
}
