package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testServer is the stdio test server (internal/testserver), built once.
var testServer string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pi-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testServer = filepath.Join(dir, "testserver")
	build := exec.Command("go", "build", "-o", testServer, "./internal/testserver")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the test server:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoad checks the configuration rules of docs/mcp.md: validation
// messages as the reference words them, project entries replacing
// global ones, override entries changing only enabled and exposure (and
// needing a global server), aliases, and clashing names.
func TestLoad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, global, project string
		trusted               bool
		want                  []string // name:scope:exposure:enabled:override?
		errs                  []string
	}{
		{name: "stdio and http", global: `{"mcpServers":{"a":{"command":"x"},"b":{"url":"https://e.com/mcp","exposure":"codemode-deferred"}}}`,
			want: []string{"a:global:codemode:true", "b:global:codemode:true"}},
		{name: "invalid entries are skipped", global: `{"mcpServers":{"bad name":{"command":"x"},"s":{"type":"sse","url":"http://a"},"u":{"url":"ftp://x"},"n":{},"e":{"command":"x","exposure":"loud"},"ok":{"command":"y"}}}`,
			want: []string{"ok:global:codemode:true"},
			errs: []string{`invalid server name "bad name" (use letters, digits, "_" and "-")`, `server "s": legacy SSE transport is not supported; use the streamable HTTP URL`,
				`server "u": url must be an http or https URL`, `server "n" needs either "command" (stdio) or "url" (streamable HTTP)`,
				`server "e": exposure must be one of "codemode", "deferred", "direct", "hidden"`}},
		{name: "clash", global: `{"mcpServers":{"a-b":{"command":"x"},"a_b":{"command":"y"}}}`,
			want: []string{"a-b:global:codemode:true"}, errs: []string{`server "a_b" conflicts with "a-b"`}},
		{name: "untrusted project ignored", global: `{"mcpServers":{"a":{"command":"x"}}}`, project: `{"mcpServers":{"a":{"enabled":false}}}`,
			want: []string{"a:global:codemode:true"}},
		{name: "project override", trusted: true, global: `{"mcpServers":{"a":{"command":"x","env":{"K":"v"}}}}`, project: `{"mcpServers":{"a":{"enabled":false,"exposure":"direct"}}}`,
			want: []string{"a:global:direct:false:override"}},
		{name: "project replaces", trusted: true, global: `{"mcpServers":{"a":{"command":"x"}}}`, project: `{"mcpServers":{"a":{"command":"y"}}}`,
			want: []string{"a:project:codemode:true"}},
		{name: "override needs a global server", trusted: true, project: `{"mcpServers":{"z":{"enabled":false},"a":{"command":"x","oops":1}}}`,
			want: []string{"a:project:codemode:true"}, errs: []string{`server "z" needs "command" or "url", or a global server to override`}},
		{name: "override keys", trusted: true, global: `{"mcpServers":{"a":{"command":"x"}}}`, project: `{"mcpServers":{"a":{"enabled":false,"env":{}}}}`,
			want: []string{"a:global:codemode:true"}, errs: []string{`server "a": an override can only set enabled, exposure, toolExposure`}},
		{name: "not an object", global: `[]`, errs: []string{`expected an object with an "mcpServers" object`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agent, cwd := t.TempDir(), t.TempDir()
			if tc.global != "" {
				writeFile(t, GlobalPath(agent), tc.global)
			}
			if tc.project != "" {
				writeFile(t, ProjectPath(cwd), tc.project)
			}
			c := Load(agent, cwd, tc.trusted)
			var got []string
			for _, s := range c.Servers {
				g := fmt.Sprintf("%s:%s:%s:%v", s.Name, s.Scope, s.Exposure, s.Enabled)
				if s.Override != "" {
					g += ":override"
				}
				got = append(got, g)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("servers %v, want %v", got, tc.want)
			}
			if len(c.Errors) != len(tc.errs) {
				t.Fatalf("errors %q, want %d", c.Errors, len(tc.errs))
			}
			for i, e := range tc.errs {
				if !strings.HasSuffix(c.Errors[i], e) {
					t.Errorf("error %q, want it to end with %q", c.Errors[i], e)
				}
			}
		})
	}
}

// TestToolNames checks the tool names: sanitised, hash-suffixed when too
// long or when two tools of a server sanitise alike, and the exposure
// lookup (exact name, then the first matching pattern, then the server's).
func TestToolNames(t *testing.T) {
	t.Parallel()
	if got := ToolName("my-srv", "get.item", nil); got != "mcp__my_srv__get_item" {
		t.Errorf("ToolName = %q", got)
	}
	long := ToolName("server", strings.Repeat("x", 80), nil)
	if len(long) != 64 || !strings.HasPrefix(long, "mcp__server__xxx") {
		t.Errorf("long name %q (%d)", long, len(long))
	}
	taken := ToolName("s", "a-b", func(string) bool { return true })
	if taken == "mcp__s__a_b" || !strings.HasPrefix(taken, "mcp__s__a_b_") {
		t.Errorf("taken name %q", taken)
	}
	s, msg := Validate("g", mustDecode(t, `{"url":"https://e.com","exposure":"deferred","toolExposure":{"get_*":"codemode","search_code":"direct","*":"hidden"}}`))
	if msg != "" {
		t.Fatal(msg)
	}
	for tool, want := range map[string]string{"search_code": "direct", "get_x": "codemode", "other": "hidden"} {
		if got := s.ToolExposureOf(tool); got != want {
			t.Errorf("%s: exposure %q, want %q", tool, got, want)
		}
	}
}

// TestCLI checks pi mcp add, remove and list against the reference's
// answers: the entries written (key order, file layout kept), messages
// and exit codes, and a list that connects to the test server.
func TestCLI(t *testing.T) {
	t.Parallel()
	agent, cwd := t.TempDir(), t.TempDir()
	run := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := RunCLI(context.Background(), args, CLIOptions{AgentDir: agent, Cwd: cwd, Stdout: &out, Stderr: &errb})
		return out.String(), errb.String(), code
	}
	writeFile(t, GlobalPath(agent), "{\n    \"other\": 1\n}\n")
	steps := []struct {
		args      []string
		code      int
		out, errs string
	}{
		{[]string{"add", "echo", "--exposure", "direct", "--env", "A=1", "--", testServer, "--flag"}, 0, `Added global MCP server "echo" in ` + GlobalPath(agent) + ".\nCheck it with: pi mcp list\n", ""},
		{[]string{"add", "docs", "--url", "https://example.com/mcp"}, 0, "", ""},
		{[]string{"add", "docs", "--url", "https://example.com/mcp", "--bearer-token-env-var", "TOK"}, 0, `Replaced global MCP server "docs"`, ""},
		{[]string{"add", "x", "--cwd", "d", "--url", "http://a"}, 1, "", "--cwd only applies to stdio servers.\n"},
		{[]string{"add", "x", "--header", "H=1", "--", "cmd"}, 1, "", "--header only applies to HTTP servers (--url).\n"},
		{[]string{"add", "bad", "--url", "ftp://x"}, 1, "", `server "bad": url must be an http or https URL` + "\n"},
		{[]string{"add", "x", "--env", "noequals", "--", "cmd"}, 1, "", `--env expects KEY=VALUE, got "noequals".` + "\n"},
		{[]string{"remove", "nope"}, 1, "", `No global MCP server named "nope"`},
		{[]string{"remove", "docs"}, 0, `Removed global MCP server "docs"`, ""},
		{[]string{"frob"}, 1, "", `Unknown mcp command "frob".`},
		{[]string{"login", "echo"}, 1, "", `MCP server "echo" does not use OAuth.`},
	}
	for _, st := range steps {
		out, errs, code := run(st.args...)
		if code != st.code || !strings.Contains(out, st.out) || !strings.Contains(errs, st.errs) {
			t.Errorf("pi mcp %v: exit %d, stdout %q, stderr %q; want %d, %q, %q", st.args, code, out, errs, st.code, st.out, st.errs)
		}
	}
	b, _ := os.ReadFile(GlobalPath(agent))
	want := fmt.Sprintf("{\n    \"other\": 1,\n    \"mcpServers\": {\n        \"echo\": {\n            \"command\": %q,\n            \"args\": [\n                \"--flag\"\n            ],\n            \"env\": {\n                \"A\": \"1\"\n            },\n            \"exposure\": \"direct\"\n        }\n    }\n}\n", testServer)
	if string(b) != want {
		t.Errorf("mcp.json:\n%s\nwant\n%s", b, want)
	}
	// --flag is no option of the test server: it fails to start.
	_, _, code := run("list")
	if code != 1 {
		t.Errorf("list with a failing server: exit %d, want 1", code)
	}
	if _, errs, code := run("add", "echo", "--exposure", "direct", "--", testServer); code != 0 {
		t.Fatal(errs)
	}
	out, _, code := run("list", "--json")
	var got struct {
		Servers []struct {
			Name, State string
			Tools       []string
			Resources   bool
		}
		Errors []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if code != 0 || len(got.Servers) != 1 || got.Servers[0].State != "connected" || strings.Join(got.Servers[0].Tools, ",") != "cwd,env,fail,ping,slow" || !got.Servers[0].Resources {
		t.Errorf("list --json: exit %d, %s", code, out)
	}
	out, _, _ = run("list")
	if !strings.HasPrefix(out, "echo: connected, 5 tools (direct, global)\n  "+testServer+"\n  tools: cwd, env, fail, ping, slow\n  offers resources\n") {
		t.Errorf("list:\n%s", out)
	}
}

func mustDecode(t *testing.T, s string) any {
	t.Helper()
	c := &Config{}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "m.json"), `{"mcpServers":{"x":`+s+`}}`)
	c.readFile(filepath.Join(dir, "m.json"), "global")
	if len(c.Servers) != 1 {
		t.Fatalf("decode %s: %v", s, c.Errors)
	}
	return c.Servers[0].Config
}
