package e2e_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/internal/mockllm"
)

// This file checks that session files cross between our binary and the
// reference in both directions: a file one writes is opened by the other
// with --mode rpc --session <file>, and its answers to get_messages,
// get_state, get_entries and get_tree equal, after normalization, the
// writer's own answers on the same file; the other binary then appends a
// prompt and the writer reads the result back.

// interopEnv is one throwaway installation shared by both binaries: the
// same HOME (so the same session folder) and project folder, with
// models.json rewritten for each process to point at a fresh mock.
type interopEnv struct {
	t        *testing.T
	api      string
	root     string
	home     string
	agentDir string
	proj     string
}

func newInteropEnv(t *testing.T, api string) *interopEnv {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &interopEnv{t: t, api: api, root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj")}
	e.agentDir = filepath.Join(e.home, ".pi", "agent")
	for _, d := range []string{e.agentDir, e.proj, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// mock starts a mock LLM with the turns and points models.json at it. The
// provider has a second, reasoning model so set_model and
// set_thinking_level leave entries in the file.
func (e *interopEnv) mock(turns string) {
	e.t.Helper()
	srv, err := mockllm.StartJSON(e.t, []byte(`{"turns":`+turns+`,"fallback_text":"ok"}`))
	if err != nil {
		e.t.Fatal(err)
	}
	base := srv.URL()
	if e.api == "anthropic-messages" {
		base = srv.BaseURL()
	}
	models := map[string]any{"providers": map[string]any{"mock": map[string]any{
		"baseUrl": base, "api": e.api, "apiKey": "mock-key",
		"models": []any{map[string]any{"id": "mock-model"}, map[string]any{"id": "mock-reasoning", "reasoning": true}},
	}}}
	settings := map[string]any{"defaultProvider": "mock", "defaultModel": "mock-model"}
	for name, v := range map[string]any{"models.json": models, "settings.json": settings} {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			e.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(e.agentDir, name), b, 0o600); err != nil {
			e.t.Fatal(err)
		}
	}
}

// rpcProc is one pi --mode rpc process.
type rpcProc struct {
	t     *testing.T
	name  string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	// seen keeps every line read, for failure messages.
	seen []string
}

// start runs the command line pi (ours or the reference's) in RPC mode
// with extra arguments.
func (e *interopEnv) start(name string, pi []string, args ...string) *rpcProc {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	e.t.Cleanup(cancel)
	argv := append(append(append([]string{}, pi[1:]...), "--mode", "rpc"), args...)
	c := exec.CommandContext(ctx, pi[0], argv...)
	c.Dir = e.proj
	c.Env = []string{
		"HOME=" + e.home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + filepath.Join(e.root, "tmp"),
		"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0", "TERM=dumb", "NO_COLOR=1", "LANG=C.UTF-8",
	}
	stdin, err := c.StdinPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	stdout, err := c.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	stderr, err := os.Create(filepath.Join(e.root, fmt.Sprintf("%s-%d.stderr", name, time.Now().UnixNano())))
	if err != nil {
		e.t.Fatal(err)
	}
	c.Stderr = stderr
	if err := c.Start(); err != nil {
		e.t.Fatal(err)
	}
	p := &rpcProc{t: e.t, name: name, cmd: c, stdin: stdin, lines: make(chan string, 1024)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	e.t.Cleanup(func() {
		_ = c.Process.Kill()
		_ = c.Wait()
		stderr.Close()
	})
	return p
}

// next returns the next stdout line, failing the test on EOF or after a
// generous limit (a hang, not a timing assertion).
func (p *rpcProc) next(what string) string {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("%s: stdout closed while waiting for %s; lines so far:\n%s", p.name, what, strings.Join(p.seen, "\n"))
		}
		p.seen = append(p.seen, l)
		return l
	case <-time.After(time.Minute):
		p.t.Fatalf("%s: no %s within a minute; lines so far:\n%s", p.name, what, strings.Join(p.seen, "\n"))
	}
	return ""
}

// call sends a command with an id and returns the data of its successful
// response. Events that arrive meanwhile are skipped.
func (p *rpcProc) call(cmd map[string]any) json.RawMessage {
	p.t.Helper()
	resp := p.send(cmd, "")
	var r struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   string          `json:"error"`
	}
	if err := json.Unmarshal([]byte(resp), &r); err != nil {
		p.t.Fatal(err)
	}
	if !r.Success {
		p.t.Fatalf("%s: %v failed: %s", p.name, cmd, resp)
	}
	return r.Data
}

// send writes the command and reads until its response; with until set it
// then reads on until an event of that type (agent_settled for prompts).
func (p *rpcProc) send(cmd map[string]any, until string) string {
	p.t.Helper()
	b, err := json.Marshal(cmd)
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		p.t.Fatalf("%s: write: %v", p.name, err)
	}
	var resp string
	gotUntil := until == ""
	for resp == "" || !gotUntil {
		l := p.next(fmt.Sprint(cmd["type"]))
		var h struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		_ = json.Unmarshal([]byte(l), &h)
		switch {
		case h.Type == "response" && h.ID == cmd["id"]:
			resp = l
		case until != "" && h.Type == until:
			gotUntil = true
		}
	}
	return resp
}

// prompt sends a prompt and waits until the agent settles.
func (p *rpcProc) prompt(id, text string) {
	p.t.Helper()
	resp := p.send(map[string]any{"id": id, "type": "prompt", "message": text}, "agent_settled")
	if !strings.Contains(resp, `"success":true`) {
		p.t.Fatalf("%s: prompt failed: %s", p.name, resp)
	}
}

// close ends the process by closing stdin and waits for it to exit.
func (p *rpcProc) close() {
	p.t.Helper()
	p.stdin.Close()
	for range p.lines {
	}
	if err := p.cmd.Wait(); err != nil {
		p.t.Fatalf("%s: exit: %v", p.name, err)
	}
}

// snapshot is what a binary answers about a session file.
type snapshot map[string]string

// queries asks the session questions this test compares and returns the
// normalized data of each answer.
func (p *rpcProc) queries(root string) snapshot {
	p.t.Helper()
	s := snapshot{}
	for _, q := range []string{"get_messages", "get_state", "get_entries", "get_tree"} {
		s[q] = normalizeData(p.t, root, p.call(map[string]any{"id": "q-" + q, "type": q}))
	}
	return s
}

// normalizeData applies the e2e transcript normalization (ids by first
// appearance, timestamps, durations, temp root, mock port) to one value,
// keeping key order so that order differences count.
func normalizeData(t *testing.T, root string, data json.RawMessage) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		t.Fatalf("bad data %s: %v", data, err)
	}
	n := &normalizer{root: root, ids: map[string]string{}}
	out := n.encode("", v)
	// The e2e normalizer maps hex entry ids only under id/parentId/
	// targetId; a leafId names an entry as well.
	return leafRe.ReplaceAllStringFunc(out, func(m string) string {
		id := leafRe.FindStringSubmatch(m)[1]
		if _, ok := n.ids[id]; !ok {
			n.ids[id] = fmt.Sprintf("<ID:%d>", len(n.ids)+1)
		}
		return `"leafId":"` + n.ids[id] + `"`
	})
}

var leafRe = regexp.MustCompile(`"leafId":"([0-9a-f]{8})"`)

// compareSnapshots reports every answer that differs.
func compareSnapshots(t *testing.T, what string, want, got snapshot, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if want[k] != got[k] {
			t.Errorf("%s: %s differs (-v logs both in full)\n%s", what, k, firstDiff(want[k], got[k]))
			t.Logf("%s: %s\n--- writer\n%s\n--- reader\n%s", what, k, want[k], got[k])
		}
	}
}

// firstDiff shows both strings around the first byte where they differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-120)
	return fmt.Sprintf("writer: …%s…\nreader: …%s…", a[lo:min(len(a), i+120)], b[lo:min(len(b), i+120)])
}

// produce writes a session with pi: a prompt answered by a bash tool call
// and a text reply, an RPC bash command (a bashExecution message), a
// session name, a switch to the reasoning model at thinking level high,
// and a second prompt answered with thinking and text. It returns the
// session file and the writer's own answers about it just before it
// exited.
func (e *interopEnv) produce(name string, pi []string) (string, snapshot) {
	e.t.Helper()
	e.mock(`[
		{"text": "Running it.", "tool_calls": [{"name": "bash", "arguments": {"command": "echo interop"}}]},
		{"text": "It printed interop."},
		{"thinking": "Thinking it over.", "text": "Second answer."}
	]`)
	p := e.start(name+"-write", pi)
	p.prompt("p1", "Run echo interop.")
	p.call(map[string]any{"id": "b1", "type": "bash", "command": "echo from-rpc"})
	p.call(map[string]any{"id": "n1", "type": "set_session_name", "name": "interop " + name})
	p.call(map[string]any{"id": "m1", "type": "set_model", "provider": "mock", "modelId": "mock-reasoning"})
	p.call(map[string]any{"id": "t1", "type": "set_thinking_level", "level": "high"})
	p.prompt("p2", "Think about it.")
	var st struct {
		SessionFile string `json:"sessionFile"`
	}
	if err := json.Unmarshal(p.call(map[string]any{"id": "s1", "type": "get_state"}), &st); err != nil {
		e.t.Fatal(err)
	}
	made := p.queries(e.root)
	p.close()
	if st.SessionFile == "" {
		e.t.Fatalf("%s: get_state has no sessionFile", name)
	}
	if _, err := os.Stat(st.SessionFile); err != nil {
		e.t.Fatalf("%s: session file: %v", name, err)
	}
	return st.SessionFile, made
}

// copyFile copies a session file next to itself, so that one binary's
// reopening cannot change what the other one reads.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// keepOnFailure copies the session file into $PI_INTEROP_KEEP (when set)
// at the end of a failed test, to look at by hand.
func keepOnFailure(t *testing.T, file, name string) {
	dir := os.Getenv("PI_INTEROP_KEEP")
	if dir == "" {
		return
	}
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		if b, err := os.ReadFile(file); err == nil {
			_ = os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
	})
}

// TestSessionInterop writes a session with each binary and reads it with
// the other, for both wire APIs. It is skipped when the reference is not
// installed.
func TestSessionInterop(t *testing.T) {
	t.Parallel()
	ref := needReference(t)
	ours := []string{piBin}
	for _, api := range apis {
		for _, dir := range []struct {
			name           string
			writer, reader []string
			wName, rName   string
		}{
			{"ours_to_ref", ours, ref, "ours", "ref"},
			{"ref_to_ours", ref, ours, "ref", "ours"},
		} {
			t.Run(api+"/"+dir.name, func(t *testing.T) {
				t.Parallel()
				e := newInteropEnv(t, api)
				file, made := e.produce(dir.wName, dir.writer)
				keepOnFailure(t, file, api+"_"+dir.name+".jsonl")
				all := []string{"get_messages", "get_state", "get_entries", "get_tree"}

				// The writer reopens (a copy of) its own file: everything,
				// model and thinking level included, is as it left it.
				own := strings.TrimSuffix(file, ".jsonl") + "-copy.jsonl"
				copyFile(t, file, own)
				e.mock(`[]`)
				w := e.start(dir.wName+"-reopen-own", dir.writer, "--session", own)
				self := w.queries(e.root)
				w.close()
				for k, v := range self {
					self[k] = strings.ReplaceAll(v, "-copy.jsonl", ".jsonl")
				}
				compareSnapshots(t, dir.wName+" reopens its own file", made, self, all...)

				// The other binary opens the file and answers as the
				// writer did.
				e.mock(`[{"text": "Appended by the other binary."}]`)
				r := e.start(dir.rName+"-open", dir.reader, "--session", file)
				got := r.queries(e.root)
				compareSnapshots(t, dir.wName+" file opened by "+dir.rName, made, got, all...)

				// The reader appends a turn; the writer reads it back.
				r.prompt("p3", "One more.")
				after := r.queries(e.root)
				r.close()
				if strings.Count(after["get_messages"], "Appended by the other binary.") != 1 {
					t.Fatalf("%s did not append the reply: %s", dir.rName, after["get_messages"])
				}
				e.mock(`[]`)
				w2 := e.start(dir.wName+"-reopen", dir.writer, "--session", file)
				back := w2.queries(e.root)
				w2.close()
				compareSnapshots(t, dir.rName+" append read back by "+dir.wName, after, back, all...)
			})
		}
	}
}

// TestRecordedSessionInterop opens session files the reference wrote
// (testdata/interop/ref_session_<api>.jsonl, temp root replaced by <ROOT>)
// with our binary and requires get_messages to equal the reference's own
// answer on the same file, recorded next to it; then our binary appends a
// prompt and reopens the file. It needs no reference, so CI checks the
// reference-to-ours direction too; -update re-records the fixtures with
// the reference.
func TestRecordedSessionInterop(t *testing.T) {
	t.Parallel()
	for _, api := range apis {
		t.Run(api, func(t *testing.T) {
			t.Parallel()
			base := filepath.Join("testdata", "interop", "ref_session_"+api)
			if *update {
				ref := needReference(t)
				e := newInteropEnv(t, api)
				file, _ := e.produce("ref", ref)
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				// The fixture keeps the facts of the reference's system
				// message but not its wording; the reference then answers
				// on the scrubbed file.
				scrubbed := scrubProse(t, string(b))
				if err := os.WriteFile(file, []byte(scrubbed), 0o644); err != nil {
					t.Fatal(err)
				}
				e.mock(`[]`)
				p := e.start("ref-record", ref, "--session", file)
				answer := normalizeData(t, e.root, p.call(map[string]any{"id": "m0", "type": "get_messages"}))
				p.close()
				if err := os.WriteFile(base+".jsonl", []byte(strings.ReplaceAll(scrubbed, e.root, "<ROOT>")), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(base+".messages.json", []byte(answer+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tmpl, err := os.ReadFile(base + ".jsonl")
			if err != nil {
				t.Fatalf("%v (record with -update)", err)
			}
			want, err := os.ReadFile(base + ".messages.json")
			if err != nil {
				t.Fatalf("%v (record with -update)", err)
			}
			e := newInteropEnv(t, api)
			file := filepath.Join(e.root, "ref-session.jsonl")
			if err := os.WriteFile(file, []byte(strings.ReplaceAll(string(tmpl), "<ROOT>", e.root)), 0o644); err != nil {
				t.Fatal(err)
			}
			e.mock(`[{"text": "Appended by the other binary."}]`)
			p := e.start("ours-open", []string{piBin}, "--session", file)
			got := normalizeData(t, e.root, p.call(map[string]any{"id": "m1", "type": "get_messages"}))
			if got != strings.TrimSuffix(string(want), "\n") {
				t.Errorf("get_messages on the reference's file differs from the reference's answer\n%s", firstDiff(string(want), got))
			}
			p.prompt("p1", "One more.")
			after := p.call(map[string]any{"id": "m2", "type": "get_messages"})
			p.close()
			e.mock(`[]`)
			p = e.start("ours-reopen", []string{piBin}, "--session", file)
			back := p.call(map[string]any{"id": "m3", "type": "get_messages"})
			p.close()
			if a, b := normalizeData(t, e.root, after), normalizeData(t, e.root, back); a != b || !strings.Contains(a, "Appended by the other binary.") {
				t.Errorf("after appending, reopening gives other messages\n%s", firstDiff(a, b))
			}
		})
	}
}

// scrubProse replaces the reference's own wording in the system messages
// of a session file (prompt sections other than cwd, tool and parameter
// descriptions) with "<prose>", keeping every other byte's meaning and
// each object's key order.
func scrubProse(t *testing.T, file string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(file, "\n"), "\n") {
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		v, err := decodeOrdered(dec)
		if err != nil {
			t.Fatalf("bad session line %q: %v", line, err)
		}
		b.WriteString(encodeOrdered(scrub(v, false)))
		b.WriteByte('\n')
	}
	return b.String()
}

func scrub(v any, prose bool) any {
	switch x := v.(type) {
	case []kv:
		system := false
		for _, p := range x {
			if p.k == "role" && p.v == "system" {
				system = true
			}
		}
		out := make([]kv, len(x))
		for i, p := range x {
			switch {
			case system && p.k == "sections":
				out[i] = kv{p.k, scrubSections(p.v)}
			case system && p.k == "toolsAdded":
				out[i] = kv{p.k, scrub(p.v, true)}
			case prose && p.k == "description":
				if _, ok := p.v.(string); ok {
					out[i] = kv{p.k, "<prose>"}
					continue
				}
				out[i] = kv{p.k, scrub(p.v, prose)}
			default:
				out[i] = kv{p.k, scrub(p.v, prose)}
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = scrub(e, prose)
		}
		return out
	}
	return v
}

func scrubSections(v any) any {
	obj, ok := v.([]kv)
	if !ok {
		return v
	}
	out := make([]kv, len(obj))
	for i, p := range obj {
		if _, isText := p.v.(string); isText && p.k != "cwd" {
			out[i] = kv{p.k, "<prose>"}
		} else {
			out[i] = p
		}
	}
	return out
}

// encodeOrdered writes a value read by decodeOrdered back as JSON the way
// JSON.stringify would (key order kept, <>& not escaped).
func encodeOrdered(v any) string {
	switch x := v.(type) {
	case []kv:
		parts := make([]string, len(x))
		for i, p := range x {
			parts[i] = encodeOrdered(p.k) + ":" + encodeOrdered(p.v)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = encodeOrdered(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case string:
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(x)
		return strings.TrimSuffix(buf.String(), "\n")
	case json.Number:
		return x.String()
	case bool:
		return fmt.Sprint(x)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}
