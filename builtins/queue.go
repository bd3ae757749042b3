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

// WithFileMutationQueue runs fn once every earlier mutation of the same
// file (by realpath) has finished. Mutations of different files run in
// parallel.
func WithFileMutationQueue(path string, fn func() error) error {
	key, err := mutationKey(path)
	if err != nil {
		return err
	}
	done := make(chan struct{})
	mutationQueue.Lock()
	prev := mutationQueue.tails[key]
	mutationQueue.tails[key] = done
	mutationQueue.Unlock()
	if prev != nil {
		<-prev
	}
	defer func() {
		mutationQueue.Lock()
		if mutationQueue.tails[key] == done {
			delete(mutationQueue.tails, key)
		}
		mutationQueue.Unlock()
		close(done)
	}()
	return fn()
}
