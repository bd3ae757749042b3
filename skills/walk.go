package skills

import (
	"path/filepath"
	"strings"

	"github.com/pi-go/pi/prompts"
)

// walker collects skill files the way collectEntries does, faster: each
// sub-directory of a skills root is first probed for SKILL.md with a single
// open (no directory listing), the probes run in parallel, and the contents
// read by a probe are kept so the loader does not read the file again. A
// probe refuses links, so a file found this way has its real path known
// from the root's, which spares the Lstat de-duplication would need.
type walker struct {
	keys  *prompts.PathKeys
	cache *prompts.FileCache
	data  map[string][]byte
}

type walkItem struct {
	path     string
	name     string
	isDir    bool
	plainDir bool
	files    []string
	data     []byte
}

func (w *walker) collect(dir string, m mode) []string {
	ents, err := prompts.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if e.Name() == "SKILL.md" {
			full := filepath.Join(dir, "SKILL.md")
			if _, isFile := prompts.EntryKind(full, e); isFile {
				return []string{full}
			}
		}
	}
	clean := filepath.Clean(dir) == dir
	items := make([]walkItem, 0, len(ents))
	anyPlain := false
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		full := join(dir, name, clean)
		isDir, isFile := prompts.EntryKind(full, e)
		switch {
		case isFile && strings.HasSuffix(name, ".md") && m == modePi:
			items = append(items, walkItem{path: full, files: []string{full}})
		case isDir:
			plain := e.IsDir()
			anyPlain = anyPlain || plain
			items = append(items, walkItem{path: full, name: name, isDir: true, plainDir: plain})
		}
	}
	real := ""
	if anyPlain {
		real = w.keys.Dir(dir)
	}
	prompts.ParallelEach(len(items), func(i int) {
		it := &items[i]
		if !it.isDir {
			return
		}
		if it.plainDir {
			skill := it.path + string(filepath.Separator) + "SKILL.md"

			if data, err := w.cache.ReadFrontmatterIn(dir, skill, true); err == nil {
				it.files, it.data = []string{skill}, data
				return
			}
		}
		it.files = collectEntries(it.path, m, dir)
	})
	out := make([]string, 0, len(items))
	w.keys.Grow(len(items))
	for _, it := range items {
		if it.data != nil {
			if w.data == nil {
				w.data = make(map[string][]byte, len(items))
			}
			w.data[it.files[0]] = it.data
			// When the directory is its own real path (no link above it),
			// the file's path is its key; sharing the string saves a
			// thousand joins.
			key := it.files[0]
			if real != dir {
				key = filepath.Join(real, it.name, "SKILL.md")
			}
			w.keys.Note(it.files[0], key)
		}
		out = append(out, it.files...)
	}
	return out
}

// join is filepath.Join for a directory and a name read from it, without
// Join's Clean pass when dir is already clean (a thousand skills make that
// pass measurable).
func join(dir, name string, clean bool) string {
	if !clean || dir == "" || strings.HasSuffix(dir, string(filepath.Separator)) || name == "." || name == ".." {
		return filepath.Join(dir, name)
	}
	return dir + string(filepath.Separator) + name
}
