package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
	"github.com/pi-go/pi/prompts"
	"github.com/pi-go/pi/skills"
)

// The -update flag is shared with the other golden tests of the package;
// whichever file runs first defines it.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files under testdata/")
	}
}

// updating reports whether -update was given.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func strp(s string) *string { return &s }

var (
	fauxModel   = &engine.Model{ID: "faux-1", Name: "Faux One", API: "faux", Provider: "faux", Input: []string{"text"}, ContextWindow: 128000, MaxTokens: 16384}
	fauxModel2  = &engine.Model{ID: "faux-2", Name: "Faux Two", API: "faux", Provider: "faux", Reasoning: true, Input: []string{"text", "image"}, ContextWindow: 200000, MaxTokens: 32000}
	lockedModel = &engine.Model{ID: "locked", Name: "Locked", API: "faux", Provider: "nokey", Input: []string{"text"}, ContextWindow: 1000, MaxTokens: 100}
)

// testHost is the Host of the tests: two faux models, an in-memory
// settings map and a fake shell.
type testHost struct {
	provider *faux.Provider
	// model is the start-up model (fauxModel unless a test says otherwise).
	model *engine.Model
	// hooks, when set, are the sessions\' extension hooks.
	hooks  engine.Hooks
	scoped []ScopedModel

	mu       sync.Mutex
	settings map[string]any
}

func newTestHost(p *faux.Provider) *testHost {
	return &testHost{provider: p, model: fauxModel, settings: map[string]any{}}
}

func (h *testHost) StartSession(store *session.File, prev *engine.Session) (*engine.Session, error) {
	model, thinking := h.model, engine.ThinkingOff
	if prev != nil {
		model, thinking = prev.Model(), prev.ThinkingLevel()
	}
	rs := engine.DefaultRuntimeSettings()
	// Keep almost nothing so that a short test session can be compacted.
	rs.CompactionKeepRecentTokens = 4
	return engine.NewSession(engine.SessionOptions{
		Store: store, Cwd: store.Cwd(), Model: model, ThinkingLevel: thinking,
		ProviderFor: func(string) (engine.Provider, error) { return h.provider, nil },
		SystemPrompt: func([]engine.ToolInfo) engine.Sections {
			return engine.Sections{{Name: "preamble", Value: strp("You are a test agent.")}}
		},
		Settings:  rs,
		Sleep:     func(context.Context, time.Duration) error { return nil },
		Compactor: compaction.Compactor{},
		Hooks:     h.hooks,
	})
}

func (h *testHost) AvailableModels() []*engine.Model { return []*engine.Model{fauxModel, fauxModel2} }
func (h *testHost) ScopedModels() []ScopedModel      { return h.scoped }

func (h *testHost) FindModel(provider, id string) *engine.Model {
	for _, m := range []*engine.Model{fauxModel, fauxModel2, lockedModel} {
		if m.Provider == provider && m.ID == id {
			return m
		}
	}
	return nil
}

func (h *testHost) HasAuth(m *engine.Model) bool { return m.Provider == "faux" }

func (h *testHost) SetGlobalSetting(path string, value any) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.settings[path] = value
	return nil
}

// RunBash fakes a shell: "block" waits until cancelled, "fail N" exits
// with N, "big" is truncated, anything else echoes the command.
func (h *testHost) RunBash(ctx context.Context, cwd, command string, onChunk func(string)) (BashResult, error) {
	code := 0
	switch {
	case command == "block":
		onChunk("started\n")
		<-ctx.Done()
		return BashResult{Output: "started\n", Cancelled: true}, nil
	case strings.HasPrefix(command, "fail "):
		fmt.Sscanf(command, "fail %d", &code)
		onChunk("failing\n")
		return BashResult{Output: "failing\n", ExitCode: &code}, nil
	case command == "big":
		onChunk("line 1\n")
		onChunk("line 2\n")
		return BashResult{Output: "line 2", ExitCode: &code, Truncated: true, FullOutputPath: "/tmp/pi-bash-0000000000000000.log"}, nil
	}
	out := command + "\n"
	onChunk(out)
	return BashResult{Output: out, ExitCode: &code}, nil
}

// testController is the tests' session controller: a session.Switcher
// over the testHost's runtimes, with subscriptions that follow the
// replacements, the reference's expansion, and hooks a test may set.
type testController struct {
	host *testHost
	sw   *session.Switcher

	mu        sync.Mutex
	subs      []*testSub
	templates []prompts.Template
	skills    []skills.Skill
	// commands are the extension commands; userBash may answer a bash
	// command (non-nil) or run it itself (run set).
	commands func() []prompts.CommandInfo
	userBash func(ctx context.Context, command string, exclude bool) (res *BashResult, run func(ctx context.Context, onChunk func(string)) (BashResult, error), err error)
}

type testSub struct {
	fn    func(engine.Event)
	unsub func()
}

func newTestController(host *testHost, store *session.File) (*testController, error) {
	c := &testController{host: host}
	sess, err := host.StartSession(store, nil)
	if err != nil {
		return nil, err
	}
	c.sw = session.NewSwitcher(sess, store, host.StartSession)
	c.sw.OnAttach = func(s *engine.Session, _ *session.File) {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, sub := range c.subs {
			sub.unsub()
			sub.unsub = s.Subscribe(sub.fn)
		}
	}
	return c, nil
}

func (c *testController) Current() (*engine.Session, *session.File) { return c.sw.Current() }

func (c *testController) Subscribe(fn func(engine.Event)) func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	sess, _ := c.sw.Current()
	sub := &testSub{fn: fn, unsub: sess.Subscribe(fn)}
	c.subs = append(c.subs, sub)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		sub.unsub()
		sub.unsub = func() {}
	}
}

func (c *testController) NewSession(ctx context.Context, parent string) (bool, error) {
	return c.sw.NewSession(ctx, parent)
}
func (c *testController) SwitchSession(ctx context.Context, path string) (bool, error) {
	return c.sw.SwitchSession(ctx, path)
}
func (c *testController) ForkUser(ctx context.Context, id string) (bool, string, error) {
	return c.sw.ForkUser(ctx, id)
}
func (c *testController) Clone(ctx context.Context) (bool, error) { return c.sw.Clone(ctx) }

func (c *testController) Expand(text string) string {
	templates, list := c.Resources()
	out, err := skills.ExpandPrompt(text, list, templates)
	if err != nil {
		sess, _ := c.Current()
		sess.Publish(engine.ExtensionError{ExtensionPath: err.Path, Event: "skill_expansion", Error: err.Error()})
	}
	return out
}

func (c *testController) queue(text string, images []engine.Content, followUp bool) (string, error) {
	if c.commands != nil && strings.HasPrefix(text, "/") {
		name := strings.TrimPrefix(strings.Fields(text + " ")[0], "/")
		for _, cmd := range c.commands() {
			if cmd.Name == name {
				return "", fmt.Errorf("Extension command \"/%s\" cannot be queued. Use prompt() or execute the command when not streaming.", name)
			}
		}
	}
	sess, _ := c.Current()
	text = c.Expand(text)
	if followUp {
		return sess.FollowUp(text, images), nil
	}
	return sess.Steer(text, images), nil
}

func (c *testController) Steer(_ context.Context, text string, images ...engine.Content) (string, error) {
	return c.queue(text, images, false)
}
func (c *testController) FollowUp(_ context.Context, text string, images ...engine.Content) (string, error) {
	return c.queue(text, images, true)
}

func (c *testController) RunBash(ctx context.Context, command string, exclude bool, onChunk func(string)) (BashResult, error) {
	sess, _ := c.Current()
	if st, err := os.Stat(sess.Cwd()); err != nil || !st.IsDir() {
		return BashResult{}, fmt.Errorf("Working directory does not exist: %s", sess.Cwd())
	}
	run := func(ctx context.Context, onChunk func(string)) (BashResult, error) {
		return c.host.RunBash(ctx, sess.Cwd(), command, onChunk)
	}
	var res BashResult
	if c.userBash != nil {
		answer, own, err := c.userBash(ctx, command, exclude)
		switch {
		case err != nil:
			return BashResult{}, err
		case answer != nil:
			res = *answer
			c.record(sess, command, res, exclude)
			return res, nil
		case own != nil:
			run = own
		}
	}
	res, err := run(ctx, onChunk)
	if err != nil {
		return BashResult{}, err
	}
	c.record(sess, command, res, exclude)
	return res, nil
}

func (c *testController) record(sess *engine.Session, command string, res BashResult, exclude bool) {
	sess.AppendMessage(&engine.Message{Role: engine.RoleBashExecution, Command: command, Output: res.Output, ExitCode: res.ExitCode,
		Cancelled: res.Cancelled, Truncated: res.Truncated, FullOutputPath: res.FullOutputPath,
		ExcludeFromContext: exclude, Timestamp: engine.NowMillis()})
}

func (c *testController) AvailableModels() []*engine.Model { return c.host.AvailableModels() }
func (c *testController) ScopedModels() []ScopedModel      { return c.host.ScopedModels() }
func (c *testController) SetGlobalSetting(path string, value any) error {
	return c.host.SetGlobalSetting(path, value)
}
func (c *testController) Commands() []prompts.CommandInfo {
	if c.commands == nil {
		return nil
	}
	return c.commands()
}
func (c *testController) Resources() ([]prompts.Template, []skills.Skill) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.templates, c.skills
}

// lineSink collects the server's output records, one Write per record.
type lineSink struct {
	mu    sync.Mutex
	lines []string
	ch    chan struct{}
}

func (s *lineSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.lines = append(s.lines, strings.TrimSuffix(string(p), "\n"))
	s.mu.Unlock()
	select {
	case s.ch <- struct{}{}:
	default:
	}
	return len(p), nil
}

// driver runs a server in-process and records a transcript.
type driver struct {
	t      *testing.T
	srv    *Server
	ctl    *testController
	host   *testHost
	in     *io.PipeWriter
	sink   *lineSink
	seen   int
	dir    string
	out    bytes.Buffer
	done   chan error
	cancel context.CancelFunc
}

type driverOptions struct {
	turns     []faux.Turn
	persisted bool
	noModel   bool
	// tweak may set the server's hooks and the controller's before the
	// server starts.
	tweak func(s *Server, c *testController, dir string)
}

func newDriver(t *testing.T, o driverOptions) *driver {
	t.Helper()
	dir := t.TempDir()
	p := faux.New(o.turns...)
	host := newTestHost(p)
	if o.noModel {
		host.model = PlaceholderModel()
	}
	var store *session.File
	if o.persisted {
		var err error
		if store, err = session.Create(filepath.Join(dir, "sessions"), dir, session.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	} else {
		store = session.InMemory(dir, "")
	}
	ctl, err := newTestController(host, store)
	if err != nil {
		t.Fatal(err)
	}
	sink := &lineSink{ch: make(chan struct{}, 1)}
	srv := NewServer(Options{Out: NewWriter(sink), Controller: ctl})
	if o.tweak != nil {
		o.tweak(srv, ctl, dir)
	}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	d := &driver{t: t, srv: srv, ctl: ctl, host: host, in: pw, sink: sink, dir: dir, done: make(chan error, 1), cancel: cancel}
	go func() { d.done <- srv.Serve(ctx, pr) }()
	t.Cleanup(func() {
		_ = pw.Close()
		cancel()
		<-d.done
		_, st := srv.current()
		_ = st.Close()
	})
	return d
}

// send writes one raw record line.
func (d *driver) send(line string) {
	d.t.Helper()
	d.out.WriteString("> " + d.normalize(line) + "\n")
	if _, err := io.WriteString(d.in, line+"\n"); err != nil {
		d.t.Fatal(err)
	}
}

// sendJSON writes v as a record.
func (d *driver) sendJSON(v any) {
	d.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		d.t.Fatal(err)
	}
	d.send(string(b))
}

// until records output lines until pred matches one of them (included)
// and returns that line. The deadline only guards against a hang.
func (d *driver) until(what string, pred func(rec map[string]any) bool) map[string]any {
	d.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		d.sink.mu.Lock()
		lines := d.sink.lines[d.seen:]
		d.sink.mu.Unlock()
		for _, l := range lines {
			d.seen++
			d.out.WriteString("< " + d.normalize(l) + "\n")
			var rec map[string]any
			if err := json.Unmarshal([]byte(l), &rec); err != nil {
				d.t.Fatalf("invalid JSON record %q: %v", l, err)
			}
			if pred(rec) {
				return rec
			}
		}
		select {
		case <-d.sink.ch:
		case <-deadline:
			d.t.Fatalf("timed out waiting for %s; transcript:\n%s", what, d.out.String())
		}
	}
}

// response waits for the response with this id.
func (d *driver) response(id string) map[string]any {
	d.t.Helper()
	return d.until("response "+id, func(r map[string]any) bool { return r["type"] == "response" && r["id"] == id })
}

// command waits for a response to a command type (records without id).
func (d *driver) command(cmd string) map[string]any {
	d.t.Helper()
	return d.until("response to "+cmd, func(r map[string]any) bool { return r["type"] == "response" && r["command"] == cmd })
}

// event waits for an event of this type.
func (d *driver) event(typ string) map[string]any {
	d.t.Helper()
	return d.until(typ, func(r map[string]any) bool { return r["type"] == typ })
}

// call sends a command with an id and waits for its response.
func (d *driver) call(v map[string]any) map[string]any {
	d.t.Helper()
	d.sendJSON(v)
	return d.response(v["id"].(string))
}

// unordered waits for n records matching pred in any order, and records
// them sorted so the transcript does not depend on goroutine scheduling.
func (d *driver) unordered(n int) {
	d.t.Helper()
	deadline := time.After(10 * time.Second)
	var got []string
	for len(got) < n {
		d.sink.mu.Lock()
		lines := d.sink.lines[d.seen:]
		d.sink.mu.Unlock()
		for _, l := range lines {
			if len(got) == n {
				break
			}
			d.seen++
			got = append(got, d.normalize(l))
		}
		if len(got) == n {
			break
		}
		select {
		case <-d.sink.ch:
		case <-deadline:
			d.t.Fatalf("timed out waiting for %d records; transcript:\n%s", n, d.out.String())
		}
	}
	sort.Strings(got)
	for _, l := range got {
		d.out.WriteString("< " + l + "\n")
	}
}

// note adds a comment line to the transcript.
func (d *driver) note(s string) { d.out.WriteString("# " + s + "\n") }

var (
	reUUID  = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	reEntry = regexp.MustCompile(`"[0-9a-f]{8}"`)
	reTSNum = regexp.MustCompile(`"timestamp":\d+`)
	reTSISO = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d[:-]\d\d[:-]\d\d[.-]\d{3}Z`)
	reDur   = regexp.MustCompile(`"durationMs":\d+`)
	reLabTS = regexp.MustCompile(`"labelTimestamp":"[^"]*"`)
	// The wording of a skill read error belongs to the skills package.
	reSkillErr = regexp.MustCompile(`("event":"skill_expansion","error":)"(?:[^"\\]|\\.)*"`)
)

// normalize hides run-specific values: ids, timestamps, the temp dir.
func (d *driver) normalize(l string) string {
	l = strings.ReplaceAll(l, d.dir, "<DIR>")
	l = reUUID.ReplaceAllString(l, "<UUID>")
	l = reEntry.ReplaceAllString(l, `"<ENTRY>"`)
	l = reTSNum.ReplaceAllString(l, `"timestamp":0`)
	l = reTSISO.ReplaceAllString(l, "<TS>")
	l = reDur.ReplaceAllString(l, `"durationMs":0`)
	l = reLabTS.ReplaceAllString(l, `"labelTimestamp":"<TS>"`)
	l = reSkillErr.ReplaceAllString(l, `$1"<ERROR>"`)
	return l
}

// golden compares the transcript with testdata/golden/<name>.txt.
func (d *driver) golden(name string) {
	d.t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	got := d.out.Bytes()
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			d.t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			d.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		d.t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		d.t.Errorf("transcript %s differs from the golden file (run with -update to accept):\n--- want\n%s\n--- got\n%s", name, want, got)
	}
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
