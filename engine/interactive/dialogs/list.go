package dialogs

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// list is the selection state every picker shares: the items, the ones
// the filter keeps, the selected one, and the window of visible rows
// around it. It draws nothing itself; each dialog renders its rows.
type list[T any] struct {
	items []T
	// text is what the filter matches for an item.
	text func(T) string
	// match decides whether an item's text matches the query; nil is
	// fuzzyMatch.
	match func(text, query string) bool
	// wrap makes up on the first row go to the last and back.
	wrap bool
	// max is the number of visible rows (10 when 0).
	max int

	query string
	shown []int
	sel   int
}

func newList[T any](items []T, text func(T) string) *list[T] {
	l := &list[T]{items: items, text: text}
	l.refilter()
	return l
}

func (l *list[T]) visible() int {
	if l.max <= 0 {
		return 10
	}
	return l.max
}

// setItems replaces the items, keeping the filter and, when it is still
// there, the selected position.
func (l *list[T]) setItems(items []T) {
	l.items = items
	sel := l.sel
	l.refilter()
	l.sel = min(sel, max(len(l.shown)-1, 0))
}

func (l *list[T]) setQuery(q string) {
	if q == l.query {
		return
	}
	l.query = q
	l.refilter()
	l.sel = 0
}

func (l *list[T]) refilter() {
	l.shown = l.shown[:0]
	m := l.match
	if m == nil {
		m = fuzzyMatch
	}
	// Rows whose text holds every token literally come first, then the
	// looser matches, each group in list order: "theme" puts Theme above
	// "Default thinking level per model".
	var loose []int
	for i, it := range l.items {
		switch {
		case l.query == "" || l.text == nil:
			l.shown = append(l.shown, i)
		case l.match == nil && literalMatch(l.text(it), l.query):
			l.shown = append(l.shown, i)
		case m(l.text(it), l.query):
			loose = append(loose, i)
		}
	}
	l.shown = append(l.shown, loose...)
	if l.sel >= len(l.shown) {
		l.sel = max(len(l.shown)-1, 0)
	}
}

// len is the number of items the filter keeps.
func (l *list[T]) len() int { return len(l.shown) }

// current is the selected item.
func (l *list[T]) current() (T, int, bool) {
	var zero T
	if len(l.shown) == 0 {
		return zero, -1, false
	}
	i := l.shown[l.sel]
	return l.items[i], i, true
}

// selectIndex selects the item at items[i] when the filter keeps it.
func (l *list[T]) selectIndex(i int) {
	for n, j := range l.shown {
		if j == i {
			l.sel = n
			return
		}
	}
}

func (l *list[T]) move(d int) {
	n := len(l.shown)
	if n == 0 {
		return
	}
	next := l.sel + d
	switch {
	case l.wrap && (d == 1 || d == -1):
		next = (next + n) % n
	default:
		next = min(max(next, 0), n-1)
	}
	l.sel = next
}

// window is the range of shown positions to draw: centred on the
// selection and clamped to the ends.
func (l *list[T]) window() (start, end int) {
	n, v := len(l.shown), l.visible()
	start = max(0, min(l.sel-v/2, n-v))
	return start, min(start+v, n)
}

// scrollInfo is the "(3/40)" counter, shown when not every row fits.
func (l *list[T]) scrollInfo() string {
	start, end := l.window()
	if start == 0 && end == len(l.shown) {
		return ""
	}
	return fmt.Sprintf("(%d/%d)", l.sel+1, len(l.shown))
}

// fuzzyMatch reports whether every space-separated token of query occurs
// in text as a subsequence, ignoring case: "gpt4o" finds "gpt-4o".
func fuzzyMatch(text, query string) bool {
	text = strings.ToLower(text)
	for _, tok := range strings.Fields(strings.ToLower(query)) {
		if !subsequence(text, tok) {
			return false
		}
	}
	return true
}

// literalMatch reports whether every token of query is a substring of
// text, ignoring case.
func literalMatch(text, query string) bool {
	text = strings.ToLower(text)
	for _, tok := range strings.Fields(strings.ToLower(query)) {
		if !strings.Contains(text, tok) {
			return false
		}
	}
	return true
}

func subsequence(text, tok string) bool {
	for tok != "" {
		r, n := utf8.DecodeRuneInString(tok)
		i := strings.IndexRune(text, r)
		if i < 0 {
			return false
		}
		text = text[i+utf8.RuneLen(r):]
		tok = tok[n:]
	}
	return true
}
