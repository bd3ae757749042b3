package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/pi/internal/mockllm"
)

var update = flag.Bool("update", false, "rewrite golden transcripts in testdata/")

// piBin is the binary TestMain builds once for every test.
var piBin string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "pi-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	piBin = filepath.Join(dir, "pi")
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	build := exec.Command("go", "build", "-o", piBin, "./cmd/pi")
	build.Dir = root
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building pi:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// apis are the wire APIs every scenario runs against.
var apis = []string{"openai-completions", "anthropic-messages"}

// env is one throwaway installation: HOME with an agent dir, a project
// folder, and the mock server the models.json points at.
type env struct {
	t        *testing.T
	root     string
	home     string
	agentDir string
	proj     string
	srv      *mockllm.Server
	api      string
}

// newEnv starts a mock with the script (JSON turns) and writes models.json
// and settings.json (defaults merged with extra settings).
func newEnv(t *testing.T, api, script string, settings map[string]any) *env {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj"), api: api}
	e.agentDir = filepath.Join(e.home, ".pi", "agent")
	for _, d := range []string{e.agentDir, e.proj, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := mockllm.StartJSON(t, []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	base := srv.URL()
	if api == "anthropic-messages" {
		base = srv.BaseURL()
	}
	models := map[string]any{"providers": map[string]any{"mock": map[string]any{
		"baseUrl": base, "api": api, "apiKey": "mock-key",
		"models": []any{map[string]any{"id": "mock-model"}},
	}}}
	st := map[string]any{"defaultProvider": "mock", "defaultModel": "mock-model"}
	for k, v := range settings {
		st[k] = v
	}
	e.writeJSON(filepath.Join(e.agentDir, "models.json"), models)
	e.writeJSON(filepath.Join(e.agentDir, "settings.json"), st)
	return e
}

func (e *env) writeJSON(path string, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// write creates a project file.
func (e *env) write(rel, content string) {
	p := filepath.Join(e.proj, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) read(rel string) string {
	b, err := os.ReadFile(filepath.Join(e.proj, rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// cmd prepares the binary with the throwaway environment.
func (e *env) cmd(stdin string, args ...string) *exec.Cmd {
	// No run may outlive a minute, so a hang fails the test instead of
	// the whole suite.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	e.t.Cleanup(cancel)
	c := exec.CommandContext(ctx, piBin, args...)
	c.Dir = e.proj
	c.Env = []string{
		"HOME=" + e.home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + filepath.Join(e.root, "tmp"),
		"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0", "TERM=dumb", "NO_COLOR=1", "LANG=C.UTF-8",
	}
	c.Stdin = strings.NewReader(stdin)
	return c
}

type result struct {
	stdout, stderr string
	code           int
}

// run runs the binary to completion.
func (e *env) run(stdin string, args ...string) result {
	e.t.Helper()
	c := e.cmd(stdin, args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// records parses JSONL output.
func records(t *testing.T, out string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("bad JSON line %q: %v", line, err)
		}
		recs = append(recs, m)
	}
	return recs
}

// types lists the record types in order.
func types(recs []map[string]any) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i], _ = r["type"].(string)
	}
	return out
}

func count(ts []string, typ string) int {
	n := 0
	for _, t := range ts {
		if t == typ {
			n++
		}
	}
	return n
}

// sessionFiles lists the .jsonl files under the agent's session folder.
func (e *env) sessionFiles() []string {
	var files []string
	_ = filepath.WalkDir(filepath.Join(e.agentDir, "sessions"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	return files
}

// --- normalization of JSON transcripts for golden files -----------------

var (
	uuidRe = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	hexRe  = regexp.MustCompile(`^[0-9a-f]{8}$`)
	portRe = regexp.MustCompile(`127\.0\.0\.1:\d+`)
)

type normalizer struct {
	root string
	ids  map[string]string
}

// normalizeTranscript rewrites JSONL so that runs compare equal: ids,
// timestamps, durations, paths and ports become placeholders; our own
// prose (system prompt sections, tool schemas) is cut to a marker because
// it is compared elsewhere; streaming usage is dropped as it depends on
// chunk timing. Key order is kept.
func normalizeTranscript(t *testing.T, root, out string) string {
	t.Helper()
	n := &normalizer{root: root, ids: map[string]string{}}
	var lines []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		v, err := decodeOrdered(dec)
		if err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		lines = append(lines, n.encode("", v))
	}
	// How a tool's output is split into partial results depends on pipe
	// reads, so only the last of consecutive updates is kept.
	const upd = `{"type":"tool_execution_update"`
	var b strings.Builder
	for i, l := range lines {
		if strings.HasPrefix(l, upd) && i+1 < len(lines) && strings.HasPrefix(lines[i+1], upd) {
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

type kv struct {
	k string
	v any
}

// decodeOrdered reads one JSON value keeping object key order.
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch x := tok.(type) {
	case json.Delim:
		switch x {
		case '{':
			var obj []kv
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, kv{kt.(string), v})
			}
			_, err := dec.Token()
			return obj, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
	}
	return tok, nil
}

func (n *normalizer) encode(key string, v any) string {
	switch key {
	case "timestamp":
		return `"<TS>"`
	case "durationMs", "wall_time_seconds":
		return `"<DURATION>"`
	case "sections":
		return `"<SECTIONS>"`
	case "toolsAdded", "toolsRemoved":
		return `"<TOOLS>"`
	}
	switch x := v.(type) {
	case []kv:
		parts := make([]string, 0, len(x))
		isUpdate := false
		for _, p := range x {
			if p.k == "type" && p.v == "message_update" {
				isUpdate = true
			}
		}
		for _, p := range x {
			val := n.encode(p.k, p.v)
			if isUpdate && p.k == "usage" {
				val = `"<USAGE>"`
			}
			kb, _ := json.Marshal(p.k)
			parts = append(parts, string(kb)+":"+val)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = n.encode("", e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case string:
		s := x
		if uuidRe.MatchString(s) || (hexRe.MatchString(s) && (key == "id" || key == "parentId" || key == "targetId")) {
			if _, ok := n.ids[s]; !ok {
				n.ids[s] = fmt.Sprintf("<ID:%d>", len(n.ids)+1)
			}
			s = n.ids[s]
		}
		s = strings.ReplaceAll(s, n.root, "<ROOT>")
		s = portRe.ReplaceAllString(s, "127.0.0.1:<PORT>")
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
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

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./e2e -update)", err)
	}
	if string(want) != got {
		t.Errorf("transcript differs from %s (go test ./e2e -update to accept)\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

// lastAssistant returns the final assistant message of a JSON transcript.
func lastAssistant(recs []map[string]any) map[string]any {
	var last map[string]any
	for _, r := range recs {
		if r["type"] == "message_end" {
			if m, ok := r["message"].(map[string]any); ok && m["role"] == "assistant" {
				last = m
			}
		}
	}
	return last
}

func readAll(r io.Reader) string {
	b, _ := io.ReadAll(r)
	return string(b)
}
