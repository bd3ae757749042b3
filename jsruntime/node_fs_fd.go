package jsruntime

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// fdTable is one runtime's open files, keyed by the descriptor number the
// OS gave them, which is the number JS sees (as in Node). Only the loop
// goroutine reads or changes the map; an operation's goroutine gets the
// *os.File itself.
type fdTable struct {
	files map[int]*fdFile
}

type fdFile struct {
	f *os.File
	// stdio marks descriptors 0, 1 and 2, which are the host's: writes go
	// to the runtime's stderr on the loop (extension output never reaches
	// stdout, the RPC channel), reads of 0 see end of input, and close
	// leaves them open.
	stdio bool
	// append marks O_APPEND, where every write goes to the end whatever
	// position the caller names (Linux ignores pwrite's offset there too).
	append bool
}

// fdTableKey is the hidden r.loaded entry holding the table; no module
// name can collide with it.
const fdTableKey = "\x00fs/fds"

func (r *Runtime) fds() *fdTable {
	if v, ok := r.loaded[fdTableKey]; ok {
		return v.Export().(*fdTable)
	}
	t := &fdTable{files: map[int]*fdFile{}}
	r.loaded[fdTableKey] = r.vm.ToValue(t)
	return t
}

// fdOf returns the open file behind a JS descriptor, or EBADF worded for sys.
func (r *Runtime) fdOf(v goja.Value, sys string) (*fdFile, error) {
	if !isNumber(v) {
		panic(r.argTypeError("fd", "of type number", v))
	}
	n := v.ToInteger()
	f, ok := r.fds().files[int(n)]
	if !ok {
		switch n {
		case 0:
			return &fdFile{f: os.Stdin, stdio: true}, nil
		case 1, 2:
			return &fdFile{f: os.Stderr, stdio: true}, nil
		}
		return nil, errnoError(syscall.EBADF, sys, "")
	}
	return f, nil
}

func isNumber(v goja.Value) bool {
	if v == nil {
		return false
	}
	switch v.Export().(type) {
	case int64, float64, int, int32:
		return true
	}
	return false
}

func isNullish(v goja.Value) bool { return v == nil || goja.IsUndefined(v) || goja.IsNull(v) }

// argTypeError is Node's ERR_INVALID_ARG_TYPE TypeError.
func (r *Runtime) argTypeError(name, want string, got goja.Value) *goja.Object {
	desc := "undefined"
	switch {
	case got == nil || goja.IsUndefined(got):
	case goja.IsNull(got):
		desc = "null"
	default:
		switch x := got.Export().(type) {
		case string:
			desc = fmt.Sprintf("type string ('%s')", x)
		case bool:
			desc = fmt.Sprintf("type boolean (%v)", x)
		case int64, float64:
			desc = "type number (" + got.String() + ")"
		default:
			if _, ok := goja.AssertFunction(got); ok {
				desc = "function " + got.ToObject(r.vm).Get("name").String()
			} else {
				desc = "an instance of " + got.ToObject(r.vm).Get("constructor").ToObject(r.vm).Get("name").String()
			}
		}
	}
	e := r.vm.NewTypeError(fmt.Sprintf("The \"%s\" argument must be %s. Received %s", name, want, desc))
	_ = e.Set("code", "ERR_INVALID_ARG_TYPE")
	return e
}

// nodeFlags maps Node's string flags to open(2) flags.
var nodeFlags = map[string]int{
	"r": os.O_RDONLY, "rs": os.O_RDONLY | os.O_SYNC, "sr": os.O_RDONLY | os.O_SYNC,
	"r+": os.O_RDWR, "rs+": os.O_RDWR | os.O_SYNC, "sr+": os.O_RDWR | os.O_SYNC,
	"w": os.O_TRUNC | os.O_CREATE | os.O_WRONLY, "wx": os.O_TRUNC | os.O_CREATE | os.O_WRONLY | os.O_EXCL,
	"xw": os.O_TRUNC | os.O_CREATE | os.O_WRONLY | os.O_EXCL,
	"w+": os.O_TRUNC | os.O_CREATE | os.O_RDWR, "wx+": os.O_TRUNC | os.O_CREATE | os.O_RDWR | os.O_EXCL,
	"xw+": os.O_TRUNC | os.O_CREATE | os.O_RDWR | os.O_EXCL,
	"a":   os.O_APPEND | os.O_CREATE | os.O_WRONLY, "ax": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_EXCL,
	"xa": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_EXCL, "as": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_SYNC,
	"sa": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_SYNC,
	"a+": os.O_APPEND | os.O_CREATE | os.O_RDWR, "ax+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_EXCL,
	"xa+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_EXCL, "as+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_SYNC,
	"sa+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_SYNC,
}

// linuxFlagBits are the numeric flags fs.constants lists (Linux's values)
// and what they mean to Go, for systems whose own values differ.
var linuxFlagBits = []struct{ node, goFlag int }{
	{1, os.O_WRONLY}, {2, os.O_RDWR}, {64, os.O_CREATE}, {128, os.O_EXCL},
	{512, os.O_TRUNC}, {1024, os.O_APPEND}, {1052672, os.O_SYNC},
}

// openFlags converts a flags argument (string, number or nothing) with def
// as the default.
func (r *Runtime) openFlags(v goja.Value, def string) int {
	if isNullish(v) {
		return nodeFlags[def]
	}
	if isNumber(v) {
		n := int(v.ToInteger())
		if runtime.GOOS == "linux" {
			return n
		}
		out := 0
		for _, b := range linuxFlagBits {
			if n&b.node == b.node {
				out |= b.goFlag
			}
		}
		return out
	}
	if s, ok := v.Export().(string); ok {
		if f, ok := nodeFlags[s]; ok {
			return f
		}
	}
	e := r.vm.NewTypeError(fmt.Sprintf("The argument 'flags' is invalid. Received %s", r.inspectArg(v)))
	_ = e.Set("code", "ERR_INVALID_ARG_VALUE")
	panic(e)
}

func (r *Runtime) inspectArg(v goja.Value) string {
	if s, ok := v.Export().(string); ok {
		return "'" + s + "'"
	}
	return v.String()
}

// modeArg reads a mode: a number or an octal string; nothing gives def.
func (r *Runtime) modeArg(v goja.Value, def os.FileMode) os.FileMode {
	if isNullish(v) {
		return def
	}
	if s, ok := v.Export().(string); ok {
		n, err := strconv.ParseUint(s, 8, 32)
		if err != nil {
			e := r.vm.NewTypeError(fmt.Sprintf("The argument 'mode' must be a 32-bit unsigned integer or an octal string. Received '%s'", s))
			_ = e.Set("code", "ERR_INVALID_ARG_VALUE")
			panic(e)
		}
		return unixMode(uint32(n))
	}
	return unixMode(uint32(v.ToInteger()))
}

// unixMode turns permission and setuid/setgid/sticky bits as Node passes
// them into Go's FileMode (whose special bits are elsewhere).
func unixMode(n uint32) os.FileMode {
	m := os.FileMode(n & 0o777)
	if n&0o4000 != 0 {
		m |= os.ModeSetuid
	}
	if n&0o2000 != 0 {
		m |= os.ModeSetgid
	}
	if n&0o1000 != 0 {
		m |= os.ModeSticky
	}
	return m
}

// fdCall is one descriptor operation prepared on the loop: run touches Go
// values only (it runs on a goroutine for the callback form), then done
// turns its result into the callback's arguments after the error, on the
// loop. sys names the operation in errors; path is the caller's path.
type fdCall struct {
	sys, path string
	run       func() (any, error)
	done      func(v any) []goja.Value
}

// fdPrep parses one call's arguments (minus the callback) on the loop. An
// error it returns reaches the caller as the operation's error (EBADF);
// bad argument types panic with a TypeError at once, as in Node.
type fdPrep func(args []goja.Value) (*fdCall, error)

// defineFdOp sets name (callback form) and nameSync on mod.
func (r *Runtime) defineFdOp(mod *goja.Object, name string, prep fdPrep) {
	_ = mod.Set(name+"Sync", func(call goja.FunctionCall) goja.Value {
		c, err := prep(call.Arguments)
		if err != nil {
			panic(r.jsFSError(err))
		}
		v, err := c.run()
		if err != nil {
			panic(r.jsFSError(toNodeErr(err, c.sys, c.path)))
		}
		if c.done == nil {
			return goja.Undefined()
		}
		if out := c.done(v); len(out) > 0 {
			return out[0]
		}
		return goja.Undefined()
	})
	_ = mod.Set(name, func(call goja.FunctionCall) goja.Value {
		args := call.Arguments
		var cb goja.Callable
		if n := len(args); n > 0 {
			if f, ok := goja.AssertFunction(args[n-1]); ok {
				cb, args = f, args[:n-1]
			}
		}
		if cb == nil {
			e := r.argTypeError("cb", "of type function", goja.Undefined())
			panic(e)
		}
		c, err := prep(args)
		wrap := r.asyncWrap()
		done := r.loop.Reserve()
		if err != nil {
			done(func(*goja.Runtime) { wrap(func() { _, _ = cb(goja.Undefined(), r.jsFSError(err)) }) })
			return goja.Undefined()
		}
		go func() {
			v, err := c.run()
			done(func(*goja.Runtime) {
				wrap(func() {
					if err != nil {
						_, _ = cb(goja.Undefined(), r.jsFSError(toNodeErr(err, c.sys, c.path)))
						return
					}
					out := []goja.Value{goja.Null()}
					if c.done != nil {
						out = append(out, c.done(v)...)
					}
					_, _ = cb(goja.Undefined(), out...)
				})
			})
		}()
		return goja.Undefined()
	})
}

// argAt is args[i] or undefined.
func argAt(args []goja.Value, i int) goja.Value {
	if i < len(args) {
		return args[i]
	}
	return goja.Undefined()
}

// bufferArg checks that v is a Buffer, TypedArray or DataView and returns
// its live bytes.
func (r *Runtime) bufferArg(name string, v goja.Value) []byte {
	if o, ok := v.(*goja.Object); ok {
		if _, ok := o.Get("buffer").Export().(goja.ArrayBuffer); ok {
			return bytesOf(r.vm, v)
		}
	}
	panic(r.argTypeError(name, "an instance of Buffer, TypedArray, or DataView", v))
}

// position reads a read/write position: a number or bigint ≥ 0, or
// nothing (and -1) for the file's current position.
func position(v goja.Value) int64 {
	if isNullish(v) {
		return -1
	}
	if b, ok := v.Export().(interface{ Int64() int64 }); ok {
		return b.Int64()
	}
	if !isNumber(v) {
		return -1
	}
	return v.ToInteger()
}

func (r *Runtime) rangeError(name, rng string, got int64) *goja.Object {
	msg := fmt.Sprintf("The value of \"%s\" is out of range. It must be %s. Received %d", name, rng, got)
	e, err := r.vm.New(r.vm.Get("RangeError"), r.vm.ToValue(msg))
	if err != nil {
		e = r.vm.NewGoError(errors.New(msg))
	}
	_ = e.Set("code", "ERR_OUT_OF_RANGE")
	return e
}

// checkRange validates a read's or write's offset and length in a
// buffer of size bytes, with Node's messages (a read names the length
// when the offset is past the end; a write checks that first itself).
func (r *Runtime) checkRange(size int, off, n int64) {
	const maxSafe = 9007199254740991
	switch {
	case off < 0:
		panic(r.rangeError("offset", fmt.Sprintf(">= 0 && <= %d", int64(maxSafe)), off))
	case n < 0:
		panic(r.rangeError("length", ">= 0", n))
	case off+n > int64(size):
		panic(r.rangeError("length", fmt.Sprintf("<= %d", int64(size)-off), n))
	}
}

// readAt reads into b at pos, or at the current position when pos < 0;
// end of file is a short read, not an error.
func readAt(f *os.File, b []byte, pos int64) (int, error) {
	var n int
	var err error
	if pos < 0 {
		n, err = f.Read(b)
	} else {
		n, err = f.ReadAt(b, pos)
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return n, err
}

func writeAt(ff *fdFile, b []byte, pos int64) (int, error) {
	if pos < 0 || ff.append {
		return ff.f.Write(b)
	}
	return ff.f.WriteAt(b, pos)
}

// fdErr rewrites an error from an fd operation to name sys without a path.
func fdErr(err error, sys string) error { return opErr(unwrapPathErr(err), sys) }

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// installFdOps adds the descriptor API to fs.
func (r *Runtime) installFdOps(mod *goja.Object) {
	vm := r.vm
	r.defineFdOp(mod, "open", func(args []goja.Value) (*fdCall, error) {
		path := r.pathArg(argAt(args, 0))
		raw := rawPath(argAt(args, 0), path)
		flags := r.openFlags(argAt(args, 1), "r")
		mode := r.modeArg(argAt(args, 2), 0o666)
		return &fdCall{sys: "open", path: raw,
			run: func() (any, error) { return os.OpenFile(path, flags, mode) },
			done: func(v any) []goja.Value {
				f := v.(*os.File)
				fd := int(f.Fd())
				r.fds().files[fd] = &fdFile{f: f, append: flags&os.O_APPEND != 0}
				return []goja.Value{vm.ToValue(fd)}
			}}, nil
	})
	r.defineFdOp(mod, "close", func(args []goja.Value) (*fdCall, error) {
		ff, err := r.fdOf(argAt(args, 0), "close")
		if err != nil {
			return nil, err
		}
		if ff.stdio {
			return &fdCall{sys: "close", run: func() (any, error) { return nil, nil }}, nil
		}
		delete(r.fds().files, int(argAt(args, 0).ToInteger()))
		return &fdCall{sys: "close", run: func() (any, error) { return nil, fdErr(ff.f.Close(), "close") }}, nil
	})
	r.defineFdOp(mod, "read", func(args []goja.Value) (*fdCall, error) {
		ff, err := r.fdOf(argAt(args, 0), "read")
		if err != nil {
			return nil, err
		}
		bufv := argAt(args, 1)
		var offV, lenV, posV goja.Value = goja.Undefined(), goja.Undefined(), goja.Undefined()
		readOpts := func(o *goja.Object) {
			if v := o.Get("offset"); v != nil {
				offV = v
			}
			if v := o.Get("length"); v != nil {
				lenV = v
			}
			if v := o.Get("position"); v != nil {
				posV = v
			}
		}
		if o, ok := bufv.(*goja.Object); ok && !isTyped(o) {
			// read(fd, {buffer, offset, length, position})
			bufv = o.Get("buffer")
			if bufv == nil || goja.IsUndefined(bufv) {
				bufv = buffer.WrapBytes(vm, make([]byte, 16384))
			}
			readOpts(o)
		} else if isNullish(bufv) {
			bufv = buffer.WrapBytes(vm, make([]byte, 16384))
		} else if o, ok := argAt(args, 2).(*goja.Object); ok {
			readOpts(o)
		} else {
			offV, lenV, posV = argAt(args, 2), argAt(args, 3), argAt(args, 4)
		}
		b := r.bufferArg("buffer", bufv)
		off := int64(0)
		if !isNullish(offV) {
			off = offV.ToInteger()
		}
		n := int64(len(b)) - off
		if !isNullish(lenV) {
			n = lenV.ToInteger()
		}
		r.checkRange(len(b), off, n)
		pos := position(posV)
		tmp := make([]byte, n)
		return &fdCall{sys: "read",
			run: func() (any, error) {
				if ff.stdio {
					return 0, nil
				}
				k, err := readAt(ff.f, tmp, pos)
				return k, fdErr(err, "read")
			},
			done: func(v any) []goja.Value {
				k := v.(int)
				// The bytes go into the caller's buffer here, on the loop,
				// never from the goroutine that read them.
				copy(bytesOf(vm, bufv)[off:], tmp[:k])
				return []goja.Value{vm.ToValue(k), bufv}
			}}, nil
	})
	r.defineFdOp(mod, "write", func(args []goja.Value) (*fdCall, error) {
		ff, err := r.fdOf(argAt(args, 0), "write")
		if err != nil {
			return nil, err
		}
		src := argAt(args, 1)
		var data []byte
		pos := int64(-1)
		if s, ok := src.Export().(string); ok {
			// write(fd, string, position, encoding)
			enc := "utf8"
			if e := argAt(args, 3); !isNullish(e) {
				enc = e.String()
			}
			data = encodeString(s, strings.ToLower(enc))
			pos = position(argAt(args, 2))
		} else {
			b := r.bufferArg("buffer", src)
			off, n := int64(0), int64(-1)
			offV, lenV, posV := argAt(args, 2), argAt(args, 3), argAt(args, 4)
			if o, ok := offV.(*goja.Object); ok {
				offV, lenV, posV = o.Get("offset"), o.Get("length"), o.Get("position")
			}
			if !isNullish(offV) {
				off = offV.ToInteger()
			}
			if off > int64(len(b)) {
				panic(r.rangeError("offset", fmt.Sprintf("<= %d", len(b)), off))
			}
			n = int64(len(b)) - off
			if !isNullish(lenV) {
				n = lenV.ToInteger()
			}
			r.checkRange(len(b), off, n)
			data = append([]byte(nil), b[off:off+n]...)
			pos = position(posV)
		}
		if ff.stdio {
			return r.stdioWrite(data, src), nil
		}
		return &fdCall{sys: "write",
			run: func() (any, error) {
				k, err := writeAt(ff, data, pos)
				return k, fdErr(err, "write")
			},
			done: func(v any) []goja.Value { return []goja.Value{vm.ToValue(v), src} }}, nil
	})
	vecs := func(args []goja.Value) (*fdFile, []goja.Value, int64, error) {
		arr, ok := argAt(args, 1).(*goja.Object)
		if !ok || arr.ClassName() != "Array" {
			panic(r.argTypeError("buffers", "an ArrayBufferView[]", argAt(args, 1)))
		}
		var bufs []goja.Value
		for i := range arr.Get("length").ToInteger() {
			bufs = append(bufs, arr.Get(strconv.FormatInt(i, 10)))
		}
		ff, err := r.fdOf(argAt(args, 0), "")
		return ff, bufs, position(argAt(args, 2)), err
	}
	r.defineFdOp(mod, "readv", func(args []goja.Value) (*fdCall, error) {
		ff, bufs, pos, err := vecs(args)
		if err != nil {
			return nil, errnoError(syscall.EBADF, "read", "")
		}
		total := 0
		for _, b := range bufs {
			total += len(r.bufferArg("buffers", b))
		}
		tmp := make([]byte, total)
		return &fdCall{sys: "read",
			run: func() (any, error) {
				k, err := readAt(ff.f, tmp, pos)
				return k, fdErr(err, "read")
			},
			done: func(v any) []goja.Value {
				k := v.(int)
				rest := tmp[:k]
				for _, b := range bufs {
					rest = rest[copy(bytesOf(vm, b), rest):]
				}
				return []goja.Value{vm.ToValue(k), argAt(args, 1)}
			}}, nil
	})
	r.defineFdOp(mod, "writev", func(args []goja.Value) (*fdCall, error) {
		ff, bufs, pos, err := vecs(args)
		if err != nil {
			return nil, errnoError(syscall.EBADF, "write", "")
		}
		var data []byte
		for _, b := range bufs {
			data = append(data, r.bufferArg("buffers", b)...)
		}
		if ff.stdio {
			return r.stdioWrite(data, argAt(args, 1)), nil
		}
		return &fdCall{sys: "write",
			run: func() (any, error) {
				k, err := writeAt(ff, data, pos)
				return k, fdErr(err, "write")
			},
			done: func(v any) []goja.Value { return []goja.Value{vm.ToValue(v), argAt(args, 1)} }}, nil
	})
	// hostOnly are the calls that would change the host's own stdio.
	hostOnly := map[string]bool{"ftruncate": true, "fchmod": true, "fchown": true, "futimes": true}
	simple := func(name, sys string, run func(ff *fdFile, args []goja.Value) func() (any, error), done func(v any) []goja.Value) {
		r.defineFdOp(mod, name, func(args []goja.Value) (*fdCall, error) {
			ff, err := r.fdOf(argAt(args, 0), sys)
			if err != nil {
				return nil, err
			}
			if ff.stdio && hostOnly[name] {
				return nil, errnoError(syscall.EINVAL, sys, "")
			}
			return &fdCall{sys: sys, run: run(ff, args), done: done}, nil
		})
	}
	simple("fstat", "fstat", func(ff *fdFile, _ []goja.Value) func() (any, error) {
		return func() (any, error) {
			fi, err := ff.f.Stat()
			if err != nil {
				return nil, fdErr(err, "fstat")
			}
			return statResult{fi}, nil
		}
	}, func(v any) []goja.Value { return []goja.Value{r.fsResult(v)} })
	simple("ftruncate", "ftruncate", func(ff *fdFile, args []goja.Value) func() (any, error) {
		n := int64(0)
		if v := argAt(args, 1); isNumber(v) {
			n = max(v.ToInteger(), 0)
		}
		return func() (any, error) { return nil, fdErr(ff.f.Truncate(n), "ftruncate") }
	}, nil)
	for _, name := range []string{"fsync", "fdatasync"} {
		simple(name, name, func(ff *fdFile, _ []goja.Value) func() (any, error) {
			return func() (any, error) { return nil, fdErr(ff.f.Sync(), name) }
		}, nil)
	}
	simple("fchmod", "fchmod", func(ff *fdFile, args []goja.Value) func() (any, error) {
		m := r.modeArg(argAt(args, 1), 0)
		return func() (any, error) { return nil, fdErr(ff.f.Chmod(m), "fchmod") }
	}, nil)
	simple("fchown", "fchown", func(ff *fdFile, args []goja.Value) func() (any, error) {
		uid, gid := int(argAt(args, 1).ToInteger()), int(argAt(args, 2).ToInteger())
		return func() (any, error) { return nil, fdErr(ff.f.Chown(uid, gid), "fchown") }
	}, nil)
	simple("futimes", "futime", func(ff *fdFile, args []goja.Value) func() (any, error) {
		at, mt := r.timeArg("atime", argAt(args, 1)), r.timeArg("mtime", argAt(args, 2))
		return func() (any, error) { return nil, fdErr(os.Chtimes(ff.f.Name(), at, mt), "futime") }
	}, nil)
}

// stdioWrite writes to the runtime's stderr now, on the loop, for a write
// to descriptor 1 or 2.
func (r *Runtime) stdioWrite(data []byte, src goja.Value) *fdCall {
	n, err := r.stderr.Write(data)
	return &fdCall{sys: "write",
		run:  func() (any, error) { return n, err },
		done: func(v any) []goja.Value { return []goja.Value{r.vm.ToValue(v), src} }}
}

// isTyped reports a Buffer, TypedArray or DataView (an object with an
// ArrayBuffer behind it), as opposed to an options object.
func isTyped(o *goja.Object) bool {
	_, ok := o.Get("buffer").Export().(goja.ArrayBuffer)
	return ok
}
