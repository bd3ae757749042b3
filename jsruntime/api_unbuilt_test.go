package jsruntime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/stretchr/testify/require"
)

// TestUnbuiltAPIsThrow checks that the MCP registration of a host
// without MCP support (no ValidateMCPServer) throws an error that says so
// instead of pretending to work.
func TestUnbuiltAPIsThrow(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.on("session_start", () => {
    const out = {};
    for (const [name, call] of Object.entries({
      registerMcpServer: () => pi.registerMcpServer("s", { command: "x" }),
    })) {
      try { call(); out[name] = "returned"; } catch (e) { out[name] = String(e && e.message); }
    }
    globalThis.__out = JSON.stringify(out);
  });
}`
	var api *API
	h := runTS(t, map[string]string{"ext.ts": src}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	require.NoError(t, api.Bind(context.Background(), nil))
	api.Emit(context.Background(), "session_start", Field{"reason", "startup"})
	var got string
	require.NoError(t, api.rt.loop.Do(context.Background(), func(vm *goja.Runtime) error {
		got = vm.Get("__out").String()
		return nil
	}))
	var out map[string]string
	require.NoError(t, json.Unmarshal([]byte(got), &out))
	require.Len(t, out, 1)
	for name, msg := range out {
		if !strings.Contains(msg, "pi."+name) || !strings.Contains(msg, "not available in this build") {
			t.Errorf("pi.%s: %q, want an error that names it as not available in this build", name, msg)
		}
	}
}
