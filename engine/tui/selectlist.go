package tui

import (
	"strconv"
	"strings"
)

// SelectItem is one choice of a SelectList. Value is what a filter
// matches (by prefix, ignoring case) and what the list reports; Label is
// shown (Value when empty); Description is shown in a second column when
// the list is wider than 40 cells.
type SelectItem struct {
	Value       string
	Label       string
	Description string
}

// SelectListStyle colours a SelectList; nil functions leave text plain.
type SelectListStyle struct {
	Selected    func(string) string // the selected row
	Description func(string) string
	ScrollInfo  func(string) string // the "(i/n)" row
	NoMatch     func(string) string
}

// The select list's layout constants (the reference's).
const (
	selectPrimaryColumn = 32
	selectColumnGap     = 2
	selectMinDescWidth  = 10
)

// SelectList is a scrolling list with a "→ " marker on the selected row,
// an "(i/n)" counter when not every item fits, and an optional prefix
// filter. Keys: tui.select.up/down (wrapping), pageUp/pageDown (by the
// visible count), confirm, cancel.
type SelectList struct {
	items      []SelectItem
	filtered   []SelectItem
	filter     string
	selected   int
	maxVisible int
	km         *Keymap
	style      SelectListStyle
	// PrimaryColumn is the width of the label column when descriptions
	// show; 0 means 32.
	PrimaryColumn int

	OnSelect          func(SelectItem)
	OnCancel          func()
	OnSelectionChange func(SelectItem)

	version int
	cache   rowCache
}

// NewSelectList builds a list showing at most maxVisible rows (0: 5).
func NewSelectList(items []SelectItem, maxVisible int, km *Keymap, st SelectListStyle) *SelectList {
	if maxVisible <= 0 {
		maxVisible = 5
	}
	l := &SelectList{items: items, maxVisible: maxVisible, km: km, style: st}
	l.SetFilter("")
	return l
}

// SetItems replaces the items, keeping the filter.
func (l *SelectList) SetItems(items []SelectItem) { l.items = items; l.SetFilter(l.filter) }

// SetFilter keeps the items whose Value starts with f (ignoring case)
// and selects the first.
func (l *SelectList) SetFilter(f string) {
	l.filter = f
	lf := strings.ToLower(f)
	l.filtered = l.filtered[:0]
	for _, it := range l.items {
		if strings.HasPrefix(strings.ToLower(it.Value), lf) {
			l.filtered = append(l.filtered, it)
		}
	}
	l.selected = 0
	l.version++
}

// SetSelected selects the i-th visible (filtered) item.
func (l *SelectList) SetSelected(i int) {
	if i >= 0 && i < len(l.filtered) && i != l.selected {
		l.selected = i
		l.version++
	}
}

// Selected returns the selected item; ok is false when nothing matches.
func (l *SelectList) Selected() (SelectItem, bool) {
	if l.selected < len(l.filtered) {
		return l.filtered[l.selected], true
	}
	return SelectItem{}, false
}

// Len is the number of items that pass the filter.
func (l *SelectList) Len() int { return len(l.filtered) }

// Invalidate drops the cached rows.
func (l *SelectList) Invalidate() { l.cache.valid = false }

// CapturesViewportInput keeps PageUp/PageDown for the list while it has
// focus in fullscreen.
func (l *SelectList) CapturesViewportInput() bool { return true }

// HandleKey moves the selection, confirms or cancels.
func (l *SelectList) HandleKey(k Key) bool {
	n := len(l.filtered)
	move := func(i int) {
		if n == 0 || i == l.selected {
			return
		}
		l.selected = i
		l.version++
		if l.OnSelectionChange != nil {
			l.OnSelectionChange(l.filtered[i])
		}
	}
	switch {
	case l.km.Matches(k, "tui.select.up"):
		if n > 0 {
			move((l.selected - 1 + n) % n)
		}
	case l.km.Matches(k, "tui.select.down"):
		if n > 0 {
			move((l.selected + 1) % n)
		}
	case l.km.Matches(k, "tui.select.pageUp"):
		move(max(0, min(n-1, l.selected-l.maxVisible)))
	case l.km.Matches(k, "tui.select.pageDown"):
		move(max(0, min(n-1, l.selected+l.maxVisible)))
	case l.km.Matches(k, "tui.select.confirm"):
		if it, ok := l.Selected(); ok && l.OnSelect != nil {
			l.OnSelect(it)
		}
	case l.km.Matches(k, "tui.select.cancel"):
		if l.OnCancel != nil {
			l.OnCancel()
		}
	default:
		return false
	}
	return true
}

func paint(fn func(string) string, s string) string {
	if fn == nil || s == "" {
		return s
	}
	return fn(s)
}

// Render shows the visible window of items.
func (l *SelectList) Render(width int) []string {
	if rows, ok := l.cache.get(width, l.version); ok {
		return rows
	}
	if width <= 0 {
		return l.cache.put(width, l.version, nil)
	}
	n := len(l.filtered)
	if n == 0 {
		return l.cache.put(width, l.version, []string{paint(l.style.NoMatch, Truncate("  No matching commands", width, ""))})
	}
	start := max(0, min(l.selected-l.maxVisible/2, n-l.maxVisible))
	end := min(start+l.maxVisible, n)
	primary := l.primaryColumn()
	rows := make([]string, 0, end-start+1)
	for i := start; i < end; i++ {
		rows = append(rows, Truncate(l.renderItem(l.filtered[i], i == l.selected, width, primary), width, ""))
	}
	if start > 0 || end < n {
		info := "  (" + strconv.Itoa(l.selected+1) + "/" + strconv.Itoa(n) + ")"
		rows = append(rows, paint(l.style.ScrollInfo, Truncate(info, max(width-2, 0), "")))
	}
	return l.cache.put(width, l.version, rows)
}

// primaryColumn is the label column width: the widest label plus the gap,
// capped at PrimaryColumn.
func (l *SelectList) primaryColumn() int {
	limit := l.PrimaryColumn
	if limit <= 0 {
		limit = selectPrimaryColumn
	}
	widest := 0
	for _, it := range l.filtered {
		widest = max(widest, Width(label(it))+selectColumnGap)
	}
	return min(widest, limit)
}

func label(it SelectItem) string {
	s := it.Label
	if s == "" {
		s = it.Value
	}
	return strings.Join(strings.Fields(s), " ")
}

func (l *SelectList) renderItem(it SelectItem, selected bool, width, primary int) string {
	prefix := "  "
	if selected {
		prefix = "→ "
	}
	desc := strings.Join(strings.Fields(it.Description), " ")
	if desc != "" && width > 40 {
		col := max(1, min(primary, width-2-4))
		value := Truncate(label(it), max(1, col-selectColumnGap), "...")
		gap := spaces(max(1, col-Width(value)))
		if room := width - 2 - Width(value) - len(gap) - 2; room > selectMinDescWidth {
			d := Truncate(desc, room, "")
			if selected {
				return paint(l.style.Selected, prefix+value+gap+d)
			}
			return prefix + value + paint(l.style.Description, gap+d)
		}
	}
	value := Truncate(label(it), max(1, width-2-2), "...")
	if selected {
		return paint(l.style.Selected, prefix+value)
	}
	return prefix + value
}
