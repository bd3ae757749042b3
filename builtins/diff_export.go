package builtins

import (
	"strconv"
	"strings"
)

// UnifiedPatch is the SDK's generateUnifiedPatch: a jsdiff-style unified
// patch with file headers only, contextLines around each change.
// Extensions import it from the coding-agent package.
func UnifiedPatch(path, oldText, newText string, contextLines int) string {
	return formatPatch(path, structuredPatch(oldText, newText, contextLines))
}

// DisplayDiff is the SDK's generateDiffString: numbered display lines and
// the first changed line of the new text (0 when nothing changed).
func DisplayDiff(oldText, newText string, contextLines int) (string, int) {
	width := len(strconv.Itoa(max(strings.Count(oldText, "\n"), strings.Count(newText, "\n")) + 1))
	lines, first := formatDisplayDiff(diffLines(oldText, newText), 1, 1, width, contextLines)
	return strings.Join(lines, "\n"), first
}
