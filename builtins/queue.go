package builtins

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sync"
	"syscall"
)

// mutationQueue serializes mutations of one file. Each key maps to the
// channel that the current holder closes when it is done; waiters chain
// behind it in arrival order.
var mutationQueue = struct {
	sync.Mutex
	tails map[string]chan struct{}
}{tails: map[string]chan struct{}{}}

// mutationKey is the realpath of path, or the absolute path when the file
// does not exist yet, so two spellings of one file share a queue.
func mutationKey(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return abs, nil
		}
		return "", err
	}
	return real, nil
}

// ReserveFileMutation takes the next place in the queue of path's file at
// once and returns wait, which blocks until every earlier mutation of the
// file has finished, and release, which ends this one (calling it more
// than once is harmless). Callers that queue from one thread but wait on
// goroutines, like the extension host, reserve first so their order is the
// order of their calls, not of goroutine scheduling.
func ReserveFileMutation(path string) (wait func(), release func(), err error) {
	key, err := mutationKey(path)
	if err != nil {
		return nil, nil, err
	}
	done := make(chan struct{})
	mutationQueue.Lock()
	prev := mutationQueue.tails[key]
	mutationQueue.tails[key] = done
	mutationQueue.Unlock()
	wait = func() {
		if prev != nil {
			<-prev
		}
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			mutationQueue.Lock()
			if mutationQueue.tails[key] == done {
				delete(mutationQueue.tails, key)
			}
			mutationQueue.Unlock()
			close(done)
		})
	}
	return wait, release, nil
}

// WithFileMutationQueue runs fn once every earlier mutation of the same
// file (by realpath) has finished. Mutations of different files run in
// parallel.
func WithFileMutationQueue(path string, fn func() error) error {
	wait, release, err := ReserveFileMutation(path)
	if err != nil {
		return err
	}
	defer release()
	wait()
	return fn()
}
