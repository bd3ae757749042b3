package editor

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Large pastes become markers: more than pasteMaxLines lines or more
// than pasteMaxChars characters (pi's thresholds).
const (
	pasteMaxLines = 10
	pasteMaxChars = 1000
)

// ctrlCSIu is a control byte that a terminal re-encoded inside a paste as
// a CSI-u Ctrl+letter (tmux popups with extended keys do).
var ctrlCSIu = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[(\d+);5u`) })

var wordRune = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\w`) })

func (e *Editor) insertChar(ch string) {
	e.exitHistory()
	if isSpace(ch) || e.last != actType {
		e.pushUndo()
	}
	e.last = actType
	line := e.cur()
	e.lines[e.line] = line[:e.col] + ch + line[e.col:]
	e.setCol(e.col + len(ch))
	e.changed()
	e.afterType(ch)
}

// HandlePaste inserts bracketed-paste text: control characters other
// than newlines are dropped, and a paste of more than 10 lines or 1000
// characters becomes a "[paste #N …]" marker that Text expands.
func (e *Editor) HandlePaste(text string) {
	e.closeAutocomplete()
	e.exitHistory()
	e.last = actNone
	e.pushUndo()
	text = ctrlCSIu().ReplaceAllStringFunc(text, func(m string) string {
		cp, _ := strconv.Atoi(ctrlCSIu().FindStringSubmatch(m)[1])
		switch {
		case cp >= 'a' && cp <= 'z':
			return string(rune(cp - 96))
		case cp >= 'A' && cp <= 'Z':
			return string(rune(cp - 64))
		}
		return m
	})
	text = strings.Map(func(r rune) rune {
		if r == '\n' || r >= 0x20 && r != 0x7f {
			return r
		}
		return -1
	}, normalize(text))
	if text == "" {
		return
	}
	if strings.ContainsAny(text[:1], "/~.") && e.col > 0 && wordRune().MatchString(e.cur()[e.col-1:e.col]) {
		text = " " + text
	}
	n := strings.Count(text, "\n") + 1
	chars := len([]rune(text))
	if n > pasteMaxLines || chars > pasteMaxChars {
		e.pasteCount++
		if e.pastes == nil {
			e.pastes = map[int]string{}
		}
		e.pastes[e.pasteCount] = text
		marker := fmt.Sprintf("[paste #%d %d chars]", e.pasteCount, chars)
		if n > pasteMaxLines {
			marker = fmt.Sprintf("[paste #%d +%d lines]", e.pasteCount, n)
		}
		e.insert(marker)
		return
	}
	e.insert(text)
}

func (e *Editor) newLine() {
	e.closeAutocomplete()
	e.exitHistory()
	e.last = actNone
	e.pushUndo()
	line := e.cur()
	e.lines[e.line] = line[:e.col]
	e.lines = slices.Insert(e.lines, e.line+1, line[e.col:])
	e.line++
	e.setCol(0)
	e.changed()
}

func (e *Editor) backspace() {
	e.exitHistory()
	e.last = actNone
	switch {
	case e.col > 0:
		e.pushUndo()
		line := e.cur()
		start := prevBoundary(e.segs(line), e.col)
		if m := pasteMarkerWhole().FindStringSubmatch(line[start:e.col]); m != nil {
			e.dropPaste(atoi(m[1]))
			line = e.cur()
		}
		e.lines[e.line] = line[:start] + line[e.col:]
		e.setCol(start)
	case e.line > 0:
		e.pushUndo()
		prev := e.lines[e.line-1]
		e.lines[e.line-1] = prev + e.cur()
		e.lines = slices.Delete(e.lines, e.line, e.line+1)
		e.line--
		e.setCol(len(prev))
	default:
		return
	}
	e.changed()
	e.afterDelete()
}

// dropPaste forgets paste id and renumbers the later pastes and their
// markers, so the ids stay 1..n as pi keeps them.
func (e *Editor) dropPaste(id int) {
	delete(e.pastes, id)
	e.pasteCount--
	ids := slices.Sorted(maps.Keys(e.pastes))
	for _, k := range ids {
		if k > id {
			e.pastes[k-1] = e.pastes[k]
			delete(e.pastes, k)
		}
	}
	for i, l := range e.lines {
		e.lines[i] = pasteMarkerRe().ReplaceAllStringFunc(l, func(m string) string {
			sub := pasteMarkerRe().FindStringSubmatch(m)
			x := atoi(sub[1])
			if x <= id {
				return m
			}
			return fmt.Sprintf("[paste #%d%s]", x-1, sub[2])
		})
	}
}

func (e *Editor) deleteForward() {
	e.exitHistory()
	e.last = actNone
	line := e.cur()
	switch {
	case e.col < len(line):
		e.pushUndo()
		end := nextBoundary(e.segs(line), e.col, len(line))
		e.lines[e.line] = line[:e.col] + line[end:]
	case e.line < len(e.lines)-1:
		e.pushUndo()
		e.lines[e.line] = line + e.lines[e.line+1]
		e.lines = slices.Delete(e.lines, e.line+1, e.line+2)
	default:
		return
	}
	e.changed()
	e.afterDelete()
}

// kill records deleted text in the kill ring: consecutive kills grow one
// entry (prepending for backward kills), as in Emacs.
func (e *Editor) kill(text string, backward bool) {
	if text != "" {
		if e.last == actKill && len(e.ring) > 0 {
			last := e.ring[len(e.ring)-1]
			if backward {
				e.ring[len(e.ring)-1] = text + last
			} else {
				e.ring[len(e.ring)-1] = last + text
			}
		} else {
			e.ring = append(e.ring, text)
		}
	}
	e.last = actKill
}

func (e *Editor) joinPrev() {
	prev := e.lines[e.line-1]
	e.lines[e.line-1] = prev + e.cur()
	e.lines = slices.Delete(e.lines, e.line, e.line+1)
	e.line--
	e.setCol(len(prev))
}

func (e *Editor) joinNext() {
	e.lines[e.line] = e.cur() + e.lines[e.line+1]
	e.lines = slices.Delete(e.lines, e.line+1, e.line+2)
}

func (e *Editor) killToLineStart() {
	e.exitHistory()
	line := e.cur()
	switch {
	case e.col > 0:
		e.pushUndo()
		e.kill(line[:e.col], true)
		e.lines[e.line] = line[e.col:]
		e.setCol(0)
	case e.line > 0:
		e.pushUndo()
		e.kill("\n", true)
		e.joinPrev()
	default:
		return
	}
	e.changed()
}

func (e *Editor) killToLineEnd() {
	e.exitHistory()
	line := e.cur()
	switch {
	case e.col < len(line):
		e.pushUndo()
		e.kill(line[e.col:], false)
		e.lines[e.line] = line[:e.col]
	case e.line < len(e.lines)-1:
		e.pushUndo()
		e.kill("\n", false)
		e.joinNext()
	default:
		return
	}
	e.changed()
}

func (e *Editor) killWordBackward() {
	e.exitHistory()
	line := e.cur()
	if e.col == 0 {
		if e.line == 0 {
			return
		}
		e.pushUndo()
		e.kill("\n", true)
		e.joinPrev()
		e.changed()
		return
	}
	e.pushUndo()
	from := wordBackward(line, e.col, e.segs(line))
	e.kill(line[from:e.col], true)
	e.lines[e.line] = line[:from] + line[e.col:]
	e.setCol(from)
	e.changed()
}

func (e *Editor) killWordForward() {
	e.exitHistory()
	line := e.cur()
	if e.col >= len(line) {
		if e.line >= len(e.lines)-1 {
			return
		}
		e.pushUndo()
		e.kill("\n", false)
		e.joinNext()
		e.changed()
		return
	}
	e.pushUndo()
	to := wordForward(line, e.col, e.segs(line))
	e.kill(line[e.col:to], false)
	e.lines[e.line] = line[:e.col] + line[to:]
	e.changed()
}

func (e *Editor) yank() {
	if len(e.ring) == 0 {
		return
	}
	e.pushUndo()
	e.exitHistory()
	e.insert(e.ring[len(e.ring)-1])
	e.last = actYank
}

// yankPop replaces the text just yanked by the previous kill ring entry
// (only right after a yank).
func (e *Editor) yankPop() {
	if e.last != actYank || len(e.ring) <= 1 {
		return
	}
	e.pushUndo()
	e.removeYanked(e.ring[len(e.ring)-1])
	last := e.ring[len(e.ring)-1]
	e.ring = append([]string{last}, e.ring[:len(e.ring)-1]...)
	e.insert(e.ring[len(e.ring)-1])
	e.last = actYank
}

// removeYanked deletes text that ends at the cursor.
func (e *Editor) removeYanked(text string) {
	parts := strings.Split(text, "\n")
	if len(parts) == 1 {
		line := e.cur()
		e.lines[e.line] = line[:e.col-len(text)] + line[e.col:]
		e.setCol(e.col - len(text))
		return
	}
	startLine := e.line - (len(parts) - 1)
	startCol := len(e.lines[startLine]) - len(parts[0])
	after := e.cur()[e.col:]
	before := e.lines[startLine][:startCol]
	e.lines = slices.Replace(e.lines, startLine, e.line+1, before+after)
	e.line = startLine
	e.setCol(startCol)
}

// history moves through submitted prompts: dir -1 older, +1 newer. The
// draft being typed comes back after the newest entry.
func (e *Editor) historyMove(dir int) {
	e.last = actNone
	if len(e.history) == 0 {
		return
	}
	next := e.histIdx - dir
	if next < -1 || next >= len(e.history) {
		return
	}
	if e.histIdx == -1 && next >= 0 {
		e.pushUndo()
		e.histDraft = &snapshot{lines: append([]string(nil), e.lines...), line: e.line, col: e.col}
	}
	e.histIdx = next
	if next == -1 {
		d := e.histDraft
		e.histDraft = nil
		if d != nil {
			e.lines, e.line, e.col = d.lines, d.line, d.col
			e.prefer = -1
			e.scroll = 0
			e.changed()
		} else {
			e.setTextInternal("", false)
		}
		return
	}
	e.setTextInternal(e.history[next], dir == -1)
}

func (e *Editor) exitHistory() {
	e.histIdx = -1
	e.histDraft = nil
}
