// Package docs embeds pi's user documentation (the Markdown files of this
// folder) and unpacks it once into a cache folder, so that the paths the
// system prompt names exist on disk next to nothing but the binary.
package docs

import (
	"embed"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

//go:embed *.md
var files embed.FS

// Index is the overview page; Pages are the guides beside it, in the order
// the system prompt lists them. TestPagesMatchEmbedded keeps both in step
// with the embedded files.
const Index = "README.md"

// Pages are the guide pages, without the index.
var Pages = []string{"extensions.md", "skills.md", "prompt-templates.md", "settings.md", "rpc.md", "sdk.md", "providers.md", "models.md"}

// version names the cache folder after the embedded files (their CRC-32 and
// total size), so a binary with other docs never reads a stale copy and
// two binaries with the same docs share one. It is computed once, on first
// use, from about 25 KB. A CRC is enough, as it guards against stale
// copies, not forgery, and keeps the cost per start to microseconds (a
// SHA-256 measured slower).
var version = sync.OnceValue(func() string {
	h := crc32.NewIEEE()
	total := 0
	for _, name := range names() {
		b, _ := files.ReadFile(name)
		total += len(b)
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	return fmt.Sprintf("%08x%06x", h.Sum32(), total)
})

// names lists the embedded files (ReadDir sorts them).
func names() []string {
	entries, _ := fs.ReadDir(files, ".")
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// Names lists the embedded files.
func Names() []string { return names() }

// Extract returns <cacheRoot>/<version>, writing the embedded files there
// first when the folder does not exist yet. The fast path is one stat. A
// new copy is written to a temporary folder beside it and renamed into
// place, so a reader never sees a half-written folder, and two processes
// extracting at once both succeed (the loser of the rename drops its copy).
func Extract(cacheRoot string) (string, error) {
	dir := filepath.Join(cacheRoot, version())
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return "", fmt.Errorf("docs cache %s is not a directory", dir)
		}
		return dir, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("docs cache: %w", err)
	}
	if err := os.MkdirAll(cacheRoot, 0o755); err != nil {
		return "", fmt.Errorf("docs cache: %w", err)
	}
	tmp, err := os.MkdirTemp(cacheRoot, ".tmp-"+version()+"-")
	if err != nil {
		return "", fmt.Errorf("docs cache: %w", err)
	}
	if err := writeAll(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	// MkdirTemp makes the folder 0700; the docs are not secret.
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("docs cache: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		// Another process may have renamed its copy into place first:
		// renaming onto a non-empty folder fails, and its copy is as good.
		if fi, serr := os.Stat(dir); serr == nil && fi.IsDir() {
			return dir, nil
		}
		return "", fmt.Errorf("docs cache: %w", err)
	}
	return dir, nil
}

// writeAll writes every embedded file into dir.
func writeAll(dir string) error {
	for _, name := range names() {
		b, err := files.ReadFile(name)
		if err != nil {
			return fmt.Errorf("docs: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("docs cache: %w", err)
		}
	}
	return nil
}
