package e2e_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// requestTools returns the tool names and descriptions of one request to
// the mock, and the content of its last tool message.
func requestTools(t *testing.T, body json.RawMessage) (names []string, desc map[string]string, params map[string]string, lastTool string) {
	t.Helper()
	var b struct {
		Tools []struct {
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	desc, params = map[string]string{}, map[string]string{}
	for _, tl := range b.Tools {
		names = append(names, tl.Function.Name)
		desc[tl.Function.Name] = tl.Function.Description
		params[tl.Function.Name] = string(tl.Function.Parameters)
	}
	if n := len(b.Messages); n > 0 && b.Messages[n-1].Role == "tool" {
		var s string
		if json.Unmarshal(b.Messages[n-1].Content, &s) != nil {
			s = string(b.Messages[n-1].Content)
		}
		lastTool = s
	}
	return names, desc, params, lastTool
}

// TestCodemodeScriptCallsRead runs the binary with --tools +codemode: the
// model's script reads a file, logs and stores a value. The tool is
// declared with the reference's parameters, the other tools carry the
// call note, the result has the script's output in the reference's shape,
// the store is a codemode-store entry, and stdout holds only JSON lines.
func TestCodemodeScriptCallsRead(t *testing.T) {
	t.Parallel()
	script := `[{"tool_calls":[{"name":"codemode","arguments":{"code":"const r = await tools.read({path: 'a.txt'}); console.log('seen', r.length); store('k', {n: 1}); text({a: 1}); return r;"}}]},{"text":"done"}]`
	e := newEnv(t, "openai-completions", script, nil)
	e.write("a.txt", "hello\n")
	r := e.run("", "--tools", "+codemode", "--mode", "json", "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, w := range []string{`{"type":"tool_execution_start","toolCallId":"call_mock_0_0/1","toolName":"read","args":{"path":"a.txt"},"parentToolCallId":"call_mock_0_0"}`,
		`"toolCallId":"call_mock_0_0/1","toolName":"read","result":{"content":[{"type":"text","text":"hello\n"}],"structuredContent":"hello\n"},"isError":false,"durationMs":`} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("stdout lacks the nested call's event %s", w)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if !json.Valid([]byte(line)) {
			t.Errorf("stdout has a line that is not JSON: %q", line)
		}
	}
	reqs := e.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	names, desc, params, _ := requestTools(t, reqs[0].Body)
	if strings.Join(names, ",") != "read,bash,edit,write,codemode" {
		t.Errorf("declared tools %v", names)
	}
	if params["codemode"] != `{"type":"object","required":["code"],"properties":{"code":{"type":"string","description":"Raw JavaScript source."}}}` {
		t.Errorf("codemode parameters %s", params["codemode"])
	}
	if !strings.HasSuffix(desc["bash"], "Codemode: `tools.bash(args)` resolves to `{ output, truncated, full_output_path?, exit_code, wall_time_seconds }`.") {
		t.Errorf("bash description lacks the codemode note: %q", desc["bash"])
	}
	_, _, _, result := requestTools(t, reqs[1].Body)
	for _, w := range []string{"Script completed\nWall time ", "Output:\n\n==> text 1/2 <==\n{\"a\":1}\n==> text 2/2 <==\nhello\n<console_output>\nseen 6\n</console_output>"} {
		if !strings.Contains(result, w) {
			t.Errorf("tool result lacks %q:\n%s", w, result)
		}
	}
	files := e.sessionFiles()
	if len(files) != 1 {
		t.Fatalf("session files %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"customType":"codemode-store","data":{"set":{"k":{"n":1}},"delete":[]}`) {
		t.Errorf("session lacks the codemode-store entry:\n%s", b)
	}
}

// TestCodemodeBuiltinSwitches checks that the built-in extensions follow
// -ne, -e builtin:<name> and the settings' -builtin:<name>.
func TestCodemodeBuiltinSwitches(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		settings map[string]any
		args     []string
		want     string
	}{
		{name: "default", want: "read,bash,edit,write,codemode,tool_search"},
		{name: "-ne", args: []string{"-ne"}, want: "read,bash,edit,write"},
		{name: "-ne -e builtin:codemode", args: []string{"-ne", "-e", "builtin:codemode"}, want: "read,bash,edit,write,codemode"},
		{name: "settings -builtin:tool-search", settings: map[string]any{"extensions": []string{"-builtin:tool-search"}}, want: "read,bash,edit,write,codemode"},
		{name: "defaultTools", settings: map[string]any{"defaultTools": []string{"+tool_search"}}, args: []string{"--tools", "-bash"}, want: "read,edit,write,tool_search"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "openai-completions", `[{"text":"ok"}]`, tc.settings)
			args := append([]string{}, tc.args...)
			if tc.settings["defaultTools"] == nil {
				args = append(args, "--tools", "+codemode,+tool_search")
			}
			r := e.run("", append(args, "-p", "go")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if strings.Contains(r.stderr, "not available") {
				t.Errorf("stderr warns: %s", r.stderr)
			}
			names, _, _, _ := requestTools(t, e.srv.Requests()[0].Body)
			if got := strings.Join(names, ","); got != tc.want {
				t.Errorf("declared %s, want %s", got, tc.want)
			}
		})
	}
}

// TestToolSearchDeclaresDeferredTool has an extension register a tool
// with exposure "deferred": it is not declared until tool_search finds
// it, is declared in the very next request, and the model's call of it
// then works; a codemode script calls it and a codemode-exposure tool
// without either being declared, and the codemode description lists
// only the codemode-exposure one.
func TestToolSearchDeclaresDeferredTool(t *testing.T) {
	t.Parallel()
	script := `[{"tool_calls":[{"name":"tool_search","arguments":{"query":"weather city"}}]},
 {"tool_calls":[{"name":"weather_lookup","arguments":{"city":"Oslo"}}]},
 {"tool_calls":[{"name":"codemode","arguments":{"code":"return [await tools.cm_tool({who:'x'}), await tools.weather_lookup({city:'y'})]"}}]},
 {"text":"done"}]`
	e := newEnv(t, "openai-completions", script, nil)
	e.write("deferred.ts", `import { Type } from "typebox";
export default function (pi) {
  pi.registerTool({ name: "weather_lookup", label: "Weather", description: "Look up the weather forecast for a city.",
    parameters: Type.Object({ city: Type.String() }), exposure: "deferred",
    async execute(id, p) { return { content: [{ type: "text", text: "sunny in " + p.city }], details: {} }; } });
  pi.registerTool({ name: "cm_tool", label: "CM", description: "Codemode only tool that greets.",
    parameters: Type.Object({ who: Type.String() }), exposure: "codemode",
    async execute(id, p) { return { content: [{ type: "text", text: "hello " + p.who }], details: {} }; } });
}
`)
	r := e.run("", "--tools", "+tool_search,+codemode", "-e", "./deferred.ts", "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	names, desc, _, _ := requestTools(t, reqs[0].Body)
	if strings.Join(names, ",") != "read,bash,edit,write,tool_search,codemode" {
		t.Errorf("first request declares %v", names)
	}
	if !strings.Contains(desc["codemode"], "### `cm_tool`") || strings.Contains(desc["codemode"], "weather_lookup") {
		t.Errorf("codemode description:\n%s", desc["codemode"])
	}
	names, _, _, res := requestTools(t, reqs[1].Body)
	if !strings.Contains(strings.Join(names, ","), "weather_lookup") || !strings.HasPrefix(res, "Loaded 1 tool") {
		t.Errorf("after tool_search: tools %v, result %q", names, res)
	}
	if _, _, _, res := requestTools(t, reqs[2].Body); res != "sunny in Oslo" {
		t.Errorf("deferred tool's result %q", res)
	}
	if _, _, _, res := requestTools(t, reqs[3].Body); !strings.Contains(res, `["hello x","sunny in y"]`) {
		t.Errorf("script result %q", res)
	}
	// The session records the declaration as the reference does: a system
	// message with toolsAdded right after tool_search's result.
	files := e.sessionFiles()
	if len(files) != 1 {
		t.Fatalf("session files %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	found := false
	for i, l := range lines {
		if strings.Contains(l, `"role":"system"`) && strings.Contains(l, `"toolsAdded":[{"name":"weather_lookup"`) {
			found = i > 0 && strings.Contains(lines[i-1], `"toolName":"tool_search"`)
		}
	}
	if !found {
		t.Errorf("no toolsAdded system message after tool_search's result:\n%s", b)
	}
}

// TestCodemodeNestedCallsRunHooks checks that an extension's tool_call
// handler sees, and can block, a call a script makes.
func TestCodemodeNestedCallsRunHooks(t *testing.T) {
	t.Parallel()
	script := `[{"tool_calls":[{"name":"codemode","arguments":{"code":"const r = await Promise.allSettled([tools.bash({command: 'echo hi'})]); return r[0].reason.message"}}]},{"text":"done"}]`
	e := newEnv(t, "openai-completions", script, nil)
	e.write("guard.ts", `export default function (pi) {
  pi.on("tool_call", async (event) => { if (event.toolName === "bash") return { block: true, reason: "no bash from scripts" }; });
}
`)
	r := e.run("", "--tools", "+codemode", "-e", "./guard.ts", "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := e.srv.Requests()
	if _, _, _, res := requestTools(t, reqs[len(reqs)-1].Body); !strings.Contains(res, "Output:\n\nno bash from scripts") {
		t.Errorf("script result %q", res)
	}
}

// TestCodemodeKeepsEditLegacyArgs checks that the codemode note on a
// declared tool keeps its argument preparation: edit's legacy top-level
// oldText/newText still work, from the model and from a script.
func TestCodemodeKeepsEditLegacyArgs(t *testing.T) {
	t.Parallel()
	script := `[{"tool_calls":[{"name":"edit","arguments":{"path":"f.txt","oldText":"one","newText":"two"}}]},
 {"tool_calls":[{"name":"codemode","arguments":{"code":"return await tools.edit({path: 'f.txt', oldText: 'two', newText: 'three'})"}}]},
 {"text":"done"}]`
	e := newEnv(t, "openai-completions", script, nil)
	e.write("f.txt", "one\n")
	r := e.run("", "--tools", "+codemode", "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got := e.read("f.txt"); got != "three\n" {
		t.Errorf("f.txt = %q, want three", got)
	}
}
