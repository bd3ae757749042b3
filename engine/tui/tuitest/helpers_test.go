package tuitest_test

import (
	"strings"
	"sync/atomic"

	"github.com/pi-go/pi/engine/tui"
)

// windowed is a Windowed body of numbered rows that counts how many rows
// it rendered, to prove frames touch only the window.
type windowed struct {
	rows     []string
	rendered atomic.Int64
	full     atomic.Int64
}

func (w *windowed) Render(width int) []string {
	w.full.Add(1)
	return w.RenderRange(width, 0, len(w.rows))
}
func (w *windowed) Height(int) int { return len(w.rows) }
func (w *windowed) RenderRange(width, from, to int) []string {
	w.rendered.Add(int64(to - from))
	return tui.Lines(w.rows[from:to]).Render(width)
}

// keyLog is a focusable InputHandler that consumes letters only.
type keyLog struct {
	keys    []string
	focused bool
}

func (k *keyLog) Render(int) []string {
	row := "keys: " + strings.Join(k.keys, ",")
	if k.focused {
		row += tui.CursorMarker
	}
	return []string{row}
}
func (k *keyLog) SetFocused(f bool) { k.focused = f }
func (k *keyLog) HandleKey(key tui.Key) bool {
	if len(key.Code) == 1 && key.Code[0] >= 'a' && key.Code[0] <= 'z' && key.Mod == 0 {
		k.keys = append(k.keys, key.Code)
		return true
	}
	return false
}
