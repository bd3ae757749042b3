package builtins

import (
	"fmt"
	"strings"
)

// diffPart is one run of a line diff: unchanged, added or removed lines.
type diffPart struct {
	value          string
	count          int
	added, removed bool
}

// lineTokens splits text into lines that keep their "\n".
func lineTokens(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

type diffComp struct {
	count          int
	added, removed bool
	prev           *diffComp
}

type diffPath struct {
	oldPos int
	last   *diffComp
}

// diffLines computes a line diff with Myers' algorithm, exploring the
// diagonals in the same order and with the same tie-breaks as the jsdiff
// library the reference uses, so ambiguous changes align the same way.
func diffLines(oldText, newText string) []diffPart {
	oldT, newT := lineTokens(oldText), lineTokens(newText)
	oldLen, newLen := len(oldT), len(newT)
	extract := func(p *diffPath, d int) int {
		oldPos := p.oldPos
		newPos := oldPos - d
		common := 0
		for newPos+1 < newLen && oldPos+1 < oldLen && oldT[oldPos+1] == newT[newPos+1] {
			newPos++
			oldPos++
			common++
		}
		if common > 0 {
			p.last = &diffComp{count: common, prev: p.last}
		}
		p.oldPos = oldPos
		return newPos
	}
	addTo := func(p *diffPath, added, removed bool, inc int) *diffPath {
		l := p.last
		if l != nil && l.added == added && l.removed == removed {
			return &diffPath{oldPos: p.oldPos + inc, last: &diffComp{count: l.count + 1, added: added, removed: removed, prev: l.prev}}
		}
		return &diffPath{oldPos: p.oldPos + inc, last: &diffComp{count: 1, added: added, removed: removed, prev: l}}
	}
	build := func(last *diffComp) []diffPart {
		var comps []*diffComp
		for c := last; c != nil; c = c.prev {
			comps = append(comps, c)
		}
		parts := make([]diffPart, 0, len(comps))
		newPos, oldPos := 0, 0
		for i := len(comps) - 1; i >= 0; i-- {
			c := comps[i]
			p := diffPart{count: c.count, added: c.added, removed: c.removed}
			if !c.removed {
				p.value = strings.Join(newT[newPos:newPos+c.count], "")
				newPos += c.count
				if !c.added {
					oldPos += c.count
				}
			} else {
				p.value = strings.Join(oldT[oldPos:oldPos+c.count], "")
				oldPos += c.count
			}
			parts = append(parts, p)
		}
		return parts
	}
	best := map[int]*diffPath{0: {oldPos: -1}}
	newPos := extract(best[0], 0)
	if best[0].oldPos+1 >= oldLen && newPos+1 >= newLen {
		return build(best[0].last)
	}
	minD, maxD := -(oldLen + newLen + 1), oldLen+newLen+1
	for edit := 1; edit <= oldLen+newLen; edit++ {
		for d := max(minD, -edit); d <= min(maxD, edit); d += 2 {
			removePath, addPath := best[d-1], best[d+1]
			if removePath != nil {
				delete(best, d-1)
			}
			canAdd := false
			if addPath != nil {
				np := addPath.oldPos - d
				canAdd = 0 <= np && np < newLen
			}
			canRemove := removePath != nil && removePath.oldPos+1 < oldLen
			if !canAdd && !canRemove {
				delete(best, d)
				continue
			}
			var base *diffPath
			if !canRemove || (canAdd && removePath.oldPos < addPath.oldPos) {
				base = addTo(addPath, true, false, 0)
			} else {
				base = addTo(removePath, false, true, 1)
			}
			newPos = extract(base, d)
			if base.oldPos+1 >= oldLen && newPos+1 >= newLen {
				return build(base.last)
			}
			best[d] = base
			if base.oldPos+1 >= oldLen {
				maxD = min(maxD, d-1)
			}
			if newPos+1 >= newLen {
				minD = max(minD, d+1)
			}
		}
	}
	return nil
}

// splitDiffLines splits a part's value into its lines (without "\n").
func splitDiffLines(v string) []string {
	raw := strings.Split(v, "\n")
	if raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	return raw
}

// formatDisplayDiff renders parts as numbered display lines ("+12 x",
// "-12 x", " 12 x", "...") keeping contextLines around changes. It returns
// the lines and the first changed line of the new text (0 when none).
func formatDisplayDiff(parts []diffPart, oldLine, newLine, width, contextLines int) ([]string, int) {
	var out []string
	first := 0
	lastWasChange := false
	num := func(n int) string { return fmt.Sprintf("%*d", width, n) }
	skip := " " + strings.Repeat(" ", width) + " ..."
	ctx := func(lines []string) {
		for _, l := range lines {
			out = append(out, " "+num(oldLine)+" "+l)
			oldLine++
			newLine++
		}
	}
	for i, p := range parts {
		raw := splitDiffLines(p.value)
		if p.added || p.removed {
			if first == 0 {
				first = newLine
			}
			for _, l := range raw {
				if p.added {
					out = append(out, "+"+num(newLine)+" "+l)
					newLine++
				} else {
					out = append(out, "-"+num(oldLine)+" "+l)
					oldLine++
				}
			}
			lastWasChange = true
			continue
		}
		next := i < len(parts)-1 && (parts[i+1].added || parts[i+1].removed)
		switch {
		case lastWasChange && next:
			if len(raw) <= contextLines*2 {
				ctx(raw)
			} else {
				ctx(raw[:contextLines])
				out = append(out, skip)
				skipped := len(raw) - 2*contextLines
				oldLine += skipped
				newLine += skipped
				ctx(raw[len(raw)-contextLines:])
			}
		case lastWasChange:
			shown := raw[:min(contextLines, len(raw))]
			ctx(shown)
			if skipped := len(raw) - len(shown); skipped > 0 {
				out = append(out, skip)
				oldLine += skipped
				newLine += skipped
			}
		case next:
			skipped := max(0, len(raw)-contextLines)
			if skipped > 0 {
				out = append(out, skip)
				oldLine += skipped
				newLine += skipped
			}
			ctx(raw[skipped:])
		default:
			oldLine += len(raw)
			newLine += len(raw)
		}
		lastWasChange = false
	}
	return out, first
}

// patchHunk is one hunk of a unified patch.
type patchHunk struct {
	oldStart, oldLines, newStart, newLines int
	lines                                  []string
}

// structuredPatch builds unified-diff hunks the way jsdiff does,
// including its "\ No newline at end of file" markers.
func structuredPatch(oldText, newText string, context int) []patchHunk {
	parts := diffLines(oldText, newText)
	parts = append(parts, diffPart{})
	splitKeep := func(v string) []string {
		if v == "" {
			return nil
		}
		ls := strings.SplitAfter(v, "\n")
		if ls[len(ls)-1] == "" {
			ls = ls[:len(ls)-1]
		}
		return ls
	}
	var hunks []patchHunk
	oldRangeStart, newRangeStart := 0, 0
	var cur []string
	oldLine, newLine := 1, 1
	var prevLines []string
	for i, p := range parts {
		lines := splitKeep(p.value)
		if p.added || p.removed {
			if oldRangeStart == 0 {
				oldRangeStart, newRangeStart = oldLine, newLine
				if i > 0 {
					cur = nil
					if context > 0 {
						for _, l := range prevLines[max(0, len(prevLines)-context):] {
							cur = append(cur, " "+l)
						}
					}
					oldRangeStart -= len(cur)
					newRangeStart -= len(cur)
				}
			}
			for _, l := range lines {
				if p.added {
					cur = append(cur, "+"+l)
				} else {
					cur = append(cur, "-"+l)
				}
			}
			if p.added {
				newLine += len(lines)
			} else {
				oldLine += len(lines)
			}
		} else {
			if oldRangeStart != 0 {
				if len(lines) <= context*2 && i < len(parts)-2 {
					for _, l := range lines {
						cur = append(cur, " "+l)
					}
				} else {
					n := min(len(lines), context)
					for _, l := range lines[:n] {
						cur = append(cur, " "+l)
					}
					hunks = append(hunks, patchHunk{oldStart: oldRangeStart, oldLines: oldLine - oldRangeStart + n,
						newStart: newRangeStart, newLines: newLine - newRangeStart + n, lines: cur})
					oldRangeStart, newRangeStart, cur = 0, 0, nil
				}
			}
			oldLine += len(lines)
			newLine += len(lines)
		}
		prevLines = lines
	}
	for h := range hunks {
		var out []string
		for _, l := range hunks[h].lines {
			if strings.HasSuffix(l, "\n") {
				out = append(out, l[:len(l)-1])
			} else {
				out = append(out, l, "\\ No newline at end of file")
			}
		}
		hunks[h].lines = out
	}
	return hunks
}

// formatPatch writes hunks as a unified patch with file headers only.
func formatPatch(path string, hunks []patchHunk) string {
	var b strings.Builder
	b.WriteString("--- " + path + "\n+++ " + path)
	for _, h := range hunks {
		os, ns := h.oldStart, h.newStart
		if h.oldLines == 0 {
			os--
		}
		if h.newLines == 0 {
			ns--
		}
		fmt.Fprintf(&b, "\n@@ -%d,%d +%d,%d @@", os, h.oldLines, ns, h.newLines)
		for _, l := range h.lines {
			b.WriteString("\n" + l)
		}
	}
	b.WriteString("\n")
	return b.String()
}
