package editor

import (
	"reflect"
	"strings"
	"testing"
)

// hashProvider completes "#n" issue numbers asynchronously: answers wait
// in pending until the test delivers them.
type hashProvider struct {
	pending []func()
}

func (h *hashProvider) TriggerChars() []string { return []string{"#"} }

func (h *hashProvider) Suggest(Request) *Suggestions { panic("Suggest called on an async provider") }

func (h *hashProvider) SuggestAsync(r Request, done func(*Suggestions)) {
	before := r.BeforeCursor()
	i := strings.LastIndex(before, "#")
	h.pending = append(h.pending, func() {
		if i < 0 {
			done(nil)
			return
		}
		q := before[i+1:]
		var items []Item
		for _, n := range []string{"#12 fix", "#123 feat", "#7 docs"} {
			if strings.HasPrefix(n[1:], q) {
				items = append(items, Item{Value: strings.Fields(n)[0], Label: n})
			}
		}
		if items == nil {
			done(nil)
			return
		}
		done(&Suggestions{Items: items, Prefix: before[i:]})
	})
}

func (h *hashProvider) Apply(r Request, it Item, prefix string) ([]string, int, int) {
	line := r.Lines[r.Line]
	start := r.Col - len(prefix)
	lines := append([]string(nil), r.Lines...)
	lines[r.Line] = line[:start] + it.Value + " " + line[r.Col:]
	return lines, r.Line, start + len(it.Value) + 1
}

func (h *hashProvider) deliver(t *testing.T, n int) {
	t.Helper()
	if len(h.pending) <= n {
		t.Fatalf("%d answers pending, want answer %d", len(h.pending), n)
	}
	h.pending[n]()
}

func TestAsyncProvider(t *testing.T) {
	t.Parallel()
	var posted []func()
	renders := 0
	e := newTestEditor(t)
	e.opt.Post = func(fn func()) { posted = append(posted, fn) }
	e.opt.RequestRender = func() { renders++ }
	h := &hashProvider{}
	e.SetProviders(h)
	run := func() {
		for len(posted) > 0 {
			fn := posted[0]
			posted = posted[1:]
			fn()
		}
	}

	press(t, e, "'see #1'") // "#" and "1" each ask
	if len(h.pending) != 2 || e.AutocompleteOpen() {
		t.Fatalf("%d requests, open %v", len(h.pending), e.AutocompleteOpen())
	}
	h.deliver(t, 0) // the answer for "#" is stale: "1" was typed since
	run()
	if e.AutocompleteOpen() {
		t.Fatal("a stale answer opened the list")
	}
	h.deliver(t, 1)
	run()
	if got := labels(e); !reflect.DeepEqual(got, []string{"#12 fix", "#123 feat"}) || renders != 1 {
		t.Fatalf("list %q after %d renders", got, renders)
	}
	press(t, e, "tab")
	if state(e) != "see #12 |" {
		t.Fatalf("accepted: %q", state(e))
	}

	// Escape before the answer: it is dropped.
	press(t, e, "'#7'")
	n := len(h.pending)
	press(t, e, "escape")
	h.deliver(t, n-1)
	run()
	if e.AutocompleteOpen() {
		t.Fatal("an answer after Escape opened the list")
	}
}
