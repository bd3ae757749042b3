package jsruntime

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/dop251/goja"
	"github.com/stretchr/testify/require"
)

// TestGetCommandsExtraSourceInfo checks pi.getCommands(): the extension's
// own commands first, then the host's extra commands (built-in extensions,
// templates, skills) with their sourceInfo when they have one.
func TestGetCommandsExtraSourceInfo(t *testing.T) {
	t.Parallel()
	src := `export default function (pi) {
  pi.registerCommand("mine", { description: "Mine", handler: async () => {} });
  pi.on("session_start", () => { globalThis.__cmds = JSON.stringify(pi.getCommands().map(({ name, source, sourceInfo }) => ({ name, source, sourceInfo }))); });
}`
	desc := "A template"
	var api *API
	h := runTS(t, map[string]string{"ext.ts": src}, func(o *LoadOptions) {
		api = NewAPI(APIOptions{Mode: "rpc", Cwd: o.Cwd, ExtraCommands: func() []CommandInfo {
			return []CommandInfo{
				{Name: "llama", Source: "extension", SourceInfo: map[string]string{"path": "builtin:llama.cpp"}},
				{Name: "tpl", Description: &desc, Source: "prompt", SourceInfo: map[string]string{"path": "/p/tpl.md"}},
				{Name: "bare", Source: "skill"},
			}
		}})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	require.NoError(t, api.Bind(context.Background(), nil))
	api.Emit(context.Background(), "session_start", Field{"reason", "startup"})
	var got string
	require.NoError(t, api.rt.loop.Do(context.Background(), func(vm *goja.Runtime) error {
		got = vm.Get("__cmds").String()
		return nil
	}))
	var list []map[string]any
	require.NoError(t, json.Unmarshal([]byte(got), &list))
	require.Len(t, list, 4)
	require.Equal(t, "mine", list[0]["name"])
	require.Equal(t, map[string]any{"path": "builtin:llama.cpp"}, list[1]["sourceInfo"])
	require.Equal(t, map[string]any{"path": "/p/tpl.md"}, list[2]["sourceInfo"])
	require.NotContains(t, list[3], "sourceInfo")
}
