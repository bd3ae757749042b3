package vmod

import (
	"testing"
)

// TestBehaviour covers what the recorded reference cases cannot: __host
// delegation, asynchronous helpers, and load-time patterns extensions use.
func TestBehaviour(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		host map[string]any
		// src runs first (it may start promises); check runs after goja has
		// drained the job queue and returns the JSON compared with want.
		src, check, want string
	}{
		{
			name:  "markers are hidden from JSON and for-in",
			src:   `var T = require("typebox").Type; var s = T.Optional(T.String()); var keys = []; for (var k in s) keys.push(k); globalThis.r = [keys, s["~kind"], s["~optional"], T.IsOptional(s), T.IsString(s)];`,
			check: `return r;`,
			want:  `[["type"],"String",true,true,true]`,
		},
		{
			name:  "legacy aliases share one module instance",
			src:   `globalThis.r = [require("@sinclair/typebox") === require("typebox"), require("@mariozechner/pi-ai").StringEnum === require("@earendil-works/pi-ai/compat").StringEnum];`,
			check: `return r;`,
			want:  `[true,true]`,
		},
		{
			name: "getAgentDir and createTool go through __host",
			host: map[string]any{
				"getAgentDir": func() string { return "/agent" },
				"createTool": func(name, cwd string, options any, definition bool) []any {
					return []any{name, cwd, definition}
				},
			},
			src:   `var p = require("@earendil-works/pi-coding-agent"); globalThis.r = [p.getAgentDir(), p.createReadTool("/w"), p.createBashToolDefinition("/x", {})];`,
			check: `return r;`,
			want:  `["/agent",["read","/w",false],["bash","/x",true]]`,
		},
		{
			name:  "tool factories fail only when called without a host",
			src:   `var p = require("@earendil-works/pi-coding-agent"); try { p.createReadTool("/w"); globalThis.r = "no error"; } catch (e) { globalThis.r = e.message; }`,
			check: `return r;`,
			want:  `"@earendil-works/pi-coding-agent: built-in tool \"read\" is not available in this runtime"`,
		},
		{
			name: "SDK classes throw a clear error when used",
			src: `var p = require("@earendil-works/pi-coding-agent"); var out = [typeof p.AgentSession];
				try { p.DefaultResourceLoader.create(); } catch (e) { out.push(e.message); }
				try { new p.AgentSession(); } catch (e) { out.push(e.message); }
				globalThis.r = out;`,
			check: `return r;`,
			want:  `["function","@earendil-works/pi-coding-agent: DefaultResourceLoader is not supported in pi-go","@earendil-works/pi-coding-agent: AgentSession is not supported in pi-go"]`,
		},
		{
			name: "extensions can subclass host components at load time",
			src: `var p = require("@earendil-works/pi-coding-agent");
				class Modal extends p.CustomEditor { constructor(t, th, kb) { super(t, th, kb); this.mode = "insert"; } }
				class Border extends p.DynamicBorder {}
				var m = new Modal({}, {}, {}); m.setText("hi");
				globalThis.r = [m.mode, m.getText(), m instanceof require("@earendil-works/pi-tui").Editor, new Border().render(80)];`,
			check: `return r;`,
			want:  `["insert","hi",true,[]]`,
		},
		{
			name: "withFileMutationQueue serialises one path and not others",
			src: `var p = require("@earendil-works/pi-coding-agent"); var log = [];
				function step(tag) { return function () { log.push(tag + ":start"); return Promise.resolve().then(function () { log.push(tag + ":end"); return tag; }); }; }
				var all = Promise.all([p.withFileMutationQueue("/a", step("a1")), p.withFileMutationQueue("/a", step("a2")), p.withFileMutationQueue("/b", step("b1"))]);
				all.then(function (v) { globalThis.r = { values: v, a: log.filter(function (x) { return x[0] === "a"; }) }; });`,
			check: `return r;`,
			want:  `{"values":["a1","a2","b1"],"a":["a1:start","a1:end","a2:start","a2:end"]}`,
		},
		{
			name: "assistant event streams iterate through Symbol.for(Symbol.asyncIterator)",
			src: `var ai = require("@earendil-works/pi-ai"); var s = ai.createAssistantMessageEventStream(); var seen = [];
				var it = s[Symbol.for("Symbol.asyncIterator")]();
				function pump() { return it.next().then(function (x) { if (x.done) return; seen.push(x.value.type); return pump(); }); }
				var done = pump();
				s.push({ type: "start" }); s.push({ type: "text_delta", delta: "x" }); s.push({ type: "done", message: { role: "assistant" } });
				s.end();
				Promise.all([done, s.result()]).then(function (v) { globalThis.r = [seen, v[1]]; });`,
			check: `return r;`,
			want:  `[["start","text_delta","done"],{"role":"assistant"}]`,
		},
		{
			name: "pi-ai LLM calls delegate to __host",
			host: map[string]any{"aiStreams": func() map[string]any {
				return map[string]any{
					"complete": func(model, ctx, opts any) string { return "from host" },
					"api": func(name string) map[string]any {
						return map[string]any{"stream": func(model, ctx, opts any) string { return "built-in " + name }}
					},
				}
			}},
			src:   `var ai = require("@earendil-works/pi-ai"); globalThis.r = [ai.complete({}, {}, {}), ai.openAICompletionsApi().stream({}, {}), ai.streamAnthropic({}, {})];`,
			check: `return r;`,
			want:  `["from host","built-in openai-completions","built-in anthropic-messages"]`,
		},
		{
			name:  "pi-ai LLM calls fail clearly without a host",
			src:   `var ai = require("@earendil-works/pi-ai"); var out = []; try { ai.stream({}, {}); } catch (e) { out.push(e.message); } globalThis.r = out;`,
			check: `return r;`,
			want:  `["@earendil-works/pi-ai: stream is not available in this runtime"]`,
		},
		{
			name:  "typebox/compile exposes TypeCompiler for 0.x code",
			src:   `var c = require("@sinclair/typebox/compile"); var T = require("@sinclair/typebox").Type; var v = c.TypeCompiler.Compile(T.Object({n: T.Number()})); globalThis.r = [v.Check({n: 1}), v.Check({}), v.Errors({}).length];`,
			check: `return r;`,
			want:  `[true,false,1]`,
		},
		{
			name:  "Composite and Recursive from TypeBox 0.x",
			src:   `var T = require("typebox").Type; globalThis.r = [T.Composite([T.Object({a: T.String()}), T.Object({b: T.Optional(T.Number())})]), T.Recursive(function (self) { return T.Object({kids: T.Array(self)}); }, {$id: "Node"})];`,
			check: `return r;`,
			want:  `[{"type":"object","required":["a"],"properties":{"a":{"type":"string"},"b":{"type":"number"}}},{"$id":"Node","type":"object","required":["kids"],"properties":{"kids":{"type":"array","items":{"$ref":"Node"}}}}]`,
		},
		{
			name:  "Value.Check follows $ref through context",
			src:   `var T = require("typebox").Type; var V = require("typebox/value").Value; var node = T.Recursive(function (self) { return T.Object({kids: T.Array(self)}); }, {$id: "Node"}); globalThis.r = [V.Check(node, {kids: [{kids: []}]}), V.Check(node, {kids: [{}]})];`,
			check: `return r;`,
			want:  `[true,false]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := newVM(t, tt.host)
			if _, err := v.rt.RunString(tt.src); err != nil {
				t.Fatalf("src: %v", err)
			}
			if got := v.eval(t, tt.check); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
