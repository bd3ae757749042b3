package engine_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// compactHarness runs a session with the real compactor, the faux
// provider and an in-memory store.
type compactHarness struct {
	s      *engine.Session
	p      *faux.Provider
	mu     sync.Mutex
	events []engine.Event
}

func newCompactHarness(t *testing.T, model *engine.Model, tweak func(*engine.RuntimeSettings), turns ...faux.Turn) *compactHarness {
	t.Helper()
	h := &compactHarness{p: faux.New(turns...)}
	rs := engine.DefaultRuntimeSettings()
	rs.CompactionKeepRecentTokens = 10
	if tweak != nil {
		tweak(&rs)
	}
	s, err := engine.NewSession(engine.SessionOptions{
		Store: session.InMemory(t.TempDir(), ""), Model: model, ThinkingLevel: engine.ThinkingOff,
		ProviderFor: func(string) (engine.Provider, error) { return h.p, nil },
		SystemPrompt: func([]engine.ToolInfo) engine.Sections {
			v := "You help."
			return engine.Sections{{Name: "preamble", Value: &v}}
		},
		Settings:  rs,
		Compactor: compaction.Compactor{},
		Sleep:     func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	h.s = s
	s.Subscribe(func(e engine.Event) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.events = append(h.events, e)
	})
	return h
}

// prompt runs one prompt to the end. The text is padded so that one
// user message alone exceeds keepRecentTokens (10): cuts then land on
// user messages, not inside a turn.
func (h *compactHarness) prompt(t *testing.T, text string) {
	t.Helper()
	text += strings.Repeat(" pad", 12)
	if _, err := h.s.Prompt(context.Background(), text, nil, engine.PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := h.s.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// trace renders the events that matter to compaction, one per line.
func (h *compactHarness) trace() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var b strings.Builder
	for _, e := range h.events {
		switch ev := e.(type) {
		case engine.MessageUpdate, engine.TurnStart, engine.TurnEnd, engine.MessageStart:
			continue
		case engine.MessageEnd:
			fmt.Fprintf(&b, "message_end %s %s\n", ev.Message.Role, ev.Message.StopReason)
		case engine.AgentEnd:
			fmt.Fprintf(&b, "agent_end willRetry=%v\n", ev.WillRetry)
		case engine.CompactionEnd:
			var r struct {
				Summary          string `json:"summary"`
				FirstKeptEntryID string `json:"firstKeptEntryId"`
			}
			_ = json.Unmarshal(ev.Result, &r)
			fmt.Fprintf(&b, "compaction_end %s result=%v aborted=%v willRetry=%v %q\n", ev.Reason, len(ev.Result) > 0, ev.Aborted, ev.WillRetry, ev.ErrorMessage)
		case engine.CompactionStart:
			fmt.Fprintf(&b, "compaction_start %s\n", ev.Reason)
		case engine.EntryAppended:
			fmt.Fprintf(&b, "entry_appended %s\n", ev.Entry.Type)
		case engine.SummarizationRetryScheduled:
			fmt.Fprintf(&b, "summarization_retry_scheduled %d/%d %q\n", ev.Attempt, ev.MaxAttempts, ev.ErrorMessage)
		case engine.SummarizationRetryAttemptStart:
			fmt.Fprintf(&b, "summarization_retry_attempt_start %s %s\n", ev.Source, ev.Reason)
		default:
			b.WriteString(e.EventType() + "\n")
		}
	}
	return b.String()
}

func smallModel(window int) *engine.Model {
	return &engine.Model{ID: "faux-1", Name: "faux-1", API: "faux", Provider: "faux", Input: []string{"text"}, ContextWindow: window, MaxTokens: 4096}
}

func usage(in int) *engine.Usage { return &engine.Usage{Input: in, Output: 10, TotalTokens: in + 10} }

func lastCompaction(s *engine.Session) *engine.Entry {
	var c *engine.Entry
	for _, e := range s.Store().Branch() {
		if e.Type == engine.EntryCompaction {
			c = e
		}
	}
	return c
}

func TestManualCompaction(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(128000), nil,
		faux.Turn{Text: "first answer"}, faux.Turn{Text: "second answer"}, faux.Turn{Text: "## Goal\nsummary"})
	h.prompt(t, "first question")
	h.prompt(t, "second question")
	res, err := h.s.Compact(context.Background(), "focus on tests")
	if err != nil {
		t.Fatal(err)
	}
	c := lastCompaction(h.s)
	if c == nil || c.Summary != "## Goal\nsummary" || c.FirstKeptEntryID != res.FirstKeptEntryID || *c.FromHook || c.SystemMessage == nil {
		t.Fatalf("entry %+v", c)
	}
	if string(c.Details) != `{"readFiles":[],"modifiedFiles":[]}` {
		t.Errorf("details %s", c.Details)
	}
	reqs := h.p.Requests()
	sum := reqs[len(reqs)-1]
	if sum.SystemPrompt != compaction.SystemPrompt || len(sum.Tools) != 0 || len(sum.Messages) != 1 {
		t.Fatalf("summary request %+v", sum)
	}
	text := sum.Messages[0].Content.Text()
	if !strings.HasPrefix(text, "<conversation>\n[User]: first question"+strings.Repeat(" pad", 12)+"\n\n[Assistant]: first answer\n</conversation>\n\n") ||
		!strings.HasSuffix(text, "\n\nAdditional focus: focus on tests") {
		t.Errorf("prompt %q", text)
	}
	// The next request sees the summary and the kept turn only.
	h.prompt(t, "third")
	last := h.p.Requests()[len(h.p.Requests())-1]
	var roles []string
	for _, m := range last.Messages {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, ","); got != "system,user,user,assistant,user" {
		t.Errorf("context roles %s", got)
	}
	if !strings.HasPrefix(last.Messages[1].Content.Text(), engine.CompactionSummaryPrefix+"## Goal") {
		t.Errorf("summary message %q", last.Messages[1].Content.Text())
	}
	golden(t, "manual", h.trace())
}

func TestManualCompactionErrors(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(128000), nil, faux.Turn{Text: "answer"}, faux.Turn{Text: "answer"}, faux.Turn{Text: "sum"})
	if _, err := h.s.Compact(context.Background(), ""); err == nil || err.Error() != "Nothing to compact (session too small)" {
		t.Fatalf("empty session: %v", err)
	}
	h.prompt(t, "question")
	if _, err := h.s.Compact(context.Background(), ""); err == nil || err.Error() != "Nothing to compact (session too small)" {
		t.Fatalf("one exchange: %v", err)
	}
	h.prompt(t, "question")
	if _, err := h.s.Compact(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.Compact(context.Background(), ""); err == nil || err.Error() != "Already compacted" {
		t.Fatalf("second compaction: %v", err)
	}
	golden(t, "manual_errors", h.trace())
}

func TestThresholdCompactionAfterRun(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(1000), func(rs *engine.RuntimeSettings) { rs.CompactionReserveTokens = 200 },
		faux.Turn{Text: "one", Usage: usage(100)}, faux.Turn{Text: "two", Usage: usage(900)}, faux.Turn{Text: "summary"})
	h.prompt(t, "a")
	h.prompt(t, "b")
	if lastCompaction(h.s) == nil {
		t.Fatal("no compaction entry")
	}
	if st := h.s.State(); st.IsCompacting {
		t.Error("still compacting")
	}
	golden(t, "threshold", h.trace())
}

func TestThresholdDisabled(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(1000), func(rs *engine.RuntimeSettings) { rs.CompactionReserveTokens = 200 },
		faux.Turn{Text: "one", Usage: usage(100)}, faux.Turn{Text: "two", Usage: usage(900)})
	h.s.SetAutoCompaction(false)
	h.prompt(t, "a")
	h.prompt(t, "b")
	if lastCompaction(h.s) != nil {
		t.Fatal("compacted with auto-compaction off")
	}
}

const overflowErr = "400: prompt is too long: 250000 tokens > 200000 maximum"

func TestOverflowRecovery(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(128000), nil,
		faux.Turn{Text: "one"}, faux.Turn{Error: overflowErr}, faux.Turn{Text: "summary"}, faux.Turn{Text: "prefix"}, faux.Turn{Text: "recovered"})
	h.prompt(t, "a")
	h.prompt(t, "b")
	// The omitted attempt moves the cut past the prompt it answered, so the
	// prompt is summarised as the prefix of a split turn.
	c := lastCompaction(h.s)
	if c == nil || !strings.Contains(c.Summary, "summary\n\n---\n\n**Turn Context (split turn):**\n\nprefix") {
		t.Fatalf("compaction %+v", c)
	}
	reqs := h.p.Requests()
	if last := reqs[len(reqs)-1]; last.Messages[len(last.Messages)-1].Role != engine.RoleUser {
		t.Error("the retry does not end with the summary/user context")
	}
	golden(t, "overflow", h.trace())
}

func TestOverflowTwice(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(128000), nil,
		faux.Turn{Text: "one"}, faux.Turn{Error: overflowErr}, faux.Turn{Text: "summary"}, faux.Turn{Text: "prefix"}, faux.Turn{Error: overflowErr})
	h.prompt(t, "a")
	h.prompt(t, "b")
	if !strings.Contains(h.trace(), `"Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model."`) {
		t.Error("missing failure text")
	}
	golden(t, "overflow_twice", h.trace())
}

func TestOverflowNothingToSummarize(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(128000), func(rs *engine.RuntimeSettings) { rs.CompactionKeepRecentTokens = 20000 },
		faux.Turn{Error: overflowErr})
	h.prompt(t, "a")
	if n := len(h.p.Requests()); n != 1 {
		t.Errorf("%d requests, want 1 (no retry)", n)
	}
	golden(t, "overflow_nothing", h.trace())
}

func TestSummarizationRetry(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(128000), nil,
		faux.Turn{Text: "one"}, faux.Turn{Text: "two"}, faux.Turn{Error: "503: overloaded"}, faux.Turn{Text: "summary"})
	h.prompt(t, "a")
	h.prompt(t, "b")
	if _, err := h.s.Compact(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	golden(t, "summary_retry", h.trace())
}

func TestSummarizationFailure(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(128000), func(rs *engine.RuntimeSettings) { rs.Retry.Enabled = false },
		faux.Turn{Text: "one"}, faux.Turn{Text: "two"}, faux.Turn{Error: "400: bad request"})
	h.prompt(t, "a")
	h.prompt(t, "b")
	_, err := h.s.Compact(context.Background(), "")
	if err == nil || err.Error() != "Summarization failed: 400: bad request" {
		t.Fatalf("err %v", err)
	}
	golden(t, "summary_failure", h.trace())
}

func TestAbortDuringCompaction(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(128000), nil, faux.Turn{Text: "one"}, faux.Turn{Text: "two"}, faux.Turn{Text: "sum", BlockUntilCancel: true})
	h.prompt(t, "a")
	h.prompt(t, "b")
	done := make(chan error, 1)
	go func() {
		_, err := h.s.Compact(context.Background(), "")
		done <- err
	}()
	for !h.s.State().IsCompacting || len(h.p.Requests()) < 3 {
		time.Sleep(time.Millisecond)
	}
	h.s.Abort()
	if err := <-done; err == nil || err.Error() != "Compaction cancelled" {
		t.Fatalf("err %v", err)
	}
	if lastCompaction(h.s) != nil {
		t.Error("aborted compaction left an entry")
	}
	golden(t, "abort", h.trace())
}

// TestAbortWaitsForCompactionEnd checks that Abort during a manual
// compaction returns only once compaction_end is out, as the reference's
// abort waits for idle (its RPC abort answers after the compact's).
func TestAbortWaitsForCompactionEnd(t *testing.T) {
	t.Parallel()
	h := newCompactHarness(t, smallModel(128000), nil, faux.Turn{Text: "one"}, faux.Turn{Text: "two"}, faux.Turn{Text: "sum", BlockUntilCancel: true})
	h.prompt(t, "a")
	h.prompt(t, "b")
	done := make(chan error, 1)
	go func() {
		_, err := h.s.Compact(context.Background(), "")
		done <- err
	}()
	for !h.s.State().IsCompacting || len(h.p.Requests()) < 3 {
		time.Sleep(time.Millisecond)
	}
	h.s.Abort()
	if !strings.Contains(h.trace(), "compaction_end manual result=false aborted=true") {
		t.Errorf("Abort returned before compaction_end:\n%s", h.trace())
	}
	if h.s.State().IsCompacting {
		t.Error("Abort returned while the compaction was still running")
	}
	<-done
}

// golden compares got with testdata/compaction/NAME.golden; -update (the
// flag runtime_test.go declares for the package's test binary) rewrites it.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "compaction", name+".golden")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s: events differ\n--- want\n%s\n--- got\n%s", name, want, got)
	}
}
