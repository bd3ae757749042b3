package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/pi-go/pi/engine"
)

// ErrNotSession is wrapped by the error for a non-empty file whose first
// record is not a session header; the message is the reference's.
var ErrNotSession = errors.New("Session file is not a valid pi session")

// parsed is the content of a session file after reading and migration.
type parsed struct {
	// size is the number of bytes read.
	size int64
	// legacy means the header is of a version before
	// engine.SessionVersion: parseStream stopped there, and the whole
	// file goes through parseFile, which migrates it.
	legacy    bool
	headerRaw []byte
	header    engine.Header
	recs      []*record
	// migrated means the records differ from the file and it must be
	// rewritten.
	migrated bool
	// tornAt is the offset of an unparsable last line without a newline
	// (a write cut short by a crash), or -1.
	tornAt int64
	// needLF means the last line parsed but lacks its newline.
	needLF bool
}

// parseFile splits data into lines and decodes them. Blank and malformed
// lines are skipped like the reference does. It returns a nil header
// when the first decodable record is not a session header.
func parseFile(data []byte) (*parsed, error) {
	p := &parsed{tornAt: -1}
	var objs []*object
	var lines [][]byte
	start := 0
	for start < len(data) {
		end := bytes.IndexByte(data[start:], '\n')
		last := end < 0
		var line []byte
		if last {
			line = data[start:]
		} else {
			line = data[start : start+end]
		}
		if len(bytes.TrimSpace(line)) > 0 {
			o, err := parseObject(line)
			switch {
			case err == nil:
				objs = append(objs, o)
				lines = append(lines, bytes.TrimRight(line, "\r"))
				if last {
					p.needLF = true
				}
			case last:
				p.tornAt = int64(start)
			}
		}
		if last {
			break
		}
		start += end + 1
	}
	if len(objs) == 0 {
		return p, nil
	}
	if t, _ := objs[0].getString("type"); t != "session" {
		return p, nil
	}
	if _, ok := objs[0].getString("id"); !ok {
		return p, nil
	}
	if migrate(objs) {
		p.migrated = true
		for i, o := range objs {
			lines[i] = o.bytes()
		}
	}
	p.headerRaw = lines[0]
	if err := json.Unmarshal(lines[0], &p.header); err != nil {
		return nil, fmt.Errorf("session header: %w", err)
	}
	for i := 1; i < len(objs); i++ {
		if t, _ := objs[i].getString("type"); t == "session" {
			continue
		}
		e := new(engine.Entry)
		if err := json.Unmarshal(lines[i], e); err != nil {
			// An entry the types cannot represent is treated like a
			// malformed line.
			continue
		}
		p.recs = append(p.recs, entryRecord(e, lines[i]))
	}
	return p, nil
}

// migrate upgrades v1 and v2 records to v3 in place and reports whether it
// changed anything. objs[0] is the header.
func migrate(objs []*object) bool {
	version := 1
	if v, ok := objs[0].get("version"); ok {
		var n float64
		if json.Unmarshal(v, &n) == nil {
			version = int(n)
		}
	}
	if version >= engine.SessionVersion {
		return false
	}
	if version < 2 {
		taken := map[string]bool{}
		ids := make([]string, len(objs))
		var prev any // nil marshals as null for the first entry
		for i, o := range objs {
			if t, _ := o.getString("type"); t == "session" {
				o.set("version", 2)
				continue
			}
			id := newEntryID(func(s string) bool { return taken[s] })
			taken[id] = true
			ids[i] = id
			o.set("id", id)
			o.set("parentId", prev)
			prev = id
			if t, _ := o.getString("type"); t == engine.EntryCompaction {
				if raw, ok := o.get("firstKeptEntryIndex"); ok {
					var idx float64
					if json.Unmarshal(raw, &idx) == nil {
						if n := int(idx); n >= 0 && n < len(objs) && ids[n] != "" {
							o.set("firstKeptEntryId", ids[n])
						}
						o.del("firstKeptEntryIndex")
					}
				}
			}
		}
	}
	for _, o := range objs {
		if t, _ := o.getString("type"); t == "session" {
			o.set("version", 3)
			continue
		}
		if t, _ := o.getString("type"); t != engine.EntryMessage {
			continue
		}
		raw, ok := o.get("message")
		if !ok {
			continue
		}
		m, err := parseObject(raw)
		if err != nil {
			continue
		}
		if r, _ := m.getString("role"); r == "hookMessage" {
			m.set("role", engine.RoleCustom)
			o.set("message", json.RawMessage(m.bytes()))
		}
	}
	return true
}

// Load reads a session file without locking or repairing it, for
// read-only uses such as discovery and --fork sources. It returns the
// header and the entries in file order.
func Load(path string) (engine.Header, []*engine.Entry, error) {
	fd, err := os.Open(path)
	if err != nil {
		return engine.Header{}, nil, fmt.Errorf("read session: %w", err)
	}
	defer fd.Close()
	p, err := readSession(fd, true)
	if err != nil {
		return engine.Header{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	if p.headerRaw == nil {
		return engine.Header{}, nil, fmt.Errorf("%w: %s", ErrNotSession, path)
	}
	out := make([]*engine.Entry, len(p.recs))
	for i, r := range p.recs {
		out[i] = r.e
	}
	return p.header, out, nil
}

// readHeader reads only the first record of a file; it returns ok=false
// when the file is not a session.
func readHeader(path string) (engine.Header, bool) {
	f, err := os.Open(path)
	if err != nil {
		return engine.Header{}, false
	}
	defer f.Close()
	buf := make([]byte, 64*1024)
	var acc []byte
	for {
		n, err := f.Read(buf)
		acc = append(acc, buf[:n]...)
		for {
			i := bytes.IndexByte(acc, '\n')
			if i < 0 {
				break
			}
			line := acc[:i]
			acc = acc[i+1:]
			if h, done, ok := headerCandidate(line); done {
				return h, ok
			}
		}
		if err != nil || len(acc) > 1<<20 {
			h, _, ok := headerCandidate(acc)
			return h, ok
		}
	}
}

// headerCandidate inspects one line: done is false for blank or malformed
// lines, which the search skips.
func headerCandidate(line []byte) (h engine.Header, done, ok bool) {
	if len(bytes.TrimSpace(line)) == 0 {
		return h, false, false
	}
	o, err := parseObject(line)
	if err != nil {
		return h, false, false
	}
	t, _ := o.getString("type")
	if _, hasID := o.getString("id"); t != "session" || !hasID {
		return h, true, false
	}
	if json.Unmarshal(line, &h) != nil {
		return h, true, false
	}
	return h, true, true
}

// readSession parses the session file open in fd: streamed record by
// record for current files, whole through parseFile for the old versions
// that migration rewrites. Unless eager, plain message lines are only
// indexed (their records are lazy, read again from fd when needed).
func readSession(fd *os.File, eager bool) (*parsed, error) {
	p, err := parseStream(io.NewSectionReader(fd, 0, 1<<62), eager)
	if err != nil || !p.legacy {
		return p, err
	}
	data, err := io.ReadAll(io.NewSectionReader(fd, 0, 1<<62))
	if err != nil {
		return nil, fmt.Errorf("read session: %w", err)
	}
	p, err = parseFile(data)
	if p != nil {
		p.size = int64(len(data))
	}
	return p, err
}

// parseStream reads a current session file line by line through a bounded
// buffer and keeps no line in memory: records remember where their line
// is in the file (off, n), and the file is read again when the exact line
// is needed. Unless eager, a plain message line is not decoded either,
// only scanned for its index (see record); other lines are decoded once.
// A 200 MB session used to be read whole, split, decoded twice and held
// as raw lines next to the decoded entries. Lines are handled in batches
// of a few MB on every processor, then taken in file order. It gives up
// with legacy set at a header of an older version. Blank and malformed
// lines are skipped as parseFile does.
func parseStream(r io.Reader, eager bool) (*parsed, error) {
	return parseStreamBuf(r, eager, batchBytes)
}

// parseStreamBuf is parseStream reading size bytes at a time.
func parseStreamBuf(r io.Reader, eager bool, size int) (*parsed, error) {
	p := &parsed{tornAt: -1}
	st := &streamState{p: p, eager: eager}
	// Lines are handled where they were read, a buffer's worth at a
	// time; the partial line at its end moves to the front for the next
	// read, and a line longer than the buffer grows it.
	buf := make([]byte, size)
	var batch lineBatch
	var base int64 // file offset of buf[0]
	have := 0
	for {
		n, err := io.ReadFull(r, buf[have:])
		have += n
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !eof {
			return nil, fmt.Errorf("read session: %w", err)
		}
		data := buf[:have]
		end := len(data)
		if !eof {
			end = bytes.LastIndexByte(data, '\n') + 1
			if end == 0 {
				buf = append(buf, make([]byte, len(buf))...)
				continue
			}
		}
		batch.reset()
		for i := 0; i < end; {
			line, next, last := data[i:end], end, true
			if j := bytes.IndexByte(line, '\n'); j >= 0 {
				line, next, last = line[:j], i+j+1, false
			}
			if len(bytes.TrimSpace(line)) > 0 {
				batch.add(line, base+int64(i), last)
			}
			i = next
		}
		done, terr := st.take(&batch)
		if terr != nil || done || eof {
			p.size = base + int64(have)
			return p, terr
		}
		have = copy(buf, data[end:])
		base += int64(end)
	}
}

// batchBytes is how many bytes of lines are read and handled together.
const batchBytes = 4 << 20

// lineBatch holds the lines of one read, waiting to be handled.
type lineBatch struct {
	lines  [][]byte
	starts []int64
	last   []bool
}

func (b *lineBatch) add(line []byte, start int64, last bool) {
	b.lines = append(b.lines, line)
	b.starts = append(b.starts, start)
	b.last = append(b.last, last)
}

func (b *lineBatch) line(i int) []byte { return b.lines[i] }

func (b *lineBatch) reset() {
	b.lines, b.starts, b.last = b.lines[:0], b.starts[:0], b.last[:0]
}

// streamState is parseStream's progress across batches.
type streamState struct {
	p          *parsed
	haveHeader bool
	// eager decodes every line, for readers that want every entry.
	eager bool
}

// take decodes a batch in parallel and applies its lines in order; done
// means the file is not a current session and reading stops. A plain
// message line is only scanned for its index (scanMessageLine) and left
// in the file; every other line is decoded.
func (st *streamState) take(b *lineBatch) (done bool, err error) {
	n := len(b.lines)
	entries := make([]*engine.Entry, n)
	metas := make([]msgMeta, n)
	scanned := make([]bool, n)
	errs := make([]error, n)
	workers := min(runtime.GOMAXPROCS(0), max(1, n/8))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += workers {
				if !st.eager {
					if metas[i], scanned[i] = scanMessageLine(b.line(i)); scanned[i] {
						continue
					}
				}
				entries[i], errs[i] = decodeEntry(b.line(i))
			}
		}(w)
	}
	wg.Wait()
	p := st.p
	for i := 0; i < n; i++ {
		line, start, last := b.line(i), b.starts[i], b.last[i]
		trimmed := bytes.TrimRight(line, "\r")
		if !st.haveHeader {
			o, perr := parseObject(line)
			if perr != nil {
				if last {
					p.tornAt = start
				}
				continue
			}
			st.haveHeader = true
			if t, _ := o.getString("type"); t != "session" {
				return true, nil
			}
			if _, ok := o.getString("id"); !ok {
				return true, nil
			}
			if headerVersion(o) < engine.SessionVersion {
				p.legacy = true
				return true, nil
			}
			p.headerRaw = bytes.Clone(trimmed)
			if err := json.Unmarshal(trimmed, &p.header); err != nil {
				return true, fmt.Errorf("session header: %w", err)
			}
			if last {
				p.needLF = true
			}
			continue
		}
		if scanned[i] {
			if last {
				p.needLF = true
			}
			p.recs = append(p.recs, lazyRecord(metas[i], start, len(trimmed)))
			continue
		}
		if errs[i] != nil {
			// A line that is a JSON object the types cannot represent is
			// skipped like a malformed one; only an unparsable last line
			// is a torn write.
			if last {
				if _, perr := parseObject(line); perr != nil {
					p.tornAt = start
				} else {
					p.needLF = true
				}
			}
			continue
		}
		if last {
			p.needLF = true
		}
		if entries[i].Type != "session" {
			r := entryRecord(entries[i], nil)
			r.off, r.n = start, len(trimmed)
			p.recs = append(p.recs, r)
		}
	}
	return false, nil
}

// headerVersion is the header's version, 1 when it has none.
func headerVersion(header *object) int {
	version := 1
	if v, ok := header.get("version"); ok {
		var n float64
		if json.Unmarshal(v, &n) == nil {
			version = int(n)
		}
	}
	return version
}
