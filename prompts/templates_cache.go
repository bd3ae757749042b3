package prompts

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// fileStamp identifies one version of a file: a rewrite changes the
// modification or change time, a replacement the inode.
type fileStamp struct {
	Size  int64
	Ino   uint64
	Mtime int64
	Ctime int64
}

type cachedFile struct {
	stamp fileStamp
	// prefix: data holds only the frontmatter, which is all a skill needs
	// at start-up (its body is read when the skill is used).
	prefix bool
	data   []byte
}

// Limits that keep the index small: big files are read every time, and a
// file modified just before a run is not kept (its next change could fall
// in the same time-stamp tick and leave the stamp as it was, the "racy"
// case git also guards). Once the recorded mtime is old, any later write
// moves it; a write that restores an old mtime still moves the ctime.
const (
	maxCachedFile = 64 << 10
	racyWindow    = int64(2 * time.Second)
	cacheMagic    = "pi-go resource cache 1\n"
)

// FileCache remembers the contents of skill and template files between
// runs, keyed by path and (size, inode, mtime, ctime), in one index file
// under the agent directory. A warm start then costs one stat per file
// instead of an open, a read and a close. A nil *FileCache reads files
// directly. Methods are safe for concurrent use.
type FileCache struct {
	path  string
	start int64
	// old is the index read at open; used marks the entries this run
	// looked at and found current, so Save knows whether anything changed
	// without building a second map of thousands of entries.
	old   index
	used  []atomic.Bool
	nUsed atomic.Int64
	mu    sync.Mutex
	// fresh holds what this run read from disk and may keep, in the
	// order read (a list: a cold start reads thousands of files, and Save
	// sorts once).
	fresh   []indexRecord
	changed bool
	// dirs holds directory descriptors (by path) that stats run relative
	// to: resolving a short name under an open directory costs much less
	// than walking the whole path from / again for each of a thousand
	// files. They are closed by Save.
	dirs sync.Map
}

// OpenFileCache loads the index at path. An empty path, a platform without
// the needed file identity, or a missing or unreadable index give a cache
// that starts empty (nil for the first two).
func OpenFileCache(path string) *FileCache {
	if path == "" || !cacheSupported {
		return nil
	}
	c := &FileCache{path: path, start: time.Now().UnixNano()}
	if data, err := readIndexFile(path); err == nil {
		c.old = decodeIndex(data)
	}
	c.used = make([]atomic.Bool, c.old.len())
	return c
}

// Reserve says that up to n files are about to be read, so that on a cold
// start (an index that holds fewer records than that) the list of what
// was read is sized once instead of regrown a read at a time.
func (c *FileCache) Reserve(n int) {
	if c == nil {
		return
	}
	n -= c.old.len()
	if n <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fresh = slices.Grow(c.fresh, n)
}

// ReadResource returns the whole file.
func (c *FileCache) ReadResource(path string) ([]byte, error) {
	return c.read(filepath.Dir(path), path, false, false)
}

// ReadFrontmatter returns a prefix of the file that holds its whole
// frontmatter (ParseFrontmatter gives the same map for it as for the whole
// file). noFollow refuses a symbolic link or other non-regular file, as
// ReadPlainFile does.
func (c *FileCache) ReadFrontmatter(path string, noFollow bool) ([]byte, error) {
	return c.read(filepath.Dir(path), path, noFollow, true)
}

// ReadFrontmatterIn is ReadFrontmatter for a path inside root: the stat
// that validates a cached entry resolves the rest of the path from an open
// descriptor of root, shared by every file read under it.
func (c *FileCache) ReadFrontmatterIn(root, path string, noFollow bool) ([]byte, error) {
	return c.read(root, path, noFollow, true)
}

func (c *FileCache) read(root, path string, noFollow, prefix bool) ([]byte, error) {
	if c == nil {
		return readFileFast(path, noFollow, prefix)
	}
	st, err := c.stat(root, path, noFollow)
	if err != nil {
		if noFollow {
			return nil, err
		}
		// Let the read report the error as it would without a cache.
		return readFileFast(path, false, prefix)
	}
	if i := c.old.find(path); i >= 0 {
		if e, ok := c.old.entry(i); ok && e.stamp == st && e.prefix == prefix {
			if c.used[i].CompareAndSwap(false, true) {
				c.nUsed.Add(1)
			}
			return e.data, nil
		}
	}
	data, err := readFileFast(path, noFollow, prefix)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.changed = true
	if len(data) <= maxCachedFile && c.start-st.Mtime > racyWindow {
		c.fresh = append(c.fresh, indexRecord{path, cachedFile{stamp: st, prefix: prefix, data: data}})
	}
	c.mu.Unlock()
	return data, nil
}

// Save writes the index when this run read anything the index did not
// hold or left entries unused, replacing it atomically. The index keeps
// only the files this run looked at.
func (c *FileCache) Save() error {
	if c == nil {
		return nil
	}
	c.closeDirs()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.changed && int(c.nUsed.Load()) == c.old.len() {
		return nil
	}
	// What was read from disk comes after what the index held, and a
	// later read after an earlier one: the last record of a path wins
	// (the file changed in between). A cold start kept nothing from the
	// index and sorts its reads where they are.
	keep := c.fresh
	if c.nUsed.Load() > 0 {
		keep = make([]indexRecord, 0, int(c.nUsed.Load())+len(c.fresh))
		for i := range c.used {
			if c.used[i].Load() {
				if e, ok := c.old.entry(i); ok {
					keep = append(keep, indexRecord{c.old.key(i), e})
				}
			}
		}
		keep = append(keep, c.fresh...)
	}
	slices.SortStableFunc(keep, func(a, b indexRecord) int { return strings.Compare(a.path, b.path) })
	n := 0
	for i := range keep {
		if i+1 < len(keep) && keep[i+1].path == keep[i].path {
			continue
		}
		keep[n] = keep[i]
		n++
	}
	keep = keep[:n]
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	tmp := c.path + ".tmp" + strconv.Itoa(os.Getpid())
	if err := writeRecords(tmp, keep); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, c.path); err != nil {
		os.Remove(tmp)
		return err
	}
	// The index just written serves later reads, mapped like one opened.
	c.old = index{}
	if data, err := readIndexFile(c.path); err == nil {
		c.old = decodeIndex(data)
	}
	c.changed, c.fresh = false, nil
	c.used = make([]atomic.Bool, c.old.len())
	c.nUsed.Store(0)
	return nil
}

// indexRecord is one path and its cached file, as Save writes them.
type indexRecord struct {
	path string
	file cachedFile
}

// encodeIndex encodes files in key order.
func encodeIndex(files map[string]cachedFile) []byte {
	recs := make([]indexRecord, 0, len(files))
	for p, e := range files {
		recs = append(recs, indexRecord{p, e})
	}
	slices.SortFunc(recs, func(a, b indexRecord) int { return strings.Compare(a.path, b.path) })
	return encodeRecords(recs)
}

// encodeRecords encodes records sorted by path, one per path.
func encodeRecords(recs []indexRecord) []byte {
	size := len(cacheMagic)
	for _, r := range recs {
		size += len(r.path) + len(r.file.data) + 48
	}
	b := make([]byte, 0, size)
	b = append(b, cacheMagic...)
	for _, r := range recs {
		b = appendRecord(b, r)
	}
	return b
}

// writeRecords writes what encodeRecords gives to a new file at path,
// through a small buffer: the whole index at once would be hundreds of
// KiB of fresh heap on a cold start.
func writeRecords(path string, recs []indexRecord) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	const flushAt = 32 << 10
	b := make([]byte, 0, flushAt+1024)
	b = append(b, cacheMagic...)
	for _, r := range recs {
		b = appendRecord(b, r)
		if len(b) >= flushAt {
			if _, err := f.Write(b); err != nil {
				f.Close()
				return err
			}
			b = b[:0]
		}
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// appendRecord appends one record's encoding to b.
func appendRecord(b []byte, r indexRecord) []byte {
	p, e := r.path, r.file
	b = binary.AppendUvarint(b, uint64(len(p)))
	b = append(b, p...)
	b = binary.AppendVarint(b, e.stamp.Size)
	b = binary.AppendUvarint(b, e.stamp.Ino)
	b = binary.AppendVarint(b, e.stamp.Mtime)
	b = binary.AppendVarint(b, e.stamp.Ctime)
	flag := byte(0)
	if e.prefix {
		flag = 1
	}
	b = append(b, flag)
	b = binary.AppendUvarint(b, uint64(len(e.data)))
	return append(b, e.data...)
}

// stat is statFile, relative to root's descriptor when path lies below
// root and root can be opened; the result is the same either way.
func (c *FileCache) stat(root, path string, noFollow bool) (fileStamp, error) {
	if len(path) > len(root)+1 && path[len(root)] == filepath.Separator && path[:len(root)] == root {
		if fd, ok := c.dirFD(root); ok {
			return statFileAt(fd, path[len(root)+1:], path, noFollow)
		}
	}
	return statFile(path, noFollow)
}

// dirFD returns an open descriptor for dir, opening it on first use; ok is
// false when dir cannot be opened (the caller stats by full path then).
func (c *FileCache) dirFD(dir string) (int, bool) {
	if v, ok := c.dirs.Load(dir); ok {
		fd := v.(int)
		return fd, fd >= 0
	}
	fd := openDirFD(dir)
	if v, loaded := c.dirs.LoadOrStore(dir, fd); loaded {
		closeDirFD(fd)
		fd = v.(int)
	}
	return fd, fd >= 0
}

// closeDirs closes the descriptors dirFD opened; later stats reopen them.
func (c *FileCache) closeDirs() {
	c.dirs.Range(func(k, v any) bool {
		c.dirs.Delete(k)
		closeDirFD(v.(int))
		return true
	})
}

// index is a decoded index file: the records stay where they were read
// and only their offsets (and a table of them by key hash) are collected,
// so opening an index of thousands of entries costs two small slices
// instead of a map of copies; an entry is decoded when a lookup finds it.
// Records are in key order (encodeIndex sorts them, decodeIndex checks),
// so Save can merge without a map.
type index struct {
	// buf holds the records; it is never written to, so keys and data are
	// handed out as views of it.
	buf  []byte
	offs []uint32
	// slots is an open-addressing hash table over the records (record
	// number + 1, 0 for empty), sized to a power of two at least twice the
	// records: a lookup hashes the path once instead of decoding a dozen
	// keys in a binary search.
	slots []uint32
	seed  maphash.Seed
}

func (x index) len() int { return len(x.offs) }

// key is record i's path, a view of buf.
func (x *index) key(i int) string {
	b := x.buf[x.offs[i]:]
	n, k := binary.Uvarint(b)
	return unsafe.String(&b[k], int(n))
}

// find returns the record whose key is path, or -1.
func (x *index) find(path string) int {
	if len(x.slots) == 0 {
		return -1
	}
	mask := uint64(len(x.slots) - 1)
	for h := maphash.String(x.seed, path) & mask; ; h = (h + 1) & mask {
		v := x.slots[h]
		if v == 0 {
			return -1
		}
		if x.key(int(v-1)) == path {
			return int(v - 1)
		}
	}
}

// findJoined is find for the path dir + "/" + name + suffix without
// building it: it returns the record's key (a view of buf), or "".
func (x *index) findJoined(dir, name, suffix string) string {
	if len(x.slots) == 0 {
		return ""
	}
	// A maphash.Hash hashes the sequence of bytes written, however it is
	// split, so this is maphash.String of the joined path.
	var h maphash.Hash
	h.SetSeed(x.seed)
	h.WriteString(dir)
	h.WriteByte(filepath.Separator)
	h.WriteString(name)
	h.WriteString(suffix)
	n := len(dir) + 1 + len(name) + len(suffix)
	mask := uint64(len(x.slots) - 1)
	for i := h.Sum64() & mask; ; i = (i + 1) & mask {
		v := x.slots[i]
		if v == 0 {
			return ""
		}
		k := x.key(int(v - 1))
		if len(k) == n && k[:len(dir)] == dir && k[len(dir)] == filepath.Separator &&
			k[len(dir)+1:len(dir)+1+len(name)] == name && k[len(dir)+1+len(name):] == suffix {
			return k
		}
	}
}

// JoinPath returns dir + "/" + name + suffix, as the string the index holds
// for that path when it holds one: the index stays mapped for the whole
// process, so a thousand resources found again need no path strings of
// their own. dir must be clean and name a plain name read from it.
func (c *FileCache) JoinPath(dir, name, suffix string) string {
	if c != nil {
		if k := c.old.findJoined(dir, name, suffix); k != "" {
			return k
		}
	}
	return dir + string(filepath.Separator) + name + suffix
}

// hashKeys builds slots over the records in offs.
func (x *index) hashKeys() {
	if len(x.offs) == 0 {
		return
	}
	n := 1
	for n < 2*len(x.offs) {
		n <<= 1
	}
	x.seed = maphash.MakeSeed()
	x.slots = make([]uint32, n)
	mask := uint64(n - 1)
	for i := range x.offs {
		h := maphash.String(x.seed, x.key(i)) & mask
		for x.slots[h] != 0 {
			h = (h + 1) & mask
		}
		x.slots[h] = uint32(i + 1)
	}
}

// entry decodes record i; ok is false for a malformed record.
func (x *index) entry(i int) (cachedFile, bool) {
	b := x.buf[x.offs[i]:]
	n, k := binary.Uvarint(b)
	b = b[k+int(n):]
	var e cachedFile
	var ok bool
	if e.stamp.Size, b, ok = varint(b); !ok {
		return e, false
	}
	ino, k := binary.Uvarint(b)
	if k <= 0 {
		return e, false
	}
	e.stamp.Ino, b = ino, b[k:]
	if e.stamp.Mtime, b, ok = varint(b); !ok {
		return e, false
	}
	if e.stamp.Ctime, b, ok = varint(b); !ok {
		return e, false
	}
	if len(b) == 0 {
		return e, false
	}
	e.prefix, b = b[0] == 1, b[1:]
	n, k = binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return e, false
	}
	e.data = b[k : k+int(n) : k+int(n)]
	return e, true
}

func varint(b []byte) (int64, []byte, bool) {
	v, k := binary.Varint(b)
	if k <= 0 {
		return 0, b, false
	}
	return v, b[k:], true
}

// skipVarint returns b after one varint, or nil when there is none.
func skipVarint(b []byte) []byte {
	for i := 0; i < len(b) && i < binary.MaxVarintLen64; i++ {
		if b[i] < 0x80 {
			return b[i+1:]
		}
	}
	return nil
}

// decodeIndex indexes the records of an index file; anything malformed
// (a truncated record, keys out of order) gives an empty index, so a
// damaged file only costs a cold start. Only the framing is checked here;
// the fields of a record are decoded when it is looked up.
func decodeIndex(b []byte) index {
	if len(b) < len(cacheMagic) || string(b[:len(cacheMagic)]) != cacheMagic || len(b)-len(cacheMagic) > math.MaxUint32 {
		return index{}
	}
	x := index{buf: b[len(cacheMagic):]}
	// Records average well over 100 bytes; this bound avoids regrowing.
	x.offs = make([]uint32, 0, len(x.buf)/96+1)
	prev := ""
	for off := 0; off < len(x.buf); {
		rec := x.buf[off:]
		n, k := binary.Uvarint(rec)
		if k <= 0 || n == 0 || n > uint64(len(rec)-k) {
			return index{}
		}
		key := unsafe.String(&rec[k], int(n))
		if key <= prev {
			return index{}
		}
		prev = key
		rest := rec[k+int(n):]
		for range 4 {
			if rest = skipVarint(rest); rest == nil {
				return index{}
			}
		}
		if len(rest) == 0 {
			return index{}
		}
		rest = rest[1:]
		n, k = binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return index{}
		}
		rest = rest[k+int(n):]
		x.offs = append(x.offs, uint32(off))
		off = len(x.buf) - len(rest)
	}
	x.hashKeys()
	return x
}

// frontmatterPrefix returns how much of b a frontmatter reader needs, or -1
// when the frontmatter may continue past b. Text without a leading "---"
// has no frontmatter, so what was read is enough.
func frontmatterPrefix(b []byte) int {
	t := bytes.TrimPrefix(b, []byte("\uFEFF"))
	bom := len(b) - len(t)
	if len(t) < 3 || !bytes.HasPrefix(t, []byte("---")) {
		return len(b)
	}
	i := bytes.Index(t[3:], []byte("\n---"))
	if i < 0 {
		return -1
	}
	return bom + 3 + i + 4
}
