package config

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// The reference locks auth.json with the proper-lockfile convention: the
// lock is a directory "<resolved path>.lock" made with mkdir (atomic on
// every filesystem), its mtime refreshed while it is held, and treated as
// abandoned once that mtime is older than the stale time. Using the same
// convention makes a refresh here and one in a running reference exclude
// each other.
const (
	authLockStale   = 30 * time.Second
	authLockMaxWait = 30 * time.Second
	authLockMaxStep = time.Second
)

// errLocked is proper-lockfile's ELOCKED message.
var errLocked = errors.New("Lock file is already being held")

// lockAuthFile takes the lock of path, waiting (with growing, jittered
// pauses) up to the stale time for another holder, and returns its
// release.
func lockAuthFile(ctx context.Context, path string) (func(), error) {
	// Lock the resolved file so symlinked aliases share one lock.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	lock := path + ".lock"
	deadline := time.Now().Add(authLockMaxWait)
	for retry := 0; ; retry++ {
		err := os.Mkdir(lock, 0o777)
		if err == nil {
			return HoldLockDir(lock, authLockStale), nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if st, serr := os.Stat(lock); serr == nil && time.Since(st.ModTime()) > authLockStale {
			// Abandoned by a process that died holding it.
			_ = os.Remove(lock)
			continue
		}
		remaining := time.Until(deadline)
		if remaining <= 0 {
			return nil, errLocked
		}
		step := min(10*time.Millisecond<<min(retry, 10), authLockMaxStep/2)
		step = min(time.Duration(float64(step)*(1+rand.Float64())), remaining)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(step):
		}
	}
}

// HoldLockDir keeps a taken proper-lockfile lock (the directory lock)
// fresh, renewing its mtime every stale/2 so other processes do not take
// it for abandoned during a slow refresh, and returns its release, which
// stops the renewal and removes the lock. auth.json's lock and the MCP
// sign-ins' refresh locks share it.
func HoldLockDir(lock string, stale time.Duration) func() {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(stale / 2)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				_ = os.Chtimes(lock, now, now)
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		_ = os.Remove(lock)
	}
}
