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
	"strconv"
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
	modeSet   bool
	prefix    string
	// fd is the open file a readFile, writeFile or appendFile was given
	// instead of a path; fdErr is EBADF when that descriptor is not open.
	fd    *fdFile
	fdErr error
	// flags are the open(2) flags of a flag option (flagSet marks one).
	flags   int
	flagSet bool
	// atime and mtime are utimes' and lutimes' times, uid and gid
	// chown's ids, length truncate's.
	atime, mtime time.Time
	uid, gid     int
	length       int64
}

// fsOp is one fs operation on Go values only.
type fsOp struct {
	syscall string
	shape   int // how JS arguments map to fsArgs
	run     func(a fsArgs) (any, error)
}

const (
	shapePath      = iota // (path, options|encoding)
	shapePathData         // (path, data, options|encoding)
	shapeTwoPaths         // (src, dst, options)
	shapePathLen          // (path, len)
	shapePathTimes        // (path, atime, mtime)
	shapePathIDs          // (path, uid, gid)
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
	syscall.ENOSPC: {"ENOSPC", "no space left on device"}, syscall.EBADF: {"EBADF", "bad file descriptor"},
	syscall.ESPIPE: {"ESPIPE", "invalid seek"}, syscall.EAGAIN: {"EAGAIN", "resource temporarily unavailable"},
	syscall.EFBIG: {"EFBIG", "file too large"}, syscall.ENOSYS: {"ENOSYS", "function not implemented"},
	syscall.ENOTSUP: {"ENOTSUP", "operation not supported on socket"},
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
		b, err := readAll(a)
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
	"writeFile":  {"open", shapePathData, func(a fsArgs) (any, error) { return nil, writeAll(a, "w") }},
	"appendFile": {"open", shapePathData, func(a fsArgs) (any, error) { return nil, writeAll(a, "a") }},
	"mkdir": {"mkdir", shapePath, func(a fsArgs) (any, error) {
		perm := os.FileMode(0o777)
		if a.modeSet {
			perm = a.mode
		}
		if a.recursive {
			first := firstMissing(a.path)
			if err := os.MkdirAll(a.path, perm); err != nil {
				return nil, err
			}
			if first == "" {
				return nil, nil
			}
			return first, nil
		}
		return nil, os.Mkdir(a.path, perm)
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
	"access":   {"access", shapePath, func(a fsArgs) (any, error) { return nil, access(a.path, uint32(a.mode)) }},
	"chmod":    {"chmod", shapePath, func(a fsArgs) (any, error) { return nil, os.Chmod(a.path, a.mode) }},
	"truncate": {"open", shapePathLen, func(a fsArgs) (any, error) { return nil, os.Truncate(a.path, a.length) }},
	"utimes":   {"utime", shapePathTimes, func(a fsArgs) (any, error) { return nil, os.Chtimes(a.path, a.atime, a.mtime) }},
	"lutimes":  {"lutime", shapePathTimes, func(a fsArgs) (any, error) { return nil, lutimes(a.path, a.atime, a.mtime) }},
	"link":     {"link", shapeTwoPaths, func(a fsArgs) (any, error) { return nil, os.Link(a.path, a.path2) }},
	"chown":    {"chown", shapePathIDs, func(a fsArgs) (any, error) { return nil, os.Chown(a.path, a.uid, a.gid) }},
	"lchown":   {"lchown", shapePathIDs, func(a fsArgs) (any, error) { return nil, os.Lchown(a.path, a.uid, a.gid) }},
	"statfs":   {"statfs", shapePath, func(a fsArgs) (any, error) { return statfs(a.path) }},
}

// readAll is readFile's work: the rest of an open descriptor, or the
// whole file opened with the flag option (default "r").
func readAll(a fsArgs) ([]byte, error) {
	if a.fdErr != nil {
		return nil, a.fdErr
	}
	if a.fd != nil {
		b, err := io.ReadAll(a.fd.f)
		return b, fdErr(err, "read")
	}
	flags := os.O_RDONLY
	if a.flagSet {
		flags = a.flags
	}
	f, err := os.OpenFile(a.path, flags, 0o666)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// writeAll is writeFile's and appendFile's work (def is their default
// flag): at the current position of an open descriptor, or into the file
// opened with the flag and mode options.
func writeAll(a fsArgs, def string) error {
	if a.fdErr != nil {
		return errnoError(syscall.EBADF, "write", "")
	}
	if a.fd != nil {
		_, err := writeAt(a.fd, a.data, -1)
		return fdErr(err, "write")
	}
	flags := nodeFlags[def]
	if a.flagSet {
		flags = a.flags
	}
	perm := os.FileMode(0o666)
	if a.modeSet {
		perm = a.mode
	}
	f, err := os.OpenFile(a.path, flags, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(a.data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// fsConstants are Node 22's fs.constants on Linux, in its order. open
// translates the O_ flags for systems whose values differ (openFlags).
var fsConstants = []struct {
	name  string
	value int
}{
	{"UV_FS_SYMLINK_DIR", 1}, {"UV_FS_SYMLINK_JUNCTION", 2}, {"O_RDONLY", 0}, {"O_WRONLY", 1}, {"O_RDWR", 2},
	{"UV_DIRENT_UNKNOWN", 0}, {"UV_DIRENT_FILE", 1}, {"UV_DIRENT_DIR", 2}, {"UV_DIRENT_LINK", 3}, {"UV_DIRENT_FIFO", 4},
	{"UV_DIRENT_SOCKET", 5}, {"UV_DIRENT_CHAR", 6}, {"UV_DIRENT_BLOCK", 7}, {"S_IFMT", 61440}, {"S_IFREG", 32768},
	{"S_IFDIR", 16384}, {"S_IFCHR", 8192}, {"S_IFBLK", 24576}, {"S_IFIFO", 4096}, {"S_IFLNK", 40960}, {"S_IFSOCK", 49152},
	{"O_CREAT", 64}, {"O_EXCL", 128}, {"UV_FS_O_FILEMAP", 0}, {"O_NOCTTY", 256}, {"O_TRUNC", 512}, {"O_APPEND", 1024},
	{"O_DIRECTORY", 65536}, {"O_NOATIME", 262144}, {"O_NOFOLLOW", 131072}, {"O_SYNC", 1052672}, {"O_DSYNC", 4096},
	{"O_DIRECT", 16384}, {"O_NONBLOCK", 2048}, {"S_IRWXU", 448}, {"S_IRUSR", 256}, {"S_IWUSR", 128}, {"S_IXUSR", 64},
	{"S_IRWXG", 56}, {"S_IRGRP", 32}, {"S_IWGRP", 16}, {"S_IXGRP", 8}, {"S_IRWXO", 7}, {"S_IROTH", 4}, {"S_IWOTH", 2},
	{"S_IXOTH", 1}, {"F_OK", 0}, {"R_OK", 4}, {"W_OK", 2}, {"X_OK", 1}, {"UV_FS_COPYFILE_EXCL", 1}, {"COPYFILE_EXCL", 1},
	{"UV_FS_COPYFILE_FICLONE", 2}, {"COPYFILE_FICLONE", 2}, {"UV_FS_COPYFILE_FICLONE_FORCE", 4}, {"COPYFILE_FICLONE_FORCE", 4},
}

// timeArg reads a time as Node's utimes takes it: seconds as a number or
// numeric string, or a Date.
func (r *Runtime) timeArg(name string, v goja.Value) time.Time {
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Date" {
		if f, ok := goja.AssertFunction(o.Get("getTime")); ok {
			ms, _ := f(o)
			return time.UnixMilli(ms.ToInteger())
		}
	}
	var secs float64
	switch x := v.Export().(type) {
	case int64:
		secs = float64(x)
	case float64:
		secs = x
	case string:
		f, err := strconv.ParseFloat(x, 64)
		if err != nil {
			panic(r.argTypeError(name, "of type number or an instance of Date", v))
		}
		secs = f
	default:
		panic(r.argTypeError(name, "of type number or an instance of Date", v))
	}
	if secs != secs || secs < 0 {
		// Node stores NaN, Infinity and negative times as now.
		return time.Now()
	}
	return time.Unix(0, int64(secs*1e9))
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
	fdOps := (op.shape == shapePath || op.shape == shapePathData) && op.syscall == "open"
	if fdOps && isNumber(arg(0)) {
		a.fd, a.fdErr = r.fdOf(arg(0), "read")
	} else if fh, ok := arg(0).(*goja.Object); fdOps && ok && isNumber(fh.Get("fd")) && fh.Get("href") == nil {
		// A FileHandle (fs.promises.readFile(handle)).
		a.fd, a.fdErr = r.fdOf(fh.Get("fd"), "read")
	} else {
		a.path, a.raw = r.pathArg(arg(0)), rawPath(arg(0), a.path)
	}
	optIdx := 1
	var dataStr string
	var dataIsStr bool
	switch op.shape {
	case shapePathLen:
		if isNumber(arg(1)) {
			a.length = max(arg(1).ToInteger(), 0)
		}
		return a
	case shapePathTimes:
		a.atime, a.mtime = r.timeArg("atime", arg(1)), r.timeArg("mtime", arg(2))
		return a
	case shapePathIDs:
		a.uid, a.gid = int(arg(1).ToInteger()), int(arg(2).ToInteger())
		return a
	case shapePathData:
		a.data = bytesOf(r.vm, arg(1))
		optIdx = 2
		dataStr, dataIsStr = arg(1).Export().(string)
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
		if v := get("mode"); !isNullish(v) {
			a.mode, a.modeSet = r.modeArg(v, 0), true
		}
		if v := get("flag"); !isNullish(v) {
			a.flags, a.flagSet = r.openFlags(v, "r"), true
		}
	default:
		if !isNullish(opt) {
			switch op.syscall {
			case "chmod", "mkdir":
				a.mode, a.modeSet = r.modeArg(opt, 0), true
			case "access":
				a.mode, a.modeSet = os.FileMode(opt.ToInteger()), true
			default:
				a.enc = opt.String()
			}
		}
	}
	// A string is written in the encoding option ("hex", "base64" …).
	if dataIsStr && a.enc != "" {
		a.data = encodeString(dataStr, strings.ToLower(a.enc))
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
	case statfsResult:
		o := vm.NewObject()
		if p := r.classProto("StatFs"); p != nil {
			_ = o.SetPrototype(p)
		}
		for _, kv := range []struct {
			k string
			v int64
		}{{"type", x.typ}, {"bsize", x.bsize}, {"blocks", x.blocks}, {"bfree", x.bfree}, {"bavail", x.bavail}, {"files", x.files}, {"ffree", x.ffree}} {
			_ = o.Set(kv.k, kv.v)
		}
		return o
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
	mode := uint32(fi.Mode().Perm()) | unixType(fi.Mode())
	if !setUnixStat(o, fi) {
		_ = o.Set("mode", mode)
		_ = o.Set("size", fi.Size())
	}
	at, mt, ct, bt := statTimesMs(fi)
	times := []float64{at, mt, ct, bt}
	for i, k := range []string{"atimeMs", "mtimeMs", "ctimeMs", "birthtimeMs"} {
		_ = o.Set(k, times[i])
	}
	for i, k := range []string{"atime", "mtime", "ctime", "birthtime"} {
		t := times[i]
		date := vm.ToValue(func() goja.Value {
			d, _ := vm.New(vm.Get("Date"), vm.ToValue(t))
			return d
		})
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
			wrap := r.asyncWrap()
			done := r.loop.Reserve()
			go func() {
				v, err := op.run(a)
				done(func(vm *goja.Runtime) {
					if cb == nil {
						return
					}
					wrap(func() {
						if err != nil {
							_, _ = cb(goja.Undefined(), r.jsFSError(a.nodeErr(err, op.syscall)))
							return
						}
						_, _ = cb(goja.Undefined(), goja.Null(), r.fsResult(v))
					})
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
	r.installFdOps(mod)
	constants := vm.NewObject()
	for _, c := range fsConstants {
		_ = constants.Set(c.name, c.value)
	}
	_ = mod.Set("constants", constants)
	_ = promises.Set("constants", constants)
	// Node still exports the access modes at the top level (deprecated).
	for _, k := range []string{"F_OK", "R_OK", "W_OK", "X_OK"} {
		_ = mod.Set(k, constants.Get(k))
	}
	_ = mod.Set("promises", promises)
	// fs_extra.js takes __loadLazy (and deletes it): it evaluates
	// fs_lazy.js with the Go primitives only that part uses.
	_ = mod.Set("__loadLazy", func(goja.FunctionCall) goja.Value {
		src, err := hostSource("fs_lazy")
		if err != nil {
			panic(vm.NewGoError(err))
		}
		host := vm.NewObject()
		_ = host.Set("fs", mod)
		_ = host.Set("watch", r.fsWatch)
		_ = host.Set("glob", r.fsGlob)
		v, err := r.evalCommonJS("node:fs/lazy", wrapModule, src, host)
		if err != nil {
			panic(err)
		}
		return v
	})
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
