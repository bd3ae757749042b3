package engine_test

import (
	"context"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/llm/faux"
)

// headerCounter listens to before_provider_headers.
type headerCounter struct{ engine.NopHooks }

func (headerCounter) BeforeProviderHeaders(_ context.Context, h map[string]string) (map[string]*string, bool) {
	return nil, false
}

// TestNavigateTreeSummaryCarriesHeaderHook checks that a branch summary's
// request carries the before_provider_headers hook, as the reference's
// summary fires the event.
func TestNavigateTreeSummaryCarriesHeaderHook(t *testing.T) {
	t.Parallel()
	p := faux.New(faux.Turn{Text: "one"}, faux.Turn{Text: "two"}, faux.Turn{Text: "GEN"})
	s := newTreeSession(t, headerCounter{}, p)
	var target string
	for _, e := range s.Store().Branch() {
		if e.Type == engine.EntryMessage && e.Message.Role == engine.RoleUser {
			target = e.ID
		}
	}
	if _, err := s.NavigateTree(context.Background(), target, engine.NavigateOptions{Summarize: true}); err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests()
	if len(reqs) != 3 {
		t.Fatalf("want 3 requests, got %d", len(reqs))
	}
	for i, r := range reqs {
		if r.OnHeaders == nil {
			t.Errorf("request %d has no header hook", i)
		}
	}
}
