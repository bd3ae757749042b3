package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// mcpServerBin is the test MCP server (mcp/internal/testserver), built
// once for the MCP tests.
var (
	mcpServerOnce sync.Once
	mcpServerBin  string
	mcpServerErr  error
)

func testMCPServer(t *testing.T) string {
	t.Helper()
	mcpServerOnce.Do(func() {
		dir := filepath.Dir(piBin)
		mcpServerBin = filepath.Join(dir, "mcp-testserver")
		_, file, _, _ := runtime.Caller(0)
		build := exec.Command("go", "build", "-o", mcpServerBin, "./mcp/internal/testserver")
		build.Dir = filepath.Dir(filepath.Dir(file))
		out, err := build.CombinedOutput()
		if err != nil {
			mcpServerErr = err
			mcpServerBin = string(out)
		}
	})
	if mcpServerErr != nil {
		t.Fatalf("building the MCP test server: %v\n%s", mcpServerErr, mcpServerBin)
	}
	return mcpServerBin
}

// toolEnd is a tool_execution_end with its result as written (key order
// is part of what is compared).
type toolEnd struct {
	Type       string          `json:"type"`
	ToolCallID string          `json:"toolCallId"`
	Result     json.RawMessage `json:"result"`
	IsError    bool            `json:"isError"`
}

// mcpToolEnd finds the tool_execution_end of a call.
func mcpToolEnd(t *testing.T, out, id string) toolEnd {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		var r toolEnd
		if json.Unmarshal([]byte(line), &r) == nil && r.Type == "tool_execution_end" && r.ToolCallID == id {
			return r
		}
	}
	t.Fatalf("no tool_execution_end for %s in\n%s", id, out)
	return toolEnd{}
}

// declaredTools are the tool names the first model request declared.
func declaredTools(t *testing.T, e *env) []string {
	t.Helper()
	reqs := e.srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model request")
	}
	var body struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range body.Tools {
		names = append(names, tl.Function.Name)
	}
	return names
}

// TestMCPDirectToolCall is the acceptance scenario of builtin:mcp: a
// stdio server in ~/.pi/agent/mcp.json with direct exposure; the model's
// call mcp__echo__ping returns the server's result as in the reference
// (content, details {server, tool}, the CallToolResult as
// structuredContent), the request declares the server's tools and the
// resource tools after the built-in ones, and --no-mcp, a settings
// "-builtin:mcp" and -ne turn it off while -ne -e builtin:mcp keeps it.
func TestMCPDirectToolCall(t *testing.T) {
	t.Parallel()
	server := testMCPServer(t)
	const script = `[{"tool_calls":[{"name":"mcp__echo__ping","arguments":{"text":"hi"},"id":"call_1"}]},{"text":"done"}]`
	tests := []struct {
		name     string
		args     []string
		settings map[string]any
		exposure string
		wantOn   bool
		stderr   string
	}{
		{name: "on", exposure: "direct", wantOn: true},
		{name: "--no-mcp", args: []string{"--no-mcp"}, exposure: "direct"},
		{name: "settings -builtin:mcp", settings: map[string]any{"extensions": []string{"-builtin:mcp"}}, exposure: "direct"},
		{name: "-ne", args: []string{"-ne"}, exposure: "direct"},
		{name: "-ne -e builtin:mcp", args: []string{"-ne", "-e", "builtin:mcp"}, exposure: "direct", wantOn: true},
		{name: "hidden", exposure: "hidden"},
		{name: "codemode off warns", exposure: "", settings: map[string]any{"extensions": []string{"-builtin:codemode"}},
			stderr: `uses exposure "codemode", which needs the codemode or tool_search tool`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "openai-completions", script, tc.settings)
			entry := map[string]any{"command": server}
			if tc.exposure != "" {
				entry["exposure"] = tc.exposure
			}
			e.writeJSON(filepath.Join(e.agentDir, "mcp.json"), map[string]any{"mcpServers": map[string]any{"echo": entry}})
			args := append([]string{"--mode", "json", "--no-session"}, tc.args...)
			r := e.run("", append(args, "call ping")...)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
			}
			if tc.stderr != "" && !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", r.stderr, tc.stderr)
			}
			end := mcpToolEnd(t, r.stdout, "call_1")
			res := end.Result
			declared := declaredTools(t, e)
			if !tc.wantOn {
				if !strings.Contains(string(res), "Tool mcp__echo__ping not found") || !end.IsError {
					t.Errorf("MCP off: result %s, want the not-found error", res)
				}
				if slices.ContainsFunc(declared, func(n string) bool { return strings.Contains(n, "mcp") }) {
					t.Errorf("MCP off: declared %v", declared)
				}
				return
			}
			const want = `{"content":[{"type":"text","text":"PONG:hi"}],"details":{"server":"echo","tool":"ping"},"structuredContent":{"content":[{"type":"text","text":"PONG:hi"}]}}`
			if string(res) != want || end.IsError {
				t.Errorf("result %s (isError %v), want %s", res, end.IsError, want)
			}
			wantTools := []string{"read", "bash", "edit", "write", "mcp__echo__cwd", "mcp__echo__env", "mcp__echo__fail", "mcp__echo__ping", "mcp__echo__slow",
				"list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"}
			if !slices.Equal(declared, wantTools) {
				t.Errorf("declared %v, want %v", declared, wantTools)
			}
		})
	}
}

// TestMCPServerBehaviour checks the rest of a direct server's surface
// against the reference's answers: an isError result, env with ${VAR}
// and a relative cwd, the resource tools, and a server that crashes on a
// call (an error result, not a hang) or never answers (the configured
// timeout ends the call).
func TestMCPServerBehaviour(t *testing.T) {
	t.Parallel()
	server := testMCPServer(t)
	const script = `[{"tool_calls":[` +
		`{"name":"mcp__echo__fail","arguments":{},"id":"c_fail"},` +
		`{"name":"mcp__echo__env","arguments":{"name":"FOO"},"id":"c_env"},` +
		`{"name":"mcp__echo__cwd","arguments":{},"id":"c_cwd"},` +
		`{"name":"read_mcp_resource","arguments":{"server":"echo","uri":"file:///a.txt"},"id":"c_read"},` +
		`{"name":"list_mcp_resources","arguments":{},"id":"c_list"}` +
		`]},{"text":"done"}]`
	e := newEnv(t, "openai-completions", script, nil)
	if err := os.MkdirAll(filepath.Join(e.proj, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.writeJSON(filepath.Join(e.agentDir, "mcp.json"), map[string]any{"mcpServers": map[string]any{"echo": map[string]any{
		"command": server, "exposure": "direct", "env": map[string]any{"FOO": "${PI_E2E_BAR}x"}, "cwd": "sub"}}})
	c := e.cmd("", "--mode", "json", "--no-session", "go")
	c.Env = append(c.Env, "PI_E2E_BAR=yy")
	out, err := c.Output()
	if err != nil {
		t.Fatalf("%v", err)
	}
	want := map[string]string{
		"c_fail": `{"content":[{"type":"text","text":"boom"}],"details":{"server":"echo","tool":"fail"},"structuredContent":{"content":[{"type":"text","text":"boom"}],"isError":true},"isError":true}`,
		"c_env":  `{"content":[{"type":"text","text":"yyx"}],"details":{"server":"echo","tool":"env"},"structuredContent":{"content":[{"type":"text","text":"yyx"}]}}`,
		"c_cwd": `{"content":[{"type":"text","text":"` + filepath.Join(e.proj, "sub") + `"}],"details":{"server":"echo","tool":"cwd"},"structuredContent":{"content":[{"type":"text","text":"` +
			filepath.Join(e.proj, "sub") + `"}]}}`,
		"c_read": `{"content":[{"type":"text","text":"hello a"}],"details":{"server":"echo","tool":"read_mcp_resource"},"structuredContent":{"server":"echo","uri":"file:///a.txt","contents":[{"uri":"file:///a.txt","mimeType":"text/plain","text":"hello a"}]}}`,
		"c_list": `{"content":[{"type":"text","text":"{\"resources\":[{\"server\":\"echo\",\"mimeType\":\"text/plain\",\"name\":\"a\",\"uri\":\"file:///a.txt\"}]}"}],"details":{"server":"","tool":"list_mcp_resources"},"structuredContent":{"resources":[{"server":"echo","mimeType":"text/plain","name":"a","uri":"file:///a.txt"}]}}`,
	}
	for id, w := range want {
		end := mcpToolEnd(t, string(out), id)
		if got := string(end.Result); got != w {
			t.Errorf("%s: %s\nwant %s", id, got, w)
		}
	}

	t.Run("progress", func(t *testing.T) {
		// slow takes 1.5 s but reports progress every 300 ms: each report
		// restarts the 1 s timeout and becomes a tool_execution_update.
		t.Parallel()
		e := newEnv(t, "openai-completions", `[{"tool_calls":[{"name":"mcp__echo__slow","arguments":{},"id":"call_1"}]},{"text":"done"}]`, nil)
		e.writeJSON(filepath.Join(e.agentDir, "mcp.json"), map[string]any{"mcpServers": map[string]any{"echo": map[string]any{
			"command": server, "exposure": "direct", "timeout": 1}}})
		r := e.run("", "--mode", "json", "--no-session", "go")
		end := mcpToolEnd(t, r.stdout, "call_1")
		if end.IsError || !strings.Contains(string(end.Result), "slow done") {
			t.Errorf("result %s", end.Result)
		}
		if !strings.Contains(r.stdout, `"type":"tool_execution_update","toolCallId":"call_1","toolName":"mcp__echo__slow","args":{},"partialResult":{"content":[{"type":"text","text":"Progress 1/5"}],"details":{"server":"echo","tool":"slow"}}}`) {
			t.Errorf("no progress update in\n%s", r.stdout)
		}
	})
	for _, tc := range []struct{ flag, want string }{
		{"-crash", `MCP server \"echo\" closed the connection`},
		{"-hang", `did not answer ping within 1s`},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "openai-completions", `[{"tool_calls":[{"name":"mcp__echo__ping","arguments":{"text":"hi"},"id":"call_1"}]},{"text":"done"}]`, nil)
			e.writeJSON(filepath.Join(e.agentDir, "mcp.json"), map[string]any{"mcpServers": map[string]any{"echo": map[string]any{
				"command": server, "args": []string{tc.flag}, "exposure": "direct", "timeout": 1}}})
			r := e.run("", "--mode", "json", "--no-session", "go")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			end := mcpToolEnd(t, r.stdout, "call_1")
			got := string(end.Result)
			if !end.IsError || !strings.Contains(got, tc.want) {
				t.Errorf("result %s, want an error containing %q", got, tc.want)
			}
		})
	}
}

// TestMCPRegisteredServer checks pi.registerMcpServer: a server an
// extension registers while loading connects with the session and its
// direct tool answers the model; invalid registrations throw the
// reference's messages; pi.getMcpServers lists {name, config,
// extensionPath} as registered, and pi.getAllTools the server's tools
// with builtin:mcp's sourceInfo, namespace and annotations.
func TestMCPRegisteredServer(t *testing.T) {
	t.Parallel()
	server := testMCPServer(t)
	e := newEnv(t, "openai-completions", `[{"tool_calls":[{"name":"mcp__reg__ping","arguments":{"text":"yo"},"id":"call_1"}]},{"text":"done"}]`, nil)
	ext := filepath.Join(e.proj, "reg.ts")
	e.write("reg.ts", `export default function (pi) {
  pi.registerMcpServer("reg", { command: `+strconvQuote(server)+`, exposure: "direct", timeout: 5 });
  try { pi.registerMcpServer("bad name", { command: "x" }); } catch (e) { console.error("ERR " + e.message); }
  pi.on("session_start", () => { console.error("SERVERS " + JSON.stringify(pi.getMcpServers())); });
  pi.on("agent_end", () => {
    const t = pi.getAllTools().find((t) => t.name === "mcp__reg__ping");
    console.error("PING " + JSON.stringify({ exposure: t.exposure, namespace: t.namespace, annotations: t.annotations, sourceInfo: t.sourceInfo }));
    console.error("ACTIVE " + JSON.stringify(pi.getActiveTools()));
  });
}`)
	r := e.run("", "--mode", "json", "--no-session", "-e", ext, "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		`ERR Invalid MCP server registered by extension "` + ext + `": invalid server name "bad name" (use letters, digits, "_" and "-")`,
		`SERVERS [{"name":"reg","config":{"command":` + strconvQuote(server) + `,"exposure":"direct","timeout":5},"extensionPath":"` + ext + `"}]`,
		// As the reference reports the test server's tool.
		`PING {"exposure":"direct","namespace":{"name":"mcp__reg","aliases":["reg"],"instructions":"Echo server for tests.\nSecond line."},"annotations":{"readOnlyHint":true,"idempotentHint":false},"sourceInfo":{"path":"builtin:mcp","source":"builtin","scope":"temporary","origin":"top-level"}}`,
		`ACTIVE ["read","bash","edit","write","mcp__reg__cwd","mcp__reg__env","mcp__reg__fail","mcp__reg__ping","mcp__reg__slow","list_mcp_resources","list_mcp_resource_templates","read_mcp_resource"]`,
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	end := mcpToolEnd(t, r.stdout, "call_1")
	if !strings.Contains(string(end.Result), `"text":"PONG:yo"`) || end.IsError {
		t.Errorf("result %s", end.Result)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestMCPCommand checks /mcp headless in RPC mode against the
// reference's answers: get_commands lists it as builtin:mcp's, /mcp
// notifies every server's state, /mcp reconnect <server> reconnects,
// anything else gets the usage; -builtin:mcp leaves /mcp out.
func TestMCPCommand(t *testing.T) {
	t.Parallel()
	server := testMCPServer(t)
	for _, off := range []bool{false, true} {
		t.Run(fmt.Sprintf("off=%v", off), func(t *testing.T) {
			t.Parallel()
			var settings map[string]any
			if off {
				settings = map[string]any{"extensions": []string{"-builtin:mcp"}}
			}
			e := newEnv(t, "openai-completions", `[]`, settings)
			e.writeJSON(filepath.Join(e.agentDir, "mcp.json"), map[string]any{"mcpServers": map[string]any{
				"echo": map[string]any{"command": server, "exposure": "direct"}, "off": map[string]any{"command": "x", "enabled": false}}})
			// Each /mcp command gets a process of its own: piped together,
			// the three prompts run side by side, and the status could see
			// the reconnect's closed connection.
			run := func(lines ...string) string {
				return e.run(strings.Join(lines, "\n")+"\n", "--mode", "rpc", "--no-session").stdout
			}
			r := result{stdout: run(`{"id":"1","type":"get_commands"}`, `{"id":"2","type":"prompt","message":"/mcp"}`)}
			if !off {
				r.stdout += run(`{"id":"3","type":"prompt","message":"/mcp reconnect echo"}`) + run(`{"id":"4","type":"prompt","message":"/mcp frob"}`)
			}
			listed := strings.Contains(r.stdout, `{"name":"mcp","description":"Manage MCP servers: sign in, reconnect, enable or disable, and change exposure","source":"extension","sourceInfo":{"path":"builtin:mcp","source":"builtin","scope":"temporary","origin":"top-level"}}`)
			if listed == off {
				t.Errorf("get_commands lists /mcp: %v, want %v\n%s", listed, !off, r.stdout)
			}
			if off {
				return
			}
			for _, want := range []string{
				`"method":"notify","message":"echo: connected, 5 tools (direct)\noff: disabled (codemode)","notifyType":"info"}`,
				`"method":"notify","message":"Reconnected to MCP server \"echo\" (connected · 5 tools · resources).","notifyType":"info"}`,
				`"method":"notify","message":"Usage: /mcp, /mcp login [server], /mcp logout [server], /mcp reconnect [server]","notifyType":"warning"}`,
				`{"id":"4","type":"response","command":"prompt","success":true,"data":{"disposition":"handled"}}`,
			} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %s\n%s", want, r.stdout)
				}
			}
		})
	}
}

// TestMCPToolSelection checks how the tool selection flags treat MCP
// tools, as the reference declares them: a --tools allowlist keeps only
// the MCP tools it names or matches, a +name list is no allowlist,
// --exclude-tools patterns apply, and --no-tools declares none.
func TestMCPToolSelection(t *testing.T) {
	t.Parallel()
	server := testMCPServer(t)
	all := "mcp__echo__cwd,mcp__echo__env,mcp__echo__fail,mcp__echo__ping,mcp__echo__slow,list_mcp_resources,list_mcp_resource_templates,read_mcp_resource"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--tools", "read,mcp__echo__p*"}, "read,mcp__echo__ping"},
		{[]string{"--exclude-tools", "mcp__*"}, "read,bash,edit,write,list_mcp_resources,list_mcp_resource_templates,read_mcp_resource"},
		{[]string{"--tools", "+grep"}, "read,bash,edit,write,grep," + all},
		{[]string{"--tools", "read"}, "read"},
		{[]string{"--no-tools"}, ""},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "openai-completions", `[{"text":"ok"}]`, nil)
			e.writeJSON(filepath.Join(e.agentDir, "mcp.json"), map[string]any{"mcpServers": map[string]any{"echo": map[string]any{"command": server, "exposure": "direct"}}})
			r := e.run("", append(append([]string{"--mode", "json", "--no-session"}, tc.args...), "hi")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if got := strings.Join(declaredTools(t, e), ","); got != tc.want {
				t.Errorf("declared %s, want %s", got, tc.want)
			}
		})
	}
}

// TestMCPDefaultCodemodeExposure: a plain mcp.json entry (exposure
// "codemode", the default) declares no MCP tool, turns builtin:codemode
// on, and the model's script reaches the server's tool through
// tools.mcp__echo__ping, resolving to its CallToolResult.
func TestMCPDefaultCodemodeExposure(t *testing.T) {
	t.Parallel()
	server := testMCPServer(t)
	script := `[{"tool_calls":[{"name":"codemode","arguments":{"code":"const r = await tools.mcp__echo__ping({text: 'hi'}); return r.content[0].text;"},"id":"call_1"}]},{"text":"done"}]`
	e := newEnv(t, "openai-completions", script, nil)
	e.writeJSON(filepath.Join(e.agentDir, "mcp.json"), map[string]any{"mcpServers": map[string]any{"echo": map[string]any{"command": server}}})
	r := e.run("", "--mode", "json", "--no-session", "call ping")
	if r.code != 0 || strings.Contains(r.stderr, "Warning") {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	end := mcpToolEnd(t, r.stdout, "call_1")
	if end.IsError || !strings.Contains(string(end.Result), "PONG:hi") {
		t.Fatalf("codemode result %s", end.Result)
	}
	declared := declaredTools(t, e)
	if !slices.Contains(declared, "codemode") || slices.ContainsFunc(declared, func(n string) bool { return strings.HasPrefix(n, "mcp__") }) {
		t.Errorf("declared tools %v: want codemode and no direct MCP tool", declared)
	}
}

// TestMCPDeferredAndToolExposure checks the two exposures the other
// tests leave out: a deferred server declares none of its tools but
// tool_search, which loads ping for the next request, where the model
// calls it; and toolExposure overrides one tool of a hidden server to
// direct (only that tool is declared, and the hidden ones are not
// reachable), with the <mcp_servers> section listing only the deferred
// server.
func TestMCPDeferredAndToolExposure(t *testing.T) {
	t.Parallel()
	server := testMCPServer(t)
	script := `[{"tool_calls":[{"name":"tool_search","arguments":{"query":"ping PONG"},"id":"call_s"}]},` +
		`{"tool_calls":[{"name":"mcp__echo__ping","arguments":{"text":"hi"},"id":"call_p"},{"name":"mcp__solo__fail","arguments":{},"id":"call_h"}]},{"text":"done"}]`
	e := newEnv(t, "openai-completions", script, nil)
	e.writeJSON(filepath.Join(e.agentDir, "mcp.json"), map[string]any{"mcpServers": map[string]any{
		"echo": map[string]any{"command": server, "exposure": "deferred"},
		"solo": map[string]any{"command": server, "exposure": "hidden", "toolExposure": map[string]any{"env": "direct"}}}})
	r := e.run("", "--mode", "json", "--no-session", "find ping")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	declared := declaredTools(t, e)
	if want := []string{"read", "bash", "edit", "write", "tool_search", "mcp__solo__env"}; !slices.Equal(declared, want) {
		t.Errorf("first request declared %v, want %v", declared, want)
	}
	if end := mcpToolEnd(t, r.stdout, "call_s"); end.IsError || !strings.Contains(string(end.Result), "mcp__echo__ping") {
		t.Errorf("tool_search result %s", end.Result)
	}
	if end := mcpToolEnd(t, r.stdout, "call_p"); end.IsError || !strings.Contains(string(end.Result), "PONG:hi") {
		t.Errorf("deferred tool result %s", end.Result)
	}
	if end := mcpToolEnd(t, r.stdout, "call_h"); !end.IsError || !strings.Contains(string(end.Result), "not found") {
		t.Errorf("hidden tool result %s, want not found", end.Result)
	}
	reqs := e.srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	var second struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[1].Body, &second); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range second.Tools {
		names = append(names, tl.Function.Name)
	}
	if !slices.Contains(names, "mcp__echo__ping") {
		t.Errorf("second request declared %v: tool_search did not load ping", names)
	}
	sys, _ := second.Messages[0].Content.(string)
	if !strings.Contains(sys, "<mcp_servers>\n") || !strings.Contains(sys, "\n- mcp__echo (tool_search)") || strings.Contains(sys, "mcp__solo (") {
		t.Errorf("system prompt's mcp_servers section:\n%s", sys[strings.LastIndex(sys, "</cwd>")+1:])
	}
}
