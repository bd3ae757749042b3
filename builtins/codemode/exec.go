package codemode

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// outcome is how a script ended.
type outcome struct {
	failed bool
	errMsg string
}

// execScript runs code on the calling goroutine in a fresh runtime. The
// caller has a worker slot; deadline is zero for none.
func (r *run) execScript(code string, deadline time.Time) outcome {
	r.vm = goja.New()
	r.lines = strings.Count(code, "\n") + 1
	r.results = make(chan callDone)
	r.done = make(chan struct{})
	defer close(r.done)
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel() // cancels the calls still running when the script ends
	r.ctx = ctx
	var timer <-chan time.Time
	if !deadline.IsZero() {
		t := time.AfterFunc(time.Until(deadline), func() { r.vm.Interrupt(errTimeout) })
		defer t.Stop()
		tc := time.NewTimer(time.Until(deadline))
		defer tc.Stop()
		timer = tc.C
	}
	stop := context.AfterFunc(r.ctx, func() { r.vm.Interrupt(errAborted) })
	defer stop()

	if err := r.setup(); err != nil {
		return outcome{failed: true, errMsg: err.Error()}
	}
	// The script is the body of an async function; keeping the wrapper on
	// line 1 keeps the script's line numbers.
	prog, err := goja.Compile("codemode.js", wrapPrefix+code+"\n})()", false)
	if err != nil {
		return outcome{failed: true, errMsg: r.errorText(err)}
	}
	v, err := r.vm.RunProgram(prog)
	if o, done := r.interrupted(err); done {
		return o
	}
	if err != nil {
		return outcome{failed: true, errMsg: r.errorText(err)}
	}
	p, _ := v.Export().(*goja.Promise)
	for p != nil && p.State() == goja.PromiseStatePending {
		if r.pending == 0 {
			return outcome{failed: true, errMsg: "Error: " + errNoSettle.Error()}
		}
		select {
		case d := <-r.results:
			if o, done := r.interrupted(r.finish(d)); done {
				return o
			}
		case <-timer:
			return r.timedOut()
		case <-r.ctx.Done():
			return outcome{failed: true, errMsg: "Error: the script was aborted"}
		}
	}
	if p == nil {
		return outcome{}
	}
	if p.State() == goja.PromiseStateRejected {
		return outcome{failed: true, errMsg: r.valueError(p.Result())}
	}
	if res := p.Result(); res != nil && !goja.IsUndefined(res) {
		r.addTextSafe(res)
	}
	return outcome{}
}

// addTextSafe adds the returned value, turning a passed limit into a
// failure instead of a panic outside JavaScript.
func (r *run) addTextSafe(v goja.Value) {
	defer func() { _ = recover() }()
	r.addText(r.show(v))
}

// interrupted maps an error from goja to the end of the script when it is
// one of our interrupts.
func (r *run) interrupted(err error) (outcome, bool) {
	var ie *goja.InterruptedError
	if !errors.As(err, &ie) {
		if err != nil {
			var ex *goja.Exception
			if errors.As(err, &ex) {
				return outcome{}, false
			}
			return outcome{failed: true, errMsg: r.errorText(err)}, true
		}
		return outcome{}, false
	}
	switch ie.Value() {
	case errExit:
		return outcome{}, true
	case errTimeout:
		return r.timedOut(), true
	case errAborted:
		return outcome{failed: true, errMsg: "Error: the script was aborted"}, true
	}
	return outcome{failed: true, errMsg: fmt.Sprint(ie.Value())}, true
}

func (r *run) timedOut() outcome {
	return outcome{failed: true, errMsg: fmt.Sprintf("Script timed out: it ran past its timeout_ms of %d ms", r.timeoutMs)}
}

// wrapPrefix makes the script the body of an async function; it stays on
// line 1 so that line numbers are the script's, and columns on line 1 are
// corrected by its length.
const wrapPrefix = "(async function () {"

// gojaPos is goja's "file:line:col(pc)" position; the pc is dropped.
var gojaPos = regexp.MustCompile(`codemode\.js:(\d+):(\d+)(?:\(\d+\))?`)

// parseErr is a goja parser error: "codemode.js: Line L:C message".
var parseErr = regexp.MustCompile(`^codemode\.js: Line (\d+):(\d+) (.*?)(?: \(and \d+ more errors\))?$`)

// fixPos rewrites goja positions to the script's own columns.
func fixPos(s string) string {
	return gojaPos.ReplaceAllStringFunc(s, func(m string) string {
		g := gojaPos.FindStringSubmatch(m)
		return "codemode.js:" + g[1] + ":" + scriptCol(g[1], g[2])
	})
}

func scriptCol(line, col string) string {
	c, _ := strconv.Atoi(col)
	if line == "1" && c > len(wrapPrefix) {
		c -= len(wrapPrefix)
	}
	return strconv.Itoa(c)
}

// errorText renders a compile or run error as "Name: message" and its
// stack frames in the script.
func (r *run) errorText(err error) string {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return r.valueError(ex.Value())
	}
	var se *goja.CompilerSyntaxError
	if errors.As(err, &se) {
		if se.File != nil {
			return "SyntaxError: " + se.Message + "\n    at " + fixPos(se.File.Position(se.Offset).String())
		}
		if g := parseErr.FindStringSubmatch(se.Message); g != nil {
			return "SyntaxError: " + g[3] + "\n    at codemode.js:" + g[1] + ":" + scriptCol(g[1], g[2])
		}
		return "SyntaxError: " + se.Message
	}
	return err.Error()
}

// valueError renders a thrown value: an Error's stack (its first line is
// "Name: message"), else the value as a string.
func (r *run) valueError(v goja.Value) string {
	if v == nil {
		return "undefined"
	}
	if o, ok := v.(*goja.Object); ok {
		if st := o.Get("stack"); st != nil && !goja.IsUndefined(st) {
			head := o.Get("name").String() + ": " + o.Get("message").String()
			out := []string{head}
			for _, l := range strings.Split(st.String(), "\n") {
				l = strings.TrimSpace(l)
				if !strings.HasPrefix(l, "at ") || !strings.Contains(l, "codemode.js") {
					continue
				}
				// The wrapper's closing line is not the script's.
				if g := gojaPos.FindStringSubmatch(l); g != nil && g[1] == strconv.Itoa(r.lines+1) {
					continue
				}
				out = append(out, "    "+fixPos(l))
			}
			return strings.Join(out, "\n")
		}
	}
	return v.String()
}
