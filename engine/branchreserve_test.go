package engine_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/compaction"
	"github.com/pi-go/pi/engine/llm/faux"
	"github.com/pi-go/pi/engine/session"
)

// reserveSpy is the real compactor, recording the reserve a branch
// summary is asked to keep.
type reserveSpy struct {
	compaction.Compactor
	mu      sync.Mutex
	reserve []int
}

func (c *reserveSpy) SummarizeBranch(ctx context.Context, entries []*engine.Entry, req engine.SummaryRequest, opts engine.BranchSummaryOptions) (*engine.BranchSummary, error) {
	c.mu.Lock()
	c.reserve = append(c.reserve, opts.ReserveTokens)
	c.mu.Unlock()
	return c.Compactor.SummarizeBranch(ctx, entries, req, opts)
}

// TestBranchSummaryReserveTokens checks that branchSummary.reserveTokens
// reaches the tree navigation's summary.
func TestBranchSummaryReserveTokens(t *testing.T) {
	t.Parallel()
	p := faux.New(faux.Turn{Text: "one"}, faux.Turn{Text: "two"}, faux.Turn{Text: "GEN"})
	spy := &reserveSpy{}
	rs := engine.DefaultRuntimeSettings()
	rs.BranchSummaryReserveTokens = 1234
	s, err := engine.NewSession(engine.SessionOptions{
		Store: session.InMemory(t.TempDir(), ""), Model: smallModel(128000), ThinkingLevel: engine.ThinkingOff,
		ProviderFor: func(string) (engine.Provider, error) { return p, nil },
		Settings:    rs, Compactor: spy,
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, q := range []string{"first question", "second question"} {
		if _, err := s.Prompt(ctx, q, nil, engine.PromptOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := s.WaitIdle(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var target string
	for _, e := range s.Store().Branch() {
		if e.Type == engine.EntryMessage && e.Message.Role == engine.RoleUser {
			target = e.ID
		}
	}
	if _, err := s.NavigateTree(ctx, target, engine.NavigateOptions{Summarize: true}); err != nil {
		t.Fatal(err)
	}
	spy.mu.Lock()
	defer spy.mu.Unlock()
	if len(spy.reserve) != 1 || spy.reserve[0] != 1234 {
		t.Errorf("branch summary reserves %v, want [1234]", spy.reserve)
	}
}
