package jsruntime

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf16"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// fsArgs are the JS arguments of an fs call, converted to Go on the loop
// so that the operation itself can run on any goroutine.
type fsArgs struct {
	path, path2 string
	// raw and raw2 are the paths as the caller wrote them: Node's error
	// messages and a symlink's target use them unresolved.
	raw, raw2 string
	data      []byte
	enc       string // "" returns bytes (a Buffer)
	recursive bool
	force     bool
	withTypes bool
	mode      os.FileMode
	prefix    string
}

// fsOp is one fs operation on Go values only.
type fsOp struct {
	syscall string
	shape   int // how JS arguments map to fsArgs
	run     func(a fsArgs) (any, error)
}

const (
	shapePath     = iota // (path, options|encoding)
	shapePathData        // (path, data, options|encoding)
	shapeTwoPaths        // (src, dst, options)
)

// statResult and dirent are converted to JS objects on the loop.
type statResult struct{ fi os.FileInfo }
type dirent struct {
	name, parent string
	mode         fs.FileMode
}

// nodeFSError words a Go error as Node does: "ENOENT: no such file or
// directory, open '/x'", with code, errno, syscall and path properties.
type nodeFSError struct {
	code, desc, syscall, path string
	dest                      string // the second path of rename, copyfile, symlink
	errno                     int
	// system marks Node's SystemError (ERR_FS_*), whose message and
	// errno sign differ from the libuv errors'.
	system bool
}

func (e *nodeFSError) Error() string {
	switch {
	case e.system:
		return fmt.Sprintf("%s: %s returned %s (%s) %s", e.desc, e.syscall, errnoCodes[syscall.Errno(e.errno)].code, syscall.Errno(e.errno).Error(), e.path)
	case e.path == "":
		return fmt.Sprintf("%s: %s, %s", e.code, e.desc, e.syscall)
	case e.dest != "":
		return fmt.Sprintf("%s: %s, %s '%s' -> '%s'", e.code, e.desc, e.syscall, e.path, e.dest)
	}
	return fmt.Sprintf("%s: %s, %s '%s'", e.code, e.desc, e.syscall, e.path)
}

// errnoCodes are libuv's names and descriptions, which Node's messages use
// (Go's own wording differs, e.g. "file exists").
var errnoCodes = map[syscall.Errno]struct{ code, desc string }{
	syscall.ENOENT: {"ENOENT", "no such file or directory"}, syscall.EEXIST: {"EEXIST", "file already exists"},
	syscall.EACCES: {"EACCES", "permission denied"}, syscall.EISDIR: {"EISDIR", "illegal operation on a directory"},
	syscall.ENOTDIR: {"ENOTDIR", "not a directory"}, syscall.ENOTEMPTY: {"ENOTEMPTY", "directory not empty"},
	syscall.EPERM: {"EPERM", "operation not permitted"}, syscall.EXDEV: {"EXDEV", "cross-device link not permitted"},
	syscall.EBUSY: {"EBUSY", "resource busy or locked"}, syscall.EINVAL: {"EINVAL", "invalid argument"},
	syscall.ELOOP: {"ELOOP", "too many symbolic links encountered"}, syscall.EMFILE: {"EMFILE", "too many open files"},
	syscall.ENAMETOOLONG: {"ENAMETOOLONG", "name too long"}, syscall.EROFS: {"EROFS", "read-only file system"},
	syscall.ENOSPC: {"ENOSPC", "no space left on device"},
}

// toNodeErr converts a Go error of an fs op into Node's error; sys is the
// op's syscall and path the caller's spelling of the path. An op that
// knows better returns a *nodeFSError itself (path left empty to take
// the caller's).
func toNodeErr(err error, sys, path string) error {
	if err == nil {
		return nil
	}
	var ne *nodeFSError
	if errors.As(err, &ne) {
		if ne.path == "" && !ne.noPath() {
			ne.path = path
		}
		return ne
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errnoError(errno, sys, path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return errnoError(syscall.ENOENT, sys, path)
	}
	if errors.Is(err, fs.ErrExist) {
		return errnoError(syscall.EEXIST, sys, path)
	}
	return err
}

// noPath reports the errors Node words without a path (a read of a
// directory fails in read(2), after open succeeded).
func (e *nodeFSError) noPath() bool { return e.syscall == "read" }

func errnoError(errno syscall.Errno, sys, path string) *nodeFSError {
	c, ok := errnoCodes[errno]
	if !ok {
		c.code, c.desc = "E"+strings.ToUpper(strings.ReplaceAll(errno.Error(), " ", "")), errno.Error()
	}
	return &nodeFSError{code: c.code, desc: c.desc, syscall: sys, path: path, errno: -int(errno)}
}

// opErr is a Go error with the syscall Node names for it.
func opErr(err error, sys string) error {
	if err == nil {
		return nil
	}
	var errno syscall.Errno
	switch {
	case errors.As(err, &errno):
	case errors.Is(err, fs.ErrNotExist):
		errno = syscall.ENOENT
	default:
		return err
	}
	return errnoError(errno, sys, "")
}

var fsOps = map[string]fsOp{
	"readFile": {"open", shapePath, func(a fsArgs) (any, error) {
		b, err := os.ReadFile(a.path)
		if errors.Is(err, syscall.EISDIR) {
			return nil, opErr(err, "read")
		}
		if err != nil {
			return nil, err
		}
		if a.enc != "" {
			return decodeString(b, a.enc), nil
		}
		return b, nil
	}},
	"writeFile": {"open", shapePathData, func(a fsArgs) (any, error) { return nil, os.WriteFile(a.path, a.data, 0o666) }},
	"appendFile": {"open", shapePathData, func(a fsArgs) (any, error) {
		f, err := os.OpenFile(a.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666)
		if err != nil {
			return nil, err
		}
		_, err = f.Write(a.data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return nil, err
	}},
	"mkdir": {"mkdir", shapePath, func(a fsArgs) (any, error) {
		if a.recursive {
			first := firstMissing(a.path)
			if err := os.MkdirAll(a.path, 0o777); err != nil {
				return nil, err
			}
			if first == "" {
				return nil, nil
			}
			return first, nil
		}
		return nil, os.Mkdir(a.path, 0o777)
	}},
	"mkdtemp": {"mkdtemp", shapePath, func(a fsArgs) (any, error) { return mkdtemp(a.path) }},
	"readdir": {"scandir", shapePath, func(a fsArgs) (any, error) {
		list, err := os.ReadDir(a.path)
		if err != nil {
			return nil, err
		}
		if a.withTypes {
			out := make([]dirent, len(list))
			for i, e := range list {
				out[i] = dirent{name: e.Name(), parent: a.path, mode: e.Type()}
			}
			return out, nil
		}
		names := make([]string, len(list))
		for i, e := range list {
			names[i] = e.Name()
		}
		return names, nil
	}},
	"stat": {"stat", shapePath, func(a fsArgs) (any, error) {
		fi, err := os.Stat(a.path)
		if err != nil {
			return nil, err
		}
		return statResult{fi}, nil
	}},
	"lstat": {"lstat", shapePath, func(a fsArgs) (any, error) {
		fi, err := os.Lstat(a.path)
		if err != nil {
			return nil, err
		}
		return statResult{fi}, nil
	}},
	"rm": {"rm", shapePath, func(a fsArgs) (any, error) {
		if _, err := os.Lstat(a.path); err != nil {
			if a.force && errors.Is(err, fs.ErrNotExist) {
				return nil, nil
			}
			return nil, opErr(err, "lstat")
		}
		if a.recursive {
			return nil, os.RemoveAll(a.path)
		}
		if fi, _ := os.Lstat(a.path); fi != nil && fi.IsDir() {
			return nil, &nodeFSError{code: "ERR_FS_EISDIR", desc: "Path is a directory", syscall: "rm", errno: int(syscall.EISDIR), system: true}
		}
		return nil, os.Remove(a.path)
	}},
	"rmdir": {"rmdir", shapePath, func(a fsArgs) (any, error) {
		if a.recursive {
			return nil, os.RemoveAll(a.path)
		}
		return nil, os.Remove(a.path)
	}},
	"unlink":   {"unlink", shapePath, func(a fsArgs) (any, error) { return nil, os.Remove(a.path) }},
	"rename":   {"rename", shapeTwoPaths, func(a fsArgs) (any, error) { return nil, os.Rename(a.path, a.path2) }},
	"copyFile": {"copyfile", shapeTwoPaths, func(a fsArgs) (any, error) { return nil, copyFile(a.path, a.path2) }},
	"cp": {"cp", shapeTwoPaths, func(a fsArgs) (any, error) {
		if fi, err := os.Stat(a.path); err == nil && fi.IsDir() {
			return nil, os.CopyFS(a.path2, os.DirFS(a.path))
		}
		return nil, copyFile(a.path, a.path2)
	}},
	"symlink":  {"symlink", shapeTwoPaths, func(a fsArgs) (any, error) { return nil, os.Symlink(a.raw, a.path2) }},
	"readlink": {"readlink", shapePath, func(a fsArgs) (any, error) { return os.Readlink(a.path) }},
	"realpath": {"realpath", shapePath, func(a fsArgs) (any, error) {
		// Node's realpath walks the path with lstat, so that is the
		// syscall its errors name.
		p, err := filepath.EvalSymlinks(a.path)
		if err != nil {
			return nil, opErr(err, "lstat")
		}
		return filepath.Abs(p)
	}},
	"access":   {"access", shapePath, func(a fsArgs) (any, error) { _, err := os.Stat(a.path); return nil, err }},
	"chmod":    {"chmod", shapePath, func(a fsArgs) (any, error) { return nil, os.Chmod(a.path, a.mode) }},
	"truncate": {"open", shapePath, func(a fsArgs) (any, error) { return nil, os.Truncate(a.path, 0) }},
	"utimes": {"utime", shapePath, func(a fsArgs) (any, error) {
		now := time.Now()
		return nil, os.Chtimes(a.path, now, now)
	}},
}

// mkdtemp creates prefix+XXXXXX as Node does: six random letters and
// digits appended to the prefix as given (no separator added).
func mkdtemp(prefix string) (string, error) {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for range 100 {
		var b [6]byte
		_, _ = rand.Read(b[:])
		for i := range b {
			b[i] = chars[int(b[i])%len(chars)]
		}
		p := prefix + string(b[:])
		err := os.Mkdir(p, 0o700)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", &nodeFSError{code: "EEXIST", desc: "file already exists", syscall: "mkdtemp", errno: -int(syscall.EEXIST)}
}

// firstMissing is the first directory mkdir -p will create ("" if none),
// the value Node's recursive mkdir returns.
func firstMissing(p string) string {
	first := ""
	for cur := filepath.Clean(p); ; cur = filepath.Dir(cur) {
		if _, err := os.Stat(cur); err == nil {
			return first
		}
		first = cur
		if filepath.Dir(cur) == cur {
			return first
		}
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// decodeString turns file bytes into a string in one of Node's encodings.
// goja_nodejs knows only hex, base64 and UTF-8, so the byte-per-character
// encodings are done here.
func decodeString(b []byte, enc string) string {
	switch strings.ToLower(enc) {
	case "base64", "hex":
		return buffer.StringCodecByName(strings.ToLower(enc)).Encode(b)
	case "base64url":
		return base64.RawURLEncoding.EncodeToString(b)
	case "latin1", "binary":
		rs := make([]rune, len(b))
		for i, c := range b {
			rs[i] = rune(c)
		}
		return string(rs)
	case "ascii":
		rs := make([]rune, len(b))
		for i, c := range b {
			rs[i] = rune(c & 0x7f)
		}
		return string(rs)
	case "utf16le", "utf-16le", "ucs2", "ucs-2":
		units := make([]uint16, len(b)/2)
		for i := range units {
			units[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return string(utf16.Decode(units))
	default:
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
}

// pathArg accepts a string, a file: URL object or a Buffer.
func (r *Runtime) pathArg(v goja.Value) string {
	if o, ok := v.(*goja.Object); ok {
		if href := o.Get("href"); href != nil && !goja.IsUndefined(href) {
			return fileURLToPath(href.String())
		}
		return string(bytesOf(r.vm, v))
	}
	p := v.String()
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.cwd(), p)
	}
	return p
}

func (r *Runtime) cwd() string {
	if r.opts.Cwd != "" {
		return r.opts.Cwd
	}
	wd, _ := os.Getwd()
	return wd
}

// parseFSArgs converts the JS arguments of op, minus a trailing callback.
func (r *Runtime) parseFSArgs(op fsOp, args []goja.Value) fsArgs {
	arg := func(i int) goja.Value {
		if i < len(args) {
			return args[i]
		}
		return goja.Undefined()
	}
	var a fsArgs
	a.path, a.raw = r.pathArg(arg(0)), rawPath(arg(0), a.path)
	optIdx := 1
	switch op.shape {
	case shapePathData:
		a.data = bytesOf(r.vm, arg(1))
		optIdx = 2
	case shapeTwoPaths:
		a.path2 = r.pathArg(arg(1))
		a.raw2 = rawPath(arg(1), a.path2)
		optIdx = 2
	}
	opt := arg(optIdx)
	switch o := opt.(type) {
	case *goja.Object:
		get := func(k string) goja.Value { return o.Get(k) }
		if v := get("encoding"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
			a.enc = v.String()
		}
		a.recursive = get("recursive") != nil && get("recursive").ToBoolean()
		a.force = get("force") != nil && get("force").ToBoolean()
		a.withTypes = get("withFileTypes") != nil && get("withFileTypes").ToBoolean()
		if v := get("mode"); v != nil && !goja.IsUndefined(v) {
			a.mode = os.FileMode(v.ToInteger())
		}
	default:
		if opt != nil && !goja.IsUndefined(opt) && !goja.IsNull(opt) {
			if op.syscall == "chmod" {
				a.mode = os.FileMode(opt.ToInteger())
			} else {
				a.enc = opt.String()
			}
		}
	}
	return a
}

// fsResult converts an op's Go result to JS on the loop.
func (r *Runtime) fsResult(v any) goja.Value {
	vm := r.vm
	switch x := v.(type) {
	case nil:
		return goja.Undefined()
	case []byte:
		return buffer.WrapBytes(vm, x)
	case statResult:
		return r.statsObject(x.fi)
	case []dirent:
		out := make([]any, len(x))
		for i, d := range x {
			out[i] = r.direntObject(d)
		}
		return vm.NewArray(out...)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return vm.NewArray(out...)
	default:
		return vm.ToValue(x)
	}
}

// rawPath is the caller's spelling of a path argument: the string itself,
// or the resolved path for a URL or Buffer.
func rawPath(v goja.Value, resolved string) string {
	if s, ok := v.Export().(string); ok {
		return s
	}
	return resolved
}

// nodeErr is toNodeErr with the paths as the caller wrote them; the ops
// with two paths name both, as Node's messages do.
func (a fsArgs) nodeErr(err error, sys string) error {
	err = toNodeErr(err, sys, a.raw)
	var ne *nodeFSError
	if errors.As(err, &ne) && a.raw2 != "" && !ne.system && ne.dest == "" && ne.path == a.raw {
		switch ne.syscall {
		case "rename", "copyfile", "symlink", "link", "cp":
			ne.dest = a.raw2
		}
	}
	return err
}

// jsFSError builds Node's error object: a plain Error whose own keys are
// errno, code, syscall, path and dest, in that order.
func (r *Runtime) jsFSError(err error) *goja.Object {
	var ne *nodeFSError
	if !errors.As(err, &ne) {
		return r.vm.NewGoError(err)
	}
	e, jerr := r.vm.New(r.vm.Get("Error"), r.vm.ToValue(ne.Error()))
	if jerr != nil {
		return r.vm.NewGoError(err)
	}
	if ne.system {
		// Rare enough that compiling the class here costs nothing at start.
		if cls, cerr := r.vm.RunString(`(class SystemError extends Error {})`); cerr == nil {
			if p, ok := cls.ToObject(r.vm).Get("prototype").(*goja.Object); ok {
				_ = e.SetPrototype(p)
			}
		}
		_ = e.Set("code", ne.code)
		info := r.vm.NewObject()
		_ = info.Set("errno", ne.errno)
		_ = info.Set("code", errnoCodes[syscall.Errno(ne.errno)].code)
		_ = info.Set("message", syscall.Errno(ne.errno).Error())
		_ = info.Set("path", ne.path)
		_ = info.Set("syscall", ne.syscall)
		_ = e.Set("info", info)
		_ = e.Set("errno", ne.errno)
		_ = e.Set("syscall", ne.syscall)
		_ = e.Set("path", ne.path)
		return e
	}
	_ = e.Set("errno", ne.errno)
	_ = e.Set("code", ne.code)
	_ = e.Set("syscall", ne.syscall)
	if ne.path != "" {
		_ = e.Set("path", ne.path)
	}
	if ne.dest != "" {
		_ = e.Set("dest", ne.dest)
	}
	return e
}

// modeKinds adds the is* methods, not enumerable, so that Object.keys and
// JSON.stringify of a Stats or Dirent show Node's fields only.
func modeKinds(vm *goja.Runtime, o *goja.Object, m fs.FileMode) {
	def := func(name string, v bool) {
		_ = o.DefineDataProperty(name, vm.ToValue(func() bool { return v }), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	def("isFile", m.IsRegular())
	def("isDirectory", m.IsDir())
	def("isSymbolicLink", m&fs.ModeSymlink != 0)
	def("isFIFO", m&fs.ModeNamedPipe != 0)
	def("isSocket", m&fs.ModeSocket != 0)
	def("isBlockDevice", m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0)
	def("isCharacterDevice", m&fs.ModeCharDevice != 0)
}

// classProto is the prototype of fs.Stats or fs.Dirent, so that instanceof
// and constructor.name hold as in Node; nil before fs finished loading.
func (r *Runtime) classProto(name string) *goja.Object {
	mod, ok := r.loaded["fs"].(*goja.Object)
	if !ok {
		return nil
	}
	if c, ok := mod.Get(name).(*goja.Object); ok {
		if p, ok := c.Get("prototype").(*goja.Object); ok {
			return p
		}
	}
	return nil
}

// statsObject has Node 22's own fields in its order; the Date fields are
// getters that are not enumerable, as there.
func (r *Runtime) statsObject(fi os.FileInfo) goja.Value {
	vm := r.vm
	o := vm.NewObject()
	if p := r.classProto("Stats"); p != nil {
		_ = o.SetPrototype(p)
	}
	ms := float64(fi.ModTime().UnixNano()) / 1e6
	mode := uint32(fi.Mode().Perm()) | unixType(fi.Mode())
	st, _ := fi.Sys().(*syscall.Stat_t)
	if st != nil {
		mode = uint32(st.Mode)
		_ = o.Set("dev", st.Dev)
		_ = o.Set("mode", mode)
		_ = o.Set("nlink", st.Nlink)
		_ = o.Set("uid", st.Uid)
		_ = o.Set("gid", st.Gid)
		_ = o.Set("rdev", st.Rdev)
		_ = o.Set("blksize", st.Blksize)
		_ = o.Set("ino", st.Ino)
		_ = o.Set("size", fi.Size())
		_ = o.Set("blocks", st.Blocks)
	} else {
		_ = o.Set("mode", mode)
		_ = o.Set("size", fi.Size())
	}
	for _, k := range []string{"atimeMs", "mtimeMs", "ctimeMs", "birthtimeMs"} {
		_ = o.Set(k, ms)
	}
	date := vm.ToValue(func() goja.Value {
		d, _ := vm.New(vm.Get("Date"), vm.ToValue(ms))
		return d
	})
	for _, k := range []string{"atime", "mtime", "ctime", "birthtime"} {
		_ = o.DefineAccessorProperty(k, date, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	modeKinds(vm, o, fi.Mode())
	return o
}

func unixType(m fs.FileMode) uint32 {
	switch {
	case m.IsDir():
		return syscall.S_IFDIR
	case m&fs.ModeSymlink != 0:
		return syscall.S_IFLNK
	default:
		return syscall.S_IFREG
	}
}

func (r *Runtime) direntObject(d dirent) goja.Value {
	o := r.vm.NewObject()
	if p := r.classProto("Dirent"); p != nil {
		_ = o.SetPrototype(p)
	}
	_ = o.Set("name", d.name)
	_ = o.Set("parentPath", d.parent)
	_ = o.Set("path", d.parent)
	modeKinds(r.vm, o, d.mode)
	return o
}

// loadFS builds fs: every op as xSync, x(…, callback) and promises.x. The
// callback and promise forms run the op on a goroutine and settle on the
// loop through a reserved callback.
func loadFS(r *Runtime) (goja.Value, error) {
	vm := r.vm
	mod := vm.NewObject()
	promises := vm.NewObject()
	for name, op := range fsOps {
		_ = mod.Set(name+"Sync", func(call goja.FunctionCall) goja.Value {
			a := r.parseFSArgs(op, call.Arguments)
			v, err := op.run(a)
			if err != nil {
				panic(r.jsFSError(a.nodeErr(err, op.syscall)))
			}
			return r.fsResult(v)
		})
		_ = mod.Set(name, func(call goja.FunctionCall) goja.Value {
			args := call.Arguments
			var cb goja.Callable
			if n := len(args); n > 0 {
				if f, ok := goja.AssertFunction(args[n-1]); ok {
					cb, args = f, args[:n-1]
				}
			}
			a := r.parseFSArgs(op, args)
			done := r.loop.Reserve()
			go func() {
				v, err := op.run(a)
				done(func(vm *goja.Runtime) {
					if cb == nil {
						return
					}
					if err != nil {
						_, _ = cb(goja.Undefined(), r.jsFSError(a.nodeErr(err, op.syscall)))
						return
					}
					_, _ = cb(goja.Undefined(), goja.Null(), r.fsResult(v))
				})
			}()
			return goja.Undefined()
		})
		_ = promises.Set(name, func(call goja.FunctionCall) goja.Value {
			a := r.parseFSArgs(op, call.Arguments)
			p, resolve, reject := vm.NewPromise()
			done := r.loop.Reserve()
			go func() {
				v, err := op.run(a)
				done(func(*goja.Runtime) {
					if err != nil {
						_ = reject(r.jsFSError(a.nodeErr(err, op.syscall)))
						return
					}
					_ = resolve(r.fsResult(v))
				})
			}()
			return vm.ToValue(p)
		})
	}
	// realpath.native is the same walk for our purposes.
	for _, o := range []*goja.Object{mod, promises} {
		for _, n := range []string{"realpathSync", "realpath"} {
			if f, ok := o.Get(n).(*goja.Object); ok {
				_ = f.Set("native", f)
			}
		}
	}
	_ = mod.Set("existsSync", func(v goja.Value) bool {
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) || v.String() == "" {
			return false
		}
		_, err := os.Stat(r.pathArg(v))
		return err == nil
	})
	_ = mod.Set("exists", func(v goja.Value, cb goja.Callable) {
		_, err := os.Stat(r.pathArg(v))
		ok := err == nil
		done := r.loop.Reserve()
		done(func(*goja.Runtime) { _, _ = cb(goja.Undefined(), vm.ToValue(ok)) })
	})
	constants := map[string]any{"F_OK": 0, "R_OK": 4, "W_OK": 2, "X_OK": 1, "O_RDONLY": 0, "O_WRONLY": 1, "O_RDWR": 2,
		"O_CREAT": 64, "O_EXCL": 128, "O_TRUNC": 512, "O_APPEND": 1024, "S_IFMT": 61440, "S_IFREG": 32768, "S_IFDIR": 16384,
		"S_IFLNK": 40960, "COPYFILE_EXCL": 1}
	_ = mod.Set("constants", constants)
	_ = promises.Set("constants", constants)
	for k, v := range constants {
		_ = mod.Set(k, v)
	}
	_ = mod.Set("promises", promises)
	// Streams and watchers are thin JS layers over the ops above.
	src, err := hostSource("fs_extra")
	if err != nil {
		return nil, err
	}
	if _, err := r.evalCommonJS("node:fs/extra", wrapFSExtra, src, mod); err != nil {
		return nil, err
	}
	return mod, nil
}
