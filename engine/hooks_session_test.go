package engine_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// fakeSessionHooks records the session lifecycle hooks and answers with
// preset decisions.
type fakeSessionHooks struct {
	engine.NopHooks
	mu        sync.Mutex
	log       []string
	compact   *engine.BeforeCompactResult
	tree      *engine.BeforeTreeOutcome
	prep      *engine.TreePreparation
	compactEv *engine.BeforeCompactEvent
}

func (f *fakeSessionHooks) add(format string, a ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log = append(f.log, fmt.Sprintf(format, a...))
}

func (f *fakeSessionHooks) trace() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.log, "\n")
}

func (f *fakeSessionHooks) BeforeSwitch(_ context.Context, reason, target string) bool {
	f.add("before_switch %s", reason)
	return false
}

func (f *fakeSessionHooks) BeforeFork(_ context.Context, id, position string) bool {
	f.add("before_fork %s", position)
	return false
}

func (f *fakeSessionHooks) BeforeCompact(_ context.Context, ev engine.BeforeCompactEvent) *engine.BeforeCompactResult {
	f.add("before_compact %s willRetry=%v ci=%q", ev.Reason, ev.WillRetry, ev.CustomInstructions)
	f.mu.Lock()
	f.compactEv = &ev
	f.mu.Unlock()
	return f.compact
}

func (f *fakeSessionHooks) Compacted(_ context.Context, e *engine.Entry, fromExt bool, reason string, willRetry bool) {
	f.add("session_compact %s fromExtension=%v summary=%q", reason, fromExt, e.Summary)
}

func (f *fakeSessionHooks) CompactFailed(_ context.Context, ev engine.CompactFailedEvent) {
	f.add("session_compact_failed %s aborted=%v %q", ev.Reason, ev.Aborted, ev.ErrorMessage)
}

func (f *fakeSessionHooks) BeforeTree(_ context.Context, p engine.TreePreparation) *engine.BeforeTreeOutcome {
	f.add("before_tree")
	f.mu.Lock()
	f.prep = &p
	f.mu.Unlock()
	return f.tree
}

func (f *fakeSessionHooks) Tree(_ context.Context, newLeaf, oldLeaf string, _ *engine.Entry, _ bool) {
	f.add("session_tree moved=%v", newLeaf != oldLeaf)
}

func (f *fakeSessionHooks) Shutdown(context.Context, string, string) {}
func (f *fakeSessionHooks) Started(context.Context, string, string)  {}

var _ engine.Hooks = (*fakeSessionHooks)(nil)

func newHookedSession(t *testing.T, h engine.Hooks, turns ...faux.Turn) *engine.Session {
	t.Helper()
	p := faux.New(turns...)
	rs := engine.DefaultRuntimeSettings()
	rs.CompactionKeepRecentTokens = 10
	s, err := engine.NewSession(engine.SessionOptions{
		Store: session.InMemory(t.TempDir(), ""), Model: smallModel(128000), ThinkingLevel: engine.ThinkingOff,
		ProviderFor: func(string) (engine.Provider, error) { return p, nil },
		Settings:    rs, Compactor: compaction.Compactor{}, Hooks: h,
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"first question", "second question"} {
		if _, err := s.Prompt(context.Background(), q+strings.Repeat(" pad", 12), nil, engine.PromptOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := s.WaitIdle(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestCompactionHooks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		result  *engine.BeforeCompactResult
		wantErr error
		summary string
		trace   string
	}{
		{
			name: "generated", summary: "generated summary",
			trace: "before_compact manual willRetry=false ci=\"focus\"\nsession_compact manual fromExtension=false summary=\"generated summary\"",
		},
		{
			name: "cancelled", result: &engine.BeforeCompactResult{Cancel: true}, wantErr: engine.ErrCompactionCancelled,
			trace: "before_compact manual willRetry=false ci=\"focus\"\nsession_compact_failed manual aborted=true \"\"",
		},
		{
			name: "supplied", summary: "from the extension",
			result: &engine.BeforeCompactResult{Compaction: &engine.ExtensionCompaction{Summary: "from the extension", TokensBefore: 7}},
			trace:  "before_compact manual willRetry=false ci=\"focus\"\nsession_compact manual fromExtension=true summary=\"from the extension\"",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &fakeSessionHooks{compact: tc.result}
			s := newHookedSession(t, h, faux.Turn{Text: "one"}, faux.Turn{Text: "two"}, faux.Turn{Text: "generated summary"})
			res, err := s.Compact(context.Background(), "focus")
			if tc.wantErr != nil {
				if err == nil || err.Error() != tc.wantErr.Error() {
					t.Fatalf("err %v, want %v", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if res.Summary != tc.summary {
				t.Fatalf("summary %q", res.Summary)
			}
			if got := h.trace(); got != tc.trace {
				t.Fatalf("trace:\n%s\nwant:\n%s", got, tc.trace)
			}
			if h.compactEv == nil || len(h.compactEv.BranchEntries) == 0 || h.compactEv.Preparation == nil {
				t.Fatalf("event %+v", h.compactEv)
			}
			c := lastCompaction(s)
			if tc.wantErr != nil {
				if c != nil {
					t.Fatalf("compaction recorded after cancel: %+v", c)
				}
				return
			}
			if c == nil || c.Summary != tc.summary || *c.FromHook != (tc.result != nil) {
				t.Fatalf("entry %+v", c)
			}
		})
	}
}

func TestNavigateTree(t *testing.T) {
	t.Parallel()
	label := "bookmark"
	cases := []struct {
		name      string
		result    *engine.BeforeTreeOutcome
		target    func(s *engine.Session) string
		wantErr   string
		cancelled bool
		editor    string
		moved     bool
	}{
		{name: "to first user message", target: firstUser, editor: "first question", moved: true},
		{name: "cancelled", result: &engine.BeforeTreeOutcome{Cancel: true}, target: firstUser, cancelled: true},
		{name: "to an assistant entry", result: &engine.BeforeTreeOutcome{Label: &label}, target: firstAssistant, moved: true},
		{name: "unknown entry", target: func(*engine.Session) string { return "nope" }, wantErr: "Entry nope not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &fakeSessionHooks{tree: tc.result}
			s := newHookedSession(t, h, faux.Turn{Text: "one"}, faux.Turn{Text: "two"})
			before := len(s.Messages())
			target := tc.target(s)
			res, err := s.NavigateTree(context.Background(), target, engine.NavigateOptions{})
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Cancelled != tc.cancelled {
				t.Fatalf("cancelled %v", res.Cancelled)
			}
			if tc.editor != "" && (res.EditorText == nil || !strings.HasPrefix(*res.EditorText, tc.editor)) {
				t.Fatalf("editor %v", res.EditorText)
			}
			if moved := len(s.Messages()) < before; moved != tc.moved {
				t.Fatalf("moved %v (%d -> %d messages)", moved, before, len(s.Messages()))
			}
			if h.prep == nil || h.prep.TargetID != target || len(h.prep.EntriesToSummarize) == 0 {
				t.Fatalf("preparation %+v", h.prep)
			}
			if tc.result != nil && tc.result.Label != nil {
				var found bool
				for _, e := range s.Store().Entries() {
					if e.Type == engine.EntryLabel && e.TargetID == target && e.Label != nil && *e.Label == label {
						found = true
					}
				}
				if !found {
					t.Fatal("label entry missing")
				}
			}
		})
	}
}

func firstUser(s *engine.Session) string { return firstRole(s, engine.RoleUser) }

func firstAssistant(s *engine.Session) string { return firstRole(s, engine.RoleAssistant) }

func firstRole(s *engine.Session, role string) string {
	for _, e := range s.Store().Branch() {
		if e.Type == engine.EntryMessage && e.Message.Role == role {
			return e.ID
		}
	}
	return ""
}

func TestNavigateTreeToLeafIsNoop(t *testing.T) {
	t.Parallel()
	s := newHookedSession(t, engine.NopHooks{}, faux.Turn{Text: "one"}, faux.Turn{Text: "two"})
	res, err := s.NavigateTree(context.Background(), s.Store().LeafID(), engine.NavigateOptions{})
	if err != nil || res.Cancelled {
		t.Fatalf("navigating to the leaf is a no-op: %+v %v", res, err)
	}
}
