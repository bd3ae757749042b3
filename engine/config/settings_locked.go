package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// EditSettingsFileLocked runs edit over the current contents of a
// settings.json (exists false when there is none) and, when edit asks to
// write, replaces the file with next. It holds the file's proper-lockfile
// lock (the convention auth.json uses, so a running reference excludes
// us) while the file exists or is being written, as the reference's
// SettingsManager does: reading a missing file takes no lock and makes no
// directory. The write goes through a temporary file and a rename.
func EditSettingsFileLocked(ctx context.Context, path string, edit func(current []byte, exists bool) (next []byte, write bool, err error)) error {
	var release func()
	defer func() {
		if release != nil {
			release()
		}
	}()
	_, statErr := os.Stat(path)
	exists := statErr == nil
	if exists {
		r, err := lockAuthFile(ctx, path)
		if err != nil {
			return fmt.Errorf("lock %s: %w", path, err)
		}
		release = r
	}
	var current []byte
	if exists {
		b, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("read %s: %w", path, err)
		}
		current = b
	}
	next, write, err := edit(current, exists)
	if err != nil || !write {
		return err
	}
	if release == nil {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
		}
		r, err := lockAuthFile(ctx, path)
		if err != nil {
			return fmt.Errorf("lock %s: %w", path, err)
		}
		release = r
	}
	return writeFileAtomic(path, next)
}
