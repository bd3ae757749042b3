package jsruntime

import (
	"strings"

	"github.com/dop251/goja"
)

// This file is path.win32: Windows path rules (both separators, drive
// letters, UNC roots, case-insensitive comparison) on any host, as Node
// gives them everywhere. Tools that handle paths from Windows users or
// configs reach for it even on Linux.

func isWinSep(c byte) bool { return c == '/' || c == '\\' }

func isDriveLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// winRoot splits off the root of p: the device ("C:", `\\server\share`
// or ""), how many bytes the root takes, and whether p is absolute.
// uncWhole reports a UNC root that is the whole path (`\\server\share`),
// which normalize writes with a trailing separator.
func winRoot(p string) (device string, rootEnd int, abs, uncWhole bool) {
	n := len(p)
	if n == 0 {
		return "", 0, false, false
	}
	if n == 1 {
		return "", boolInt(isWinSep(p[0])), isWinSep(p[0]), false
	}
	if isWinSep(p[0]) {
		abs, rootEnd = true, 1
		if !isWinSep(p[1]) {
			return "", rootEnd, abs, false
		}
		j := 2
		last := j
		for j < n && !isWinSep(p[j]) {
			j++
		}
		if j < n && j != last {
			server := p[last:j]
			last = j
			for j < n && isWinSep(p[j]) {
				j++
			}
			if j < n && j != last {
				last = j
				for j < n && !isWinSep(p[j]) {
					j++
				}
				if j == n {
					return `\\` + server + `\` + p[last:], j, abs, true
				}
				if j != last {
					return `\\` + server + `\` + p[last:j], j, abs, false
				}
			}
		}
		return "", rootEnd, abs, false
	}
	if isDriveLetter(p[0]) && p[1] == ':' {
		if n > 2 && isWinSep(p[2]) {
			return p[:2], 3, true, false
		}
		return p[:2], 2, false, false
	}
	return "", 0, false, false
}

// uncRootEnd extends a UNC root (\\server\share) over the separator
// that follows it: dirname and parse count it as part of the root, while
// normalize rebuilds it.
func uncRootEnd(p string, rootEnd int) int {
	if rootEnd > 2 && rootEnd < len(p) && isWinSep(p[0]) && isWinSep(p[1]) {
		return rootEnd + 1
	}
	return rootEnd
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// normalizeSegments resolves "." and ".." in a path without its root and
// joins the result with sep; above-root ".." survive only when allowed.
func normalizeSegments(p string, allowAboveRoot bool, sep string, isSep func(byte) bool) string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && !isSep(p[i]) {
			continue
		}
		seg := p[start:i]
		start = i + 1
		switch seg {
		case "", ".":
		case "..":
			if len(out) > 0 && out[len(out)-1] != ".." {
				out = out[:len(out)-1]
			} else if allowAboveRoot {
				out = append(out, "..")
			}
		default:
			out = append(out, seg)
		}
	}
	return strings.Join(out, sep)
}

func winNormalize(p string) string {
	if p == "" {
		return "."
	}
	if len(p) == 1 {
		if isWinSep(p[0]) {
			return `\`
		}
		return p
	}
	device, rootEnd, abs, uncWhole := winRoot(p)
	if uncWhole {
		return device + `\`
	}
	tail := ""
	if rootEnd < len(p) {
		tail = normalizeSegments(p[rootEnd:], !abs, `\`, isWinSep)
	}
	if tail == "" && !abs {
		tail = "."
	}
	if tail != "" && isWinSep(p[len(p)-1]) {
		tail += `\`
	}
	if abs {
		return device + `\` + tail
	}
	return device + tail
}

func winJoin(parts []string) string {
	var joined, first string
	for _, a := range parts {
		if a == "" {
			continue
		}
		if joined == "" {
			joined, first = a, a
		} else {
			joined += `\` + a
		}
	}
	if joined == "" {
		return "."
	}
	// A first part that starts like a UNC root (two separators and then a
	// name) keeps them; otherwise a run of leading separators collapses to
	// one, so that joining never invents a UNC path.
	needsReplace, slashes := true, 0
	if isWinSep(first[0]) {
		slashes++
		if len(first) > 1 && isWinSep(first[1]) {
			slashes++
			if len(first) > 2 {
				if isWinSep(first[2]) {
					slashes++
				} else {
					needsReplace = false
				}
			}
		}
	}
	if needsReplace {
		for slashes < len(joined) && isWinSep(joined[slashes]) {
			slashes++
		}
		if slashes >= 2 {
			joined = `\` + joined[slashes:]
		}
	}
	return winNormalize(joined)
}

// winResolve resolves right to left until an absolute path with a device
// is found; the process's working directory (a POSIX path here, with its
// slashes turned around) stands in for a missing start.
func (r *Runtime) winResolve(args []string) string {
	device, tail, abs := "", "", false
	cwd := strings.ReplaceAll(r.cwd(), "/", `\`)
	for i := len(args) - 1; i >= -1; i-- {
		var p string
		switch {
		case i >= 0:
			p = args[i]
			if p == "" {
				continue
			}
		case device == "":
			p = cwd
		default:
			p = cwd
			if len(p) < 3 || !strings.EqualFold(p[:2], device) || p[2] != '\\' {
				p = device + `\`
			}
		}
		d, rootEnd, isAbs, _ := winRoot(p)
		if d != "" {
			if device != "" {
				if !strings.EqualFold(d, device) {
					continue
				}
			} else {
				device = d
			}
		}
		if abs {
			if device != "" {
				break
			}
			continue
		}
		tail = p[rootEnd:] + `\` + tail
		abs = isAbs
		if isAbs && device != "" {
			break
		}
	}
	tail = normalizeSegments(tail, !abs, `\`, isWinSep)
	if abs {
		return device + `\` + tail
	}
	if device+tail == "" {
		return "."
	}
	return device + tail
}

func winIsAbsolute(p string) bool {
	if p == "" {
		return false
	}
	return isWinSep(p[0]) || (len(p) > 2 && isDriveLetter(p[0]) && p[1] == ':' && isWinSep(p[2]))
}

func winDirname(p string) string {
	n := len(p)
	if n == 0 {
		return "."
	}
	_, rootEnd, _, uncWhole := winRoot(p)
	if uncWhole {
		return p
	}
	if n == 1 {
		if isWinSep(p[0]) {
			return p
		}
		return "."
	}
	rootEnd = uncRootEnd(p, rootEnd)
	if rootEnd == 0 {
		rootEnd = -1
	}
	offset := max(rootEnd, 0)
	end, matchedSlash := -1, true
	for i := n - 1; i >= offset; i-- {
		if isWinSep(p[i]) {
			if !matchedSlash {
				end = i
				break
			}
		} else {
			matchedSlash = false
		}
	}
	if end == -1 {
		if rootEnd == -1 {
			return "."
		}
		end = rootEnd
	}
	return p[:end]
}

// winBaseStart is where the file name part may begin: after a drive.
func winBaseStart(p string) int {
	if len(p) >= 2 && isDriveLetter(p[0]) && p[1] == ':' {
		return 2
	}
	return 0
}

func winBasename(p string, suffix goja.Value) string {
	if suffix != nil && !goja.IsUndefined(suffix) && suffix.String() == p && p != "" {
		return ""
	}
	start := winBaseStart(p)
	end := len(p)
	for end > start && isWinSep(p[end-1]) {
		end--
	}
	i := end - 1
	for i >= start && !isWinSep(p[i]) {
		i--
	}
	base := p[i+1 : end]
	if suffix != nil && !goja.IsUndefined(suffix) {
		if s := suffix.String(); s != "" && s != base && strings.HasSuffix(base, s) {
			base = strings.TrimSuffix(base, s)
		}
	}
	return base
}

// winExtParts finds, in p[start:], the last part's start and the extension's
// [dot, end) range, by POSIX path's rules for leading dots.
func winExtParts(p string, start int) (startPart, startDot, end int) {
	startDot, startPart, end = -1, start, -1
	matchedSlash, preDot := true, 0
	for i := len(p) - 1; i >= start; i-- {
		c := p[i]
		if isWinSep(c) {
			if !matchedSlash {
				startPart = i + 1
				break
			}
			continue
		}
		if end == -1 {
			matchedSlash = false
			end = i + 1
		}
		if c == '.' {
			if startDot == -1 {
				startDot = i
			} else if preDot != 1 {
				preDot = 1
			}
		} else if startDot != -1 {
			preDot = -1
		}
	}
	if startDot == -1 || end == -1 || preDot == 0 || (preDot == 1 && startDot == end-1 && startDot == startPart+1) {
		startDot = -1
	}
	return startPart, startDot, end
}

func winExtname(p string) string {
	_, dot, end := winExtParts(p, winBaseStart(p))
	if dot < 0 {
		return ""
	}
	return p[dot:end]
}

func (r *Runtime) winRelative(from, to string) string {
	if from == to {
		return ""
	}
	fromAbs, toAbs := r.winResolve([]string{from}), r.winResolve([]string{to})
	if strings.EqualFold(fromAbs, toAbs) {
		return ""
	}
	split := func(s string) []string {
		parts := strings.Split(strings.TrimRight(s, `\`), `\`)
		return parts
	}
	f, t := split(fromAbs), split(toAbs)
	if !strings.EqualFold(f[0], t[0]) {
		return toAbs // different devices have no relative path
	}
	i := 0
	for i < len(f) && i < len(t) && strings.EqualFold(f[i], t[i]) {
		i++
	}
	out := make([]string, 0, len(f)-i+len(t)-i)
	for range f[i:] {
		out = append(out, "..")
	}
	out = append(out, t[i:]...)
	return strings.Join(out, `\`)
}

// winParse splits p into Node's root, dir, base, ext and name, in that key
// order.
func winParse(vm *goja.Runtime, p string) *goja.Object {
	root, dir, base, ext, name := "", "", "", "", ""
	if p != "" {
		_, rootEnd, _, uncWhole := winRoot(p)
		if uncWhole {
			rootEnd = len(p)
		} else {
			rootEnd = uncRootEnd(p, rootEnd)
		}
		root = p[:rootEnd]
		if rootEnd == len(p) {
			dir = root
		} else {
			startPart, dot, end := winExtParts(p, rootEnd)
			if end == -1 {
				end = rootEnd
			}
			if end > startPart {
				base = p[startPart:end]
				name = base
				if dot >= 0 {
					name, ext = p[startPart:dot], p[dot:end]
				}
			}
			if startPart > 0 && startPart != rootEnd {
				dir = p[:startPart-1]
			} else {
				dir = root
			}
		}
	}
	res := vm.NewObject()
	_ = res.Set("root", root)
	_ = res.Set("dir", dir)
	_ = res.Set("base", base)
	_ = res.Set("ext", ext)
	_ = res.Set("name", name)
	return res
}

func (r *Runtime) winToNamespaced(p string) string {
	if p == "" {
		return p
	}
	res := r.winResolve([]string{p})
	if len(res) <= 2 {
		return p
	}
	if strings.HasPrefix(res, `\\`) {
		if len(res) > 2 && res[2] != '?' && res[2] != '.' {
			return `\\?\UNC\` + res[2:]
		}
		return p
	}
	if isDriveLetter(res[0]) && res[1] == ':' && res[2] == '\\' {
		return `\\?\` + res
	}
	return p
}

// newPathWin32 builds path.win32; posix is the POSIX module it links back to.
func (r *Runtime) newPathWin32(posix *goja.Object) *goja.Object {
	vm := r.vm
	o := vm.NewObject()
	strs := func(args []goja.Value) []string {
		out := make([]string, len(args))
		for i, a := range args {
			out[i] = a.String()
		}
		return out
	}
	_ = o.Set("sep", `\`)
	_ = o.Set("delimiter", ";")
	_ = o.Set("normalize", winNormalize)
	_ = o.Set("join", func(c goja.FunctionCall) goja.Value { return vm.ToValue(winJoin(strs(c.Arguments))) })
	_ = o.Set("resolve", func(c goja.FunctionCall) goja.Value { return vm.ToValue(r.winResolve(strs(c.Arguments))) })
	_ = o.Set("isAbsolute", winIsAbsolute)
	_ = o.Set("dirname", winDirname)
	_ = o.Set("basename", winBasename)
	_ = o.Set("extname", winExtname)
	_ = o.Set("relative", r.winRelative)
	_ = o.Set("parse", func(p string) *goja.Object { return winParse(vm, p) })
	_ = o.Set("format", func(obj *goja.Object) string { return formatPath(obj, `\`) })
	_ = o.Set("toNamespacedPath", r.winToNamespaced)
	_ = o.Set("win32", o)
	_ = o.Set("posix", posix)
	return o
}
