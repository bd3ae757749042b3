package jsruntime

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// goja words its own TypeErrors and ReferenceErrors differently from V8
// ("Cannot read property 'x' of undefined" where Node says "Cannot read
// properties of undefined (reading 'x')"), and extensions, their tests and
// the model match Node's wording. goja has no hook where it creates those
// errors, so the message is rewritten where an error surfaces: in each
// catch clause of an extension's bundle (the compile step adds a call to
// v8ErrorGlobal at its start) and where the host reads an error (uncaught
// throws, unhandled rejections). Most V8 messages name the expression that
// failed ("o.f is not a function"), which goja's do not, so the rewrite
// reads it from the source line the error's first stack frame points at.

// v8ErrorGlobal is the global the compile step's catch-clause calls use.
const v8ErrorGlobal = "__pi_v8error"

// installV8Errors defines v8ErrorGlobal on vm, out of enumeration, and
// has Promise.prototype.then (which catch calls) hand a rejection handler
// the rewritten error, since p.catch((e) => e.message) passes no catch
// clause.
func installV8Errors(vm *goja.Runtime) {
	fn := vm.ToValue(func(v goja.Value) { fixV8Error(v) })
	_ = vm.GlobalObject().DefineDataProperty(v8ErrorGlobal, fn, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	proto := vm.Get("Promise").ToObject(vm).Get("prototype").ToObject(vm)
	then, ok := goja.AssertFunction(proto.Get("then"))
	if !ok {
		return
	}
	wrapped := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		onOK, onErr := call.Argument(0), call.Argument(1)
		if h, ok := goja.AssertFunction(onErr); ok {
			onErr = vm.ToValue(func(c goja.FunctionCall) goja.Value {
				fixV8Error(c.Argument(0))
				v, err := h(c.This, c.Arguments...)
				if err != nil {
					panic(err)
				}
				return v
			})
		}
		v, err := then(call.This, onOK, onErr)
		if err != nil {
			panic(err)
		}
		return v
	}).ToObject(vm)
	_ = wrapped.DefineDataProperty("name", vm.ToValue("then"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = wrapped.DefineDataProperty("length", vm.ToValue(2), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = proto.DefineDataProperty("then", wrapped, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// gojaWordings are the start of every message v8Message rewrites; an
// error whose message starts with none of them costs one prefix scan.
var gojaWordings = []string{
	"Cannot read property '",
	"Cannot convert undefined or null to object",
	"Value is not an object: ",
	"Object has no member '",
	"Not a function: ",
	"Value is not a constructor",
	"object is not iterable",
	"Cannot access a variable before initialization",
	"Expecting a function in instanceof check",
	"Value is not object coercible",
}

// fixV8Error rewrites the message (and stack) of a TypeError or
// ReferenceError that goja worded, in place. Other values are left alone.
func fixV8Error(v goja.Value) {
	o, ok := v.(*goja.Object)
	if !ok || o.ClassName() != "Error" {
		return
	}
	mv := o.Get("message")
	if mv == nil {
		return
	}
	msg := mv.String()
	known := false
	for _, w := range gojaWordings {
		if strings.HasPrefix(msg, w) {
			known = true
			break
		}
	}
	if !known {
		return
	}
	name := ""
	if n := o.Get("name"); n != nil {
		name = n.String()
	}
	if name != "TypeError" && name != "ReferenceError" {
		return
	}
	stack := ""
	if s := o.Get("stack"); s != nil {
		stack = s.String()
	}
	line, col := throwSite(stack)
	if strings.Contains(line, name+"(") {
		// The script built this error itself (new TypeError("…")): its
		// words are its own, even when they read like goja's.
		return
	}
	fixed := v8Message(msg, line, col)
	if fixed == msg {
		return
	}
	_ = o.Set("message", fixed)
	if head := name + ": " + msg; strings.HasPrefix(stack, head) {
		_ = o.Set("stack", name+": "+fixed+stack[len(head):])
	}
}

// stackFrame matches the position of a goja stack frame: "file:line:col(pc)".
var stackFrame = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\tat (?:.*? \()?(.+?):(\d+):(\d+)\(\d+\)\)?$`) })

// throwSite returns the source line and 1-based column of the first stack
// frame, or "" when the source cannot be read or the error was thrown by
// a built-in (its frame is native, and the caller's line would name the
// wrong expression).
func throwSite(stack string) (string, int) {
	_, rest, _ := strings.Cut(stack, "\n")
	first, _, _ := strings.Cut(rest, "\n")
	m := stackFrame().FindStringSubmatch(first)
	if m == nil {
		return "", 0
	}
	ln, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	lines := sourceLines(m[1])
	if ln < 1 || ln > len(lines) {
		return "", 0
	}
	return lines[ln-1], col
}

var sourceCache sync.Map // path → []string

// sourceLines reads a source file once; errors are rare, so the cache
// holds only the files errors were thrown in.
func sourceLines(path string) []string {
	if v, ok := sourceCache.Load(path); ok {
		return v.([]string)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	lines := strings.Split(string(b), "\n")
	sourceCache.Store(path, lines)
	return lines
}

var (
	// A destructuring declaration or assignment: "[a] = src", "{ a } = src".
	arrayPatternFrom  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\]\s*=\s*([\p{L}_$][\p{L}\d_$.]*)\s*(?:;|$|\)|,)`) })
	objectPatternFrom = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\{\s*([\p{L}_$][\p{L}\d_$]*)[^{}]*\}\s*=\s*([\p{L}_$][\p{L}\d_$.]*)\s*(?:;|$|\)|,)`)
	})
	readPropOf = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^Cannot read property '(.*)' of (undefined|null)(?: or null)?$`)
	})
	noMember = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Object has no member '(.*)'$`) })
)

// v8Message is V8's wording of goja's message msg, thrown at column col
// (1-based, as precise as the source map) of the source line line. What
// it cannot work out stays in goja's words.
func v8Message(msg, line string, col int) string {
	if m := readPropOf().FindStringSubmatch(msg); m != nil {
		// goja says undefined for null too; the value is gone by now.
		return "Cannot read properties of " + m[2] + " (reading '" + m[1] + "')"
	}
	at := min(max(col-1, 0), len(line))
	switch {
	case strings.HasPrefix(msg, "Expecting a function in instanceof check"):
		return "Right-hand side of 'instanceof' is not callable"
	case msg == "Cannot convert undefined or null to object":
		if prop, ok := assignedProperty(line, at); ok {
			return "Cannot set properties of undefined (setting '" + prop + "')"
		}
		if m := arrayPatternFrom().FindStringSubmatch(line); m != nil {
			return m[1] + " is not iterable"
		}
	case msg == "Value is not object coercible":
		if m := objectPatternFrom().FindStringSubmatch(line); m != nil {
			return "Cannot destructure property '" + m[1] + "' of '" + m[2] + "' as it is undefined."
		}
	case strings.HasPrefix(msg, "Value is not an object: "), strings.HasPrefix(msg, "Not a function: "),
		strings.HasPrefix(msg, "Object has no member '"):
		member := ""
		if m := noMember().FindStringSubmatch(msg); m != nil {
			member = m[1]
		}
		if callee, isNew, ok := calleeAt(line, at, member); ok {
			if isNew {
				return callee + " is not a constructor"
			}
			return callee + " is not a function"
		}
	case msg == "Value is not a constructor":
		if callee, _, ok := calleeAt(line, at, ""); ok {
			return callee + " is not a constructor"
		}
	case msg == "object is not iterable":
		if expr, ok := iteratedAt(line, at); ok {
			return expr + " is not iterable"
		}
	case msg == "Cannot access a variable before initialization":
		if id := identifierNear(line, at); id != "" {
			return "Cannot access '" + id + "' before initialization"
		}
	}
	return msg
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// exprBefore returns the member-access chain (a.b, a?.b, a["x"], a.b())
// that ends just before index end of line, as V8 prints it: a["x"] reads
// a.x and a.b() reads a.b(...).
func exprBefore(line string, end int) string {
	i := end
	for i > 0 && line[i-1] == ' ' {
		i--
	}
	stop := i
	for i > 0 {
		c := line[i-1]
		switch {
		case isIdentByte(c) || c == '.' || c == '?':
			i--
		case c == ']' || c == ')':
			j := matchingOpen(line, i-1)
			if j < 0 {
				return ""
			}
			i = j
		default:
			goto done
		}
	}
done:
	expr := strings.TrimLeft(line[i:stop], ".?")
	if expr != "" && (expr[0] == '(' || expr[0] == '[') {
		return "" // a parenthesised or array expression: no name to give
	}
	// V8 prints a computed string key as a member name and a call's
	// arguments as "...".
	expr = computedKey().ReplaceAllString(expr, ".$2")
	expr = callArgs().ReplaceAllString(expr, "(...)")
	return expr
}

var callArgs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\([^()]*\)`) })

// matchingOpen returns the index of the bracket that the closing one at
// index end of line closes, or -1.
func matchingOpen(line string, end int) int {
	depth := 0
	for j := end; j >= 0; j-- {
		switch line[j] {
		case ']', ')':
			depth++
		case '[', '(':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

var computedKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[(["'])(.*?)["']\]`) })

// calleeAt finds the call or new expression that failed at index at: the
// first "(" from a little before at, and the chain in front of it. member,
// when known, is the property the callee must end in.
func calleeAt(line string, at int, member string) (callee string, isNew, ok bool) {
	if member != "" {
		// The member's own call on the line pins the callee down.
		for _, sep := range []string{"." + member + "(", "?." + member + "(", "." + member + "?.("} {
			if k := nearestIndex(line, sep, at); k >= 0 {
				end := k + len(sep) - 1
				if strings.HasSuffix(sep, "?.(") {
					end -= 2
				}
				callee = exprBefore(line, end)
				return callee, isNewBefore(line, end-len(callee)-1), callee != ""
			}
		}
	}
	start := max(at-1, 0)
	k := strings.IndexByte(line[start:], '(')
	if k < 0 {
		return "", false, false
	}
	end := start + k
	callee = exprBefore(line, end)
	if callee == "" {
		return "", false, false
	}
	if member != "" && !strings.HasSuffix(callee, "."+member) {
		return "", false, false
	}
	// The site must lie on the call itself ("new callee(" at most a few
	// columns early, as the source map rounds): a "(" further on belongs
	// to another expression, and naming it would mislead.
	begin := end - len(callee)
	isNew = isNewBefore(line, begin)
	if isNew {
		begin = strings.LastIndex(line[:begin], "new")
	}
	if at < begin-2 {
		return "", false, false
	}
	return callee, isNew, true
}

// isNewBefore reports whether the keyword new ends just before index i.
func isNewBefore(line string, i int) bool {
	j := min(i, len(line))
	for j > 0 && line[j-1] == ' ' {
		j--
	}
	return j >= 3 && line[j-3:j] == "new" && (j == 3 || !isIdentByte(line[j-4]))
}

// nearestIndex returns the index of the occurrence of sub closest to at.
func nearestIndex(line, sub string, at int) int {
	best, bestDist := -1, 0
	for i := 0; ; {
		k := strings.Index(line[i:], sub)
		if k < 0 {
			return best
		}
		p := i + k
		d := p - at
		if d < 0 {
			d = -d
		}
		if best < 0 || d < bestDist {
			best, bestDist = p, d
		}
		i = p + 1
	}
}

// assignedProperty finds "obj.prop =" or `obj["prop"] =` near index at,
// the assignment that failed on an undefined or null object.
func assignedProperty(line string, at int) (string, bool) {
	for i := max(at-1, 0); i < len(line); i++ {
		if line[i] != '=' || i+1 < len(line) && line[i+1] == '=' || i > 0 && strings.ContainsRune("=!<>+-*/%&|^", rune(line[i-1])) && line[i-1] != ' ' {
			continue
		}
		expr := exprBefore(line, i)
		k := strings.LastIndexByte(expr, '.')
		if k < 0 {
			return "", false
		}
		return expr[k+1:], true
	}
	return "", false
}

// iteratedAt finds what a failed iteration iterated: the operand of
// "of", of a spread, or the right side of an array destructuring.
func iteratedAt(line string, at int) (string, bool) {
	operand := func(i int) (string, bool) {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		j := i
		for j < len(line) && (isIdentByte(line[j]) || line[j] == '.') {
			j++
		}
		return line[i:j], j > i
	}
	if k := nearestIndex(line, " of ", at); k >= 0 {
		return operand(k + 4)
	}
	if k := nearestIndex(line, "...", at); k >= 0 {
		return operand(k + 3)
	}
	if k := nearestIndex(line, "] = ", at); k >= 0 {
		return operand(k + 4)
	}
	return "", false
}

// identifierNear returns the identifier at index at or the first one
// after it that is not a keyword (the source map may point at the space
// before a name, or at the new or typeof in front of it).
func identifierNear(line string, at int) string {
	i := min(at, len(line))
	for i > 0 && isIdentByte(line[i-1]) {
		i--
	}
	for {
		for i < len(line) && !isIdentByte(line[i]) {
			i++
		}
		j := i
		for j < len(line) && isIdentByte(line[j]) {
			j++
		}
		if id := line[i:j]; !jsOperatorWords[id] || id == "" {
			return id
		}
		i = j
	}
}

// jsOperatorWords can stand before a name in an expression.
var jsOperatorWords = map[string]bool{"new": true, "typeof": true, "void": true, "delete": true, "await": true,
	"return": true, "throw": true, "in": true, "of": true, "instanceof": true, "yield": true, "case": true,
	"let": true, "const": true, "var": true}
