package builtins

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/pi-go/pi/engine"
)

const editSchema = `{"type":"object","required":["path","edits"],"properties":{"path":{"type":"string","description":"File to change, absolute or relative to the working directory"},"edits":{"type":"array","items":{"type":"object","required":["oldText","newText"],"properties":{"oldText":{"type":"string","description":"Text to replace, copied exactly; it must occur once in the original file and must not overlap another edit's oldText."},"newText":{"type":"string","description":"Text to put in its place."}}},"description":"The replacements, all located in the file as it was before this call. They must not overlap or nest; combine changes to the same or adjacent lines into one edit."}}}`

// diffWindowMargin is how many unchanged lines are diffed on each side of
// a replacement: far more than the 4 shown, so the diff aligns as it
// would over the whole file.
const diffWindowMargin = 32

// editTool is the edit tool; it also repairs malformed arguments before
// validation (PrepareArguments).
type editTool struct{ tool }

// NewEdit returns the edit tool.
func NewEdit(cwd string) engine.Tool {
	t := &editTool{tool{info: engine.ToolInfo{
		Name:          "edit",
		Label:         "edit",
		Description:   description("edit"),
		Parameters:    json.RawMessage(editSchema),
		PromptSnippet: "Change files by exact text replacement, several separate spots in one call if needed",
		PromptGuidelines: []string{
			"Prefer edit for focused changes, and put all changes to one file into a single call.",
			"Every edits[].oldText has to match the original file exactly and only once. Keep them short and apart from each other; fold changes that sit close together into one edit instead of spanning big unchanged blocks.",
		},
	}}}
	t.run = func(ctx context.Context, call engine.ToolCall, _ func(engine.ToolResult)) (engine.ToolResult, error) {
		return runEdit(ctx, cwd, t.PrepareArguments(call.Args))
	}
	return t
}

// PrepareArguments repairs what models send instead of the schema:
// edits as a JSON string, a single edit object instead of an array, and
// the legacy top-level oldText/newText pair (appended to edits).
func (t *editTool) PrepareArguments(args json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return args
	}
	changed := false
	if raw, ok := obj["edits"]; ok {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			trimmed := bytes.TrimSpace([]byte(s))
			if len(trimmed) > 0 && trimmed[0] == '[' && json.Valid(trimmed) {
				obj["edits"], changed = json.RawMessage(trimmed), true
			} else if isSingleEdit(trimmed) {
				obj["edits"], changed = json.RawMessage("["+string(trimmed)+"]"), true
			}
		} else if isSingleEdit(raw) {
			obj["edits"], changed = json.RawMessage("["+string(raw)+"]"), true
		}
	}
	var oldT, newT string
	oldRaw, hasOld := obj["oldText"]
	newRaw, hasNew := obj["newText"]
	if hasOld && hasNew && json.Unmarshal(oldRaw, &oldT) == nil && json.Unmarshal(newRaw, &newT) == nil {
		var edits []json.RawMessage
		_ = json.Unmarshal(obj["edits"], &edits)
		edits = append(edits, mustJSON("oldText", oldT, "newText", newT))
		delete(obj, "oldText")
		delete(obj, "newText")
		b, _ := json.Marshal(edits)
		obj["edits"], changed = b, true
	}
	if !changed {
		return args
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return args
	}
	return b
}

func isSingleEdit(raw []byte) bool {
	var e map[string]json.RawMessage
	if json.Unmarshal(raw, &e) != nil || e == nil {
		return false
	}
	var a, b string
	return json.Unmarshal(e["oldText"], &a) == nil && json.Unmarshal(e["newText"], &b) == nil &&
		len(e["oldText"]) > 0 && len(e["newText"]) > 0
}

func runEdit(ctx context.Context, cwd string, rawArgs json.RawMessage) (engine.ToolResult, error) {
	var args struct {
		Path  string `json:"path"`
		Edits []struct {
			OldText string `json:"oldText"`
			NewText string `json:"newText"`
		} `json:"edits"`
	}
	if len(rawArgs) > 0 {
		if err := json.Unmarshal(rawArgs, &args); err != nil {
			return engine.ToolResult{}, failf("Invalid arguments for tool \"edit\": %s", err.Error())
		}
	}
	if len(args.Edits) == 0 {
		return engine.ToolResult{}, toolError("Edit tool input is invalid. edits must contain at least one replacement.")
	}
	edits := make([]editPair, len(args.Edits))
	for i, e := range args.Edits {
		edits[i] = editPair{e.OldText, e.NewText}
	}
	path := args.Path
	abs := ResolvePath(path, cwd)
	var res engine.ToolResult
	err := WithFileMutationQueue(abs, func() error {
		if ctx.Err() != nil {
			return errAborted
		}
		if err := access(abs, 4|2 /* R_OK|W_OK */); err != nil {
			var errno syscall.Errno
			code := err.Error()
			if errors.As(err, &errno) {
				code, _ = errnoName(errno)
				return failf("Could not edit file: %s. Error code: %s.", path, code)
			}
			return failf("Could not edit file: %s. %s.", path, code)
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return nodeError(err, "read", "")
		}
		raw := decodeWhole(data)
		bom := ""
		if strings.HasPrefix(raw, "\ufeff") {
			bom, raw = "\ufeff", raw[len("\ufeff"):]
		}
		normalized := normalizeToLF(raw)
		newContent, reps, err := applyEdits(normalized, edits, path)
		if err != nil {
			return err
		}
		details, err := editDiff(path, normalized, newContent, reps)
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return errAborted
		}
		final := newContent
		if raw != normalized {
			final = applyToOriginal(raw, reps)
		}
		if err := os.WriteFile(abs, []byte(bom+final), 0o666); err != nil {
			return nodeError(err, "open", abs)
		}
		res = textResult("Successfully replaced "+strconv.Itoa(len(edits))+" block(s) in "+path+".", details)
		return nil
	})
	return res, err
}

// editDiff builds {diff, patch, firstChangedLine}, diffing only windows
// around the replacements so the cost follows the change, not the file.
func editDiff(path, base, newContent string, reps []replacement) (json.RawMessage, error) {
	width := len(strconv.Itoa(max(strings.Count(base, "\n")+1, strings.Count(newContent, "\n")+1)))
	skip := " " + strings.Repeat(" ", width) + " ..."
	var out []string
	var hunks []patchHunk
	first := 0
	for _, w := range diffWindows(base, reps) {
		oldText := base[w.oldStart:w.oldEnd]
		newText := newContent[w.newStart:w.newEnd]
		shown, f := formatDisplayDiff(diffLines(oldText, newText), w.oldLine+1, w.newLine+1, width, 4)
		if first == 0 {
			first = f
		}
		if len(out) > 0 && out[len(out)-1] == skip && len(shown) > 0 && shown[0] == skip {
			shown = shown[1:]
		}
		out = append(out, shown...)
		for _, h := range structuredPatch(oldText, newText, 4) {
			h.oldStart += w.oldLine
			h.newStart += w.newLine
			hunks = append(hunks, h)
		}
	}
	var fcl any = omit
	if first != 0 {
		fcl = first
	}
	return marshalOrdered("diff", strings.Join(out, "\n"), "patch", formatPatch(path, hunks), "firstChangedLine", fcl)
}

type diffWindow struct {
	oldStart, oldEnd, oldLine, newStart, newEnd, newLine int
}

func lineStartBefore(s string, off int) int {
	if off == 0 {
		return 0
	}
	return strings.LastIndexByte(s[:off], '\n') + 1
}

// diffWindows are whole-line windows with margin around the (sorted,
// disjoint) replacements; overlapping windows merge.
func diffWindows(base string, reps []replacement) []diffWindow {
	var ws []diffWindow
	offDelta, lineDelta, curOff, curLine := 0, 0, 0, 0
	for _, r := range reps {
		matchEnd := r.matchIndex + r.matchLen
		start := lineStartBefore(base, r.matchIndex)
		for i := 0; i < diffWindowMargin && start > 0; i++ {
			start = lineStartBefore(base, start-1)
		}
		end := matchEnd
		for i := 0; i <= diffWindowMargin && end < len(base); i++ {
			from := end
			if i == 0 {
				from = max(matchEnd-1, r.matchIndex)
			}
			if j := strings.IndexByte(base[from:], '\n'); j >= 0 {
				end = from + j + 1
			} else {
				end = len(base)
			}
		}
		rOff := len(r.newText) - r.matchLen
		rLine := strings.Count(r.newText, "\n") - strings.Count(base[r.matchIndex:matchEnd], "\n")
		if n := len(ws); n > 0 && start <= ws[n-1].oldEnd {
			p := &ws[n-1]
			p.oldEnd = max(p.oldEnd, end)
			p.newEnd = p.oldEnd + offDelta + rOff
		} else {
			curLine += strings.Count(base[curOff:start], "\n")
			curOff = start
			ws = append(ws, diffWindow{oldStart: start, oldEnd: end, oldLine: curLine,
				newStart: start + offDelta, newEnd: end + offDelta + rOff, newLine: curLine + lineDelta})
		}
		offDelta += rOff
		lineDelta += rLine
	}
	return ws
}
