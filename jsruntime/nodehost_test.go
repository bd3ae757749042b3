package jsruntime

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNodeHostGlobals checks facts probed in pi 1.6.0 (Node 22 via jiti):
// no global require (a module's require is its wrapper's parameter), and
// module-level this is module.exports in a plain .js/.cjs file. (In a
// .ts/.cts file without import or export the reference has this
// undefined; esbuild wraps such a file as CommonJS, so ours differs.)
func TestNodeHostGlobals(t *testing.T) {
	t.Parallel()
	const body = `const out = { t: typeof this, isME: this === module.exports, tr: typeof require, tgr: typeof globalThis.require, gr: typeof global.require, arrow: (() => typeof this)() };
console.log("probe " + JSON.stringify(out));
module.exports = function () { console.log("buffer " + typeof Buffer.from("x") + " " + typeof require("node:path").join); };
`
	tests := []struct {
		entry string
		want  string
	}{
		{"ext.js", `probe {"t":"object","isME":true,"tr":"function","tgr":"undefined","gr":"undefined","arrow":"object"}`},
		{"ext.cjs", `probe {"t":"object","isME":true,"tr":"function","tgr":"undefined","gr":"undefined","arrow":"object"}`},
	}
	for _, tc := range tests {
		t.Run(tc.entry, func(t *testing.T) {
			t.Parallel()
			h := runTS(t, map[string]string{tc.entry: body}, func(o *LoadOptions) {
				o.Paths = []string{filepath.Join(filepath.Dir(o.Paths[0]), tc.entry)}
			})
			if len(h.loadErrs) > 0 {
				t.Fatal(h.loadErrs)
			}
			h.settle(t)
			got := h.stderr.String()
			for _, w := range []string{tc.want + "\n", "buffer object function\n"} {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
		})
	}
}

// TestPiAICatalog: pi-ai's getModel, getModels and getProviders read the
// built-in catalog, with models in the reference's key order and the same
// objects on every call.
func TestPiAICatalog(t *testing.T) {
	t.Parallel()
	wantLines(t, logOf(t, `import { getModel, getModels, getProviders } from "@earendil-works/pi-ai";
export default function () {
  const m = getModel("anthropic", "claude-sonnet-4-5");
  console.log("keys " + Object.keys(m).join(","));
  console.log("model " + JSON.stringify(m));
  console.log("providers " + JSON.stringify(getProviders()));
  const all = getModels("openai");
  console.log("openai " + (all.length > 0) + " " + all.every((x) => x.provider === "openai") + " " + (getModel("openai", all[0].id) === all[0]));
  console.log("missing " + getModel("anthropic", "nope") + " " + JSON.stringify(getModels("nope")));
}
`),
		"keys id,name,api,provider,baseUrl,reasoning,input,cost,contextWindow,maxTokens,compat,promptCache,inputLimits,type\n",
		`model {"id":"claude-sonnet-4-5","name":"Claude Sonnet 4.5 (latest)","api":"anthropic-messages","provider":"anthropic","baseUrl":"https://api.anthropic.com","reasoning":true,"input":["text","image"],"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},"contextWindow":200000,"maxTokens":64000,"compat":{"supportsStrictTools":true},"promptCache":{"short":300,"long":3600},"inputLimits":{"maxRequestBytes":33554432,"images":{"maxPerRequest":100,"resize":{"maxWidth":2000,"maxHeight":2000,"maxBytes":4718592,"jpegQuality":80}}},"type":"chat"}`+"\n",
		// The reference lists 43 providers; its typesafe has no chat
		// models, which our catalog of chat models cannot show.
		`providers ["amazon-bedrock","ant-ling","anthropic","azure",`,
		"openai true true true\n",
		"missing undefined []\n",
	)
}
