package builtins

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// parallelWalk is walkTree spread over several goroutines: directories are
// read, filtered through .gitignore and (for grep) their files searched by
// workers, while the caller still sees every entry in walkTree's order
// (depth first, names sorted bytewise), so the tools' output does not depend
// on scheduling. Work is taken from a stack, children pushed in reverse, so
// the workers run close to the order the consumer needs and it rarely waits.
type parallelWalk struct {
	useIgnore bool
	// keep, when set, runs in a worker for every entry that survives the
	// ignore rules; entries it rejects never reach visit (directories are
	// still descended).
	keep func(rel string, isDir bool) bool
	// work, when set, runs in a worker for every kept file; its result is
	// handed to visit with the entry.
	work func(w *walkWorker, rel, abs, name string) any
	// skipLinks leaves symlinks out, as ripgrep's walk does (fd lists them).
	skipLinks bool
}

// walkWorker is one worker goroutine's private state.
type walkWorker struct {
	buf    []byte // read buffer reused from file to file
	dirfd  int    // the open directory of the batch in hand, or -1
	mapped []byte // a file mapped by readForGrep, unmapped by release
}

type walkDir struct {
	abs, rel string
	rules    []ignoreMatcher // every rule in force inside this directory
	ready    chan struct{}
	kids     []walkKid // valid once ready is closed
}

type walkKid struct {
	walkEntry
	keep  bool
	dir   *walkDir   // set for directories
	batch *walkBatch // set for kept files when work is set
	slot  int        // the file's place in batch
}

// walkBatch is a run of files of one directory searched as one task:
// fewer, larger tasks keep the goroutine hand-offs (and the futex and
// scheduler calls under them) far below one per file.
type walkBatch struct {
	dir      string // absolute path of the files' directory
	names    []string
	abs, rel []string
	results  []any
	ready    chan struct{}
}

// walkBatchFiles is the most files in one batch: enough to amortise the
// hand-off, few enough that a large directory still spreads over workers.
const walkBatchFiles = 32

// walkQueue is a LIFO of pending tasks shared by the workers.
type walkQueue struct {
	mu      sync.Mutex
	cond    sync.Cond
	stack   []any // *walkDir or *walkBatch
	pending int   // pushed and not yet finished
	stop    atomic.Bool
}

func (q *walkQueue) push(tasks []any) {
	if len(tasks) == 0 {
		return
	}
	q.mu.Lock()
	// Reversed, so that the first child is the next one popped.
	for i := len(tasks) - 1; i >= 0; i-- {
		q.stack = append(q.stack, tasks[i])
	}
	q.pending += len(tasks)
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *walkQueue) pop() any {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.stack) == 0 && q.pending > 0 && !q.stop.Load() {
		q.cond.Wait()
	}
	if len(q.stack) == 0 || q.stop.Load() {
		return nil
	}
	t := q.stack[len(q.stack)-1]
	q.stack[len(q.stack)-1] = nil
	q.stack = q.stack[:len(q.stack)-1]
	return t
}

func (q *walkQueue) done() {
	q.mu.Lock()
	q.pending--
	last := q.pending == 0
	q.mu.Unlock()
	if last {
		q.cond.Broadcast()
	}
}

func (q *walkQueue) halt() {
	q.mu.Lock()
	q.stop.Store(true)
	q.mu.Unlock()
	q.cond.Broadcast()
}

// walkWorkers is how many goroutines read and search; at least two, so a
// worker blocked on a cold disk read does not stall the walk on one CPU.
func walkWorkers() int { return max(2, runtime.GOMAXPROCS(0)) }

// run walks root and calls visit for each kept entry in walkTree's order
// until visit returns false or the walk ends. It returns ctx.Err() when ctx
// ended the walk early.
func (pw *parallelWalk) run(ctx context.Context, root string, visit func(e walkEntry, result any) bool) error {
	q := &walkQueue{}
	q.cond.L = &q.mu
	top := &walkDir{abs: root, ready: make(chan struct{})}
	q.push([]any{top})
	var wg sync.WaitGroup
	for range walkWorkers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A mapped file cut short while it is read faults; this turns
			// the fault into a panic that readForGrep's caller recovers.
			debug.SetPanicOnFault(true)
			w := &walkWorker{dirfd: -1}
			for {
				t := q.pop()
				if t == nil {
					return
				}
				switch t := t.(type) {
				case *walkDir:
					q.push(pw.readDir(t))
				case *walkBatch:
					w.openDir(t.dir)
					for i := range t.abs {
						if q.stop.Load() {
							break
						}
						t.results[i] = pw.work(w, t.rel[i], t.abs[i], t.names[i])
					}
					w.closeDir()
					close(t.ready)
				}
				q.done()
			}
		}()
	}
	// Stopping the workers and waiting for them before returning means no
	// goroutine outlives the call.
	defer func() {
		q.halt()
		wg.Wait()
	}()

	var consume func(d *walkDir) (bool, error)
	consume = func(d *walkDir) (bool, error) {
		select {
		case <-d.ready:
		case <-ctx.Done():
			return false, ctx.Err()
		}
		for _, k := range d.kids {
			if k.keep {
				var res any
				if k.batch != nil {
					select {
					case <-k.batch.ready:
					case <-ctx.Done():
						return false, ctx.Err()
					}
					res = k.batch.results[k.slot]
				}
				if !visit(k.walkEntry, res) {
					return false, nil
				}
			}
			if k.dir != nil {
				if more, err := consume(k.dir); !more {
					return false, err
				}
			}
		}
		d.kids = nil // let the garbage collector have what was consumed
		return true, nil
	}
	_, err := consume(top)
	return err
}

// readDir lists d (sorted, as os.ReadDir returns it), applies the ignore
// rules and keep, and returns the child tasks. The entry type comes from
// the directory entry itself: no entry is stat'ed.
func (pw *parallelWalk) readDir(d *walkDir) []any {
	defer close(d.ready)
	entries, err := os.ReadDir(d.abs)
	if err != nil {
		return nil
	}
	rules := d.rules
	if pw.useIgnore {
		for _, e := range entries {
			if e.Name() == ".gitignore" {
				// A full slice expression, so siblings never share appends.
				rules = append(rules[:len(rules):len(rules)], compileIgnore(readIgnoreFile(filepath.Join(d.abs, ".gitignore"), d.rel))...)
				break
			}
		}
	}
	var tasks []any
	var batch *walkBatch
	kids := make([]walkKid, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if name == ".git" {
			continue
		}
		r := name
		if d.rel != "" {
			r = d.rel + "/" + name
		}
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if pw.skipLinks {
				continue
			}
			isDir = false // like rg and fd, symlinks are not followed
		}
		if pw.useIgnore && len(rules) > 0 && ignoredBy(rules, r, isDir) {
			continue
		}
		k := walkKid{walkEntry: walkEntry{r, isDir}, keep: pw.keep == nil || pw.keep(r, isDir)}
		abs := d.abs + string(filepath.Separator) + name
		if isDir {
			k.dir = &walkDir{abs: abs, rel: r, rules: rules, ready: make(chan struct{})}
			tasks = append(tasks, k.dir)
		} else if k.keep && pw.work != nil {
			if batch == nil || len(batch.abs) == walkBatchFiles {
				batch = &walkBatch{dir: d.abs, ready: make(chan struct{})}
				tasks = append(tasks, batch)
			}
			k.batch, k.slot = batch, len(batch.abs)
			batch.abs = append(batch.abs, abs)
			batch.names = append(batch.names, name)
			batch.rel = append(batch.rel, r)
			batch.results = append(batch.results, nil)
		}
		kids = append(kids, k)
	}
	d.kids = kids
	return tasks
}
