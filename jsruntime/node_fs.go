package jsruntime

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
)

// fsArgs are the JS arguments of an fs call, converted to Go on the loop
// so that the operation itself can run on any goroutine.
type fsArgs struct {
	path, path2 string
	data        []byte
	enc         string // "" returns bytes (a Buffer)
	recursive   bool
	force       bool
	withTypes   bool
	mode        os.FileMode
	prefix      string
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
	errno                     int
}

func (e *nodeFSError) Error() string {
	return fmt.Sprintf("%s: %s, %s '%s'", e.code, e.desc, e.syscall, e.path)
}

var errnoCodes = map[syscall.Errno]string{
	syscall.ENOENT: "ENOENT", syscall.EEXIST: "EEXIST", syscall.EACCES: "EACCES", syscall.EISDIR: "EISDIR",
	syscall.ENOTDIR: "ENOTDIR", syscall.ENOTEMPTY: "ENOTEMPTY", syscall.EPERM: "EPERM", syscall.EXDEV: "EXDEV",
	syscall.EBUSY: "EBUSY", syscall.EINVAL: "EINVAL", syscall.ELOOP: "ELOOP", syscall.EMFILE: "EMFILE",
}

func toNodeErr(err error, sys, path string) error {
	if err == nil {
		return nil
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		code, ok := errnoCodes[errno]
		if !ok {
			code = "E" + strings.ToUpper(strings.ReplaceAll(errno.Error(), " ", ""))
		}
		return &nodeFSError{code: code, desc: errno.Error(), syscall: sys, path: path, errno: -int(errno)}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return &nodeFSError{code: "ENOENT", desc: "no such file or directory", syscall: sys, path: path, errno: -2}
	}
	if errors.Is(err, fs.ErrExist) {
		return &nodeFSError{code: "EEXIST", desc: "file already exists", syscall: sys, path: path, errno: -17}
	}
	return err
}

var fsOps = map[string]fsOp{
	"readFile": {"open", shapePath, func(a fsArgs) (any, error) {
		b, err := os.ReadFile(a.path)
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
	"mkdtemp": {"mkdtemp", shapePath, func(a fsArgs) (any, error) {
		return os.MkdirTemp(filepath.Dir(a.path+"x"), filepath.Base(a.path + "x")[:len(filepath.Base(a.path+"x"))-1]+"*")
	}},
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
			return nil, err
		}
		if a.recursive {
			return nil, os.RemoveAll(a.path)
		}
		if fi, _ := os.Lstat(a.path); fi != nil && fi.IsDir() {
			return nil, &nodeFSError{code: "ERR_FS_EISDIR", desc: "Path is a directory", syscall: "rm", path: a.path, errno: -21}
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
	"symlink":  {"symlink", shapeTwoPaths, func(a fsArgs) (any, error) { return nil, os.Symlink(a.path, a.path2) }},
	"readlink": {"readlink", shapePath, func(a fsArgs) (any, error) { return os.Readlink(a.path) }},
	"realpath": {"realpath", shapePath, func(a fsArgs) (any, error) {
		p, err := filepath.EvalSymlinks(a.path)
		if err != nil {
			return nil, err
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

func decodeString(b []byte, enc string) string {
	switch strings.ToLower(enc) {
	case "base64", "hex", "base64url", "latin1", "binary", "ascii":
		return buffer.StringCodecByName(strings.ToLower(enc)).Encode(b)
	default:
		return string(b)
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
	a.path = r.pathArg(arg(0))
	optIdx := 1
	switch op.shape {
	case shapePathData:
		a.data = bytesOf(r.vm, arg(1))
		optIdx = 2
	case shapeTwoPaths:
		a.path2 = r.pathArg(arg(1))
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

func (r *Runtime) jsFSError(err error) *goja.Object {
	var ne *nodeFSError
	if errors.As(err, &ne) {
		e := r.nodeError(ne.code, ne.Error())
		_ = e.Set("errno", ne.errno)
		_ = e.Set("syscall", ne.syscall)
		_ = e.Set("path", ne.path)
		return e
	}
	return r.vm.NewGoError(err)
}

func modeKinds(o *goja.Object, m fs.FileMode) {
	_ = o.Set("isFile", func() bool { return m.IsRegular() })
	_ = o.Set("isDirectory", func() bool { return m.IsDir() })
	_ = o.Set("isSymbolicLink", func() bool { return m&fs.ModeSymlink != 0 })
	_ = o.Set("isFIFO", func() bool { return m&fs.ModeNamedPipe != 0 })
	_ = o.Set("isSocket", func() bool { return m&fs.ModeSocket != 0 })
	_ = o.Set("isBlockDevice", func() bool { return m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0 })
	_ = o.Set("isCharacterDevice", func() bool { return m&fs.ModeCharDevice != 0 })
}

func (r *Runtime) statsObject(fi os.FileInfo) goja.Value {
	vm := r.vm
	o := vm.NewObject()
	mt := fi.ModTime()
	ms := float64(mt.UnixNano()) / 1e6
	date := func() goja.Value {
		d, _ := vm.New(vm.Get("Date"), vm.ToValue(ms))
		return d
	}
	_ = o.Set("size", fi.Size())
	_ = o.Set("mode", uint32(fi.Mode().Perm())|unixType(fi.Mode()))
	_ = o.Set("mtimeMs", ms)
	_ = o.Set("ctimeMs", ms)
	_ = o.Set("atimeMs", ms)
	_ = o.Set("birthtimeMs", ms)
	_ = o.Set("mtime", date())
	_ = o.Set("ctime", date())
	_ = o.Set("atime", date())
	_ = o.Set("birthtime", date())
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		_ = o.Set("ino", st.Ino)
		_ = o.Set("dev", st.Dev)
		_ = o.Set("nlink", st.Nlink)
		_ = o.Set("uid", st.Uid)
		_ = o.Set("gid", st.Gid)
	}
	modeKinds(o, fi.Mode())
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
	_ = o.Set("name", d.name)
	_ = o.Set("parentPath", d.parent)
	_ = o.Set("path", d.parent)
	modeKinds(o, d.mode)
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
				panic(r.jsFSError(toNodeErr(err, op.syscall, a.path)))
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
						_, _ = cb(goja.Undefined(), r.jsFSError(toNodeErr(err, op.syscall, a.path)))
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
						_ = reject(r.jsFSError(toNodeErr(err, op.syscall, a.path)))
						return
					}
					_ = resolve(r.fsResult(v))
				})
			}()
			return vm.ToValue(p)
		})
	}
	_ = mod.Set("existsSync", func(v goja.Value) bool {
		if v == nil || goja.IsUndefined(v) {
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
