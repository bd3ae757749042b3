package jsruntime

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/pi/engine"
)

// withDepsPackage is the reference's with-deps layout: a package folder
// whose manifest names its entry under "pi", and whose entry imports an
// npm dependency from the package's own node_modules (a small stand-in
// for "ms", committed under testdata/node_modules, with an "exports" map
// and a subpath import) next to the host-provided typebox.
var withDepsPackage = map[string]string{
	"ext.ts": "export default function () {}\n",
	"pkg/package.json": `{"name": "pi-extension-with-deps", "private": true, "type": "module",
		"pi": {"extensions": ["./index.ts"]}, "dependencies": {"ms": "2.1.3"}}`,
	"pkg/index.ts": `import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import ms from "ms";
import { Type } from "typebox";

export default function (pi: ExtensionAPI) {
	pi.registerTool({
		name: "parse_duration",
		label: "Parse Duration",
		description: "Parse a duration to milliseconds",
		parameters: Type.Object({ duration: Type.String() }),
		execute: async (_id, params) => {
			const result = ms(params.duration);
			if (result === undefined) throw new Error("Invalid duration: " + JSON.stringify(params.duration));
			return { content: [{ type: "text", text: params.duration + " = " + result + " milliseconds" }], details: {} };
		},
	});
}
`,
}

func TestExtensionWithOwnNodeModules(t *testing.T) {
	t.Parallel()
	var api *API
	var pkgDir string
	h := runTS(t, withDepsPackage, func(o *LoadOptions) {
		pkgDir = filepath.Join(o.Cwd, "pkg")
		copyTree(t, filepath.Join("testdata", "node_modules"), filepath.Join(pkgDir, "node_modules"))
		o.Paths = []string{filepath.Join(pkgDir, "index.ts")}
		api = NewAPI(APIOptions{Mode: "print", Cwd: o.Cwd})
		o.Host = api.Host()
	})
	require.Empty(t, h.loadErrs)
	tools := api.ExtTools()
	require.Len(t, tools, 1)
	require.Equal(t, "parse_duration", tools[0].Info().Name)
	require.JSONEq(t, `{"type":"object","properties":{"duration":{"type":"string"}},"required":["duration"]}`, string(tools[0].Info().Parameters))

	cases := []struct {
		duration, text string
		isError        bool
	}{
		{"2 days", "2 days = 172800000 milliseconds", false},
		{"5m", "5m = 300000 milliseconds", false},
		{"soon", `Invalid duration: "soon"`, true},
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		args, _ := json.Marshal(map[string]string{"duration": c.duration})
		res, err := tools[0].Execute(ctx, engine.ToolCall{ID: "c1", Name: "parse_duration", Args: args}, nil)
		cancel()
		require.NoError(t, err)
		require.Equal(t, c.isError, res.IsError, c.duration)
		require.Len(t, res.Content, 1)
		require.Equal(t, c.text, res.Content[0].Text, c.duration)
	}
}
