package skills

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/pi-go/pi/prompts"
)

// walker collects skill files the way collectEntries does, faster: each
// sub-directory of a skills root is first probed for SKILL.md with a single
// open (no directory listing), the probes run in parallel, and the contents
// read by a probe are kept (ResolvedPath.Data) so the loader does not read
// the file again. A probe refuses links, so a file found this way has its
// real path known from the root's, which spares the Lstat de-duplication
// would need.
type walker struct {
	keys  *prompts.PathKeys
	cache *prompts.FileCache
}

// Kinds of the entries of a skills root while it is walked.
const (
	kindFile    uint8 = iota // a standalone .md file, taken as it is
	kindProbe                // a plain directory: probe for SKILL.md
	kindLinked               // a link to a directory: walk it
	kindDropped              // a directory that held no skill
)

func (w *walker) collect(dir string, m mode) []prompts.ResolvedPath {
	ents, err := prompts.ReadDirEntries(dir)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if e.Name == "SKILL.md" {
			full := filepath.Join(dir, "SKILL.md")
			if _, isFile := e.Kind(full); isFile {
				return []prompts.ResolvedPath{{Path: full}}
			}
		}
	}
	clean := filepath.Clean(dir) == dir
	// One slot per candidate, in name order. A plain directory's slot holds
	// the path of its SKILL.md from the start (the index's string for it
	// when the index has one, else built in one allocation); the
	// directory's own path is a prefix of it.
	out := make([]prompts.ResolvedPath, 0, len(ents))
	kinds := make([]uint8, 0, len(ents))
	anyPlain := false
	for _, e := range ents {
		name := e.Name
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		if e.Type.IsDir() && clean && canConcat(dir, name) {
			out = append(out, prompts.ResolvedPath{Path: w.cache.JoinPath(dir, name, sep+"SKILL.md")})
			kinds = append(kinds, kindProbe)
			anyPlain = true
			continue
		}
		full := join(dir, name, clean)
		isDir, isFile := e.Kind(full)
		switch {
		case isFile && strings.HasSuffix(name, ".md") && m == modePi:
			out = append(out, prompts.ResolvedPath{Path: full})
			kinds = append(kinds, kindFile)
		case isDir:
			out = append(out, prompts.ResolvedPath{Path: full})
			kinds = append(kinds, kindLinked)
		}
	}
	real := ""
	if anyPlain {
		real = w.keys.Dir(dir)
	}
	// Directories without a SKILL.md of their own are walked in full; what
	// they hold replaces their slot afterwards (rare: nested layouts).
	var mu sync.Mutex
	var nested map[int][]string
	w.cache.Reserve(len(out))
	prompts.ParallelEach(len(out), func(i int) {
		f := &out[i]
		sub := f.Path
		switch kinds[i] {
		case kindFile:
			return
		case kindProbe:
			if data, err := w.cache.ReadFrontmatterIn(dir, f.Path, true); err == nil {
				f.Data = data
				// When the root is its own real path (no link above it),
				// the file's path is its key.
				f.Key = f.Path
				if real != dir {
					f.Key = filepath.Join(real, f.Path[len(dir)+1:])
				}
				return
			}
			sub = f.Path[:len(f.Path)-len(sep+"SKILL.md")]
		}
		files := collectEntries(sub, m, dir)
		mu.Lock()
		if nested == nil {
			nested = map[int][]string{}
		}
		nested[i] = files
		mu.Unlock()
		kinds[i] = kindDropped
	})
	if nested == nil {
		return out
	}
	all := make([]prompts.ResolvedPath, 0, len(out))
	for i, f := range out {
		if kinds[i] != kindDropped {
			all = append(all, f)
			continue
		}
		for _, p := range nested[i] {
			all = append(all, prompts.ResolvedPath{Path: p})
		}
	}
	return all
}

const sep = string(filepath.Separator)

// canConcat says whether dir + sep + name is what filepath.Join gives for a
// clean dir and a name read from it.
func canConcat(dir, name string) bool {
	return dir != "" && !strings.HasSuffix(dir, sep) && name != "." && name != ".."
}

// join is filepath.Join for a directory and a name read from it, without
// Join's Clean pass when dir is already clean (a thousand skills make that
// pass measurable).
func join(dir, name string, clean bool) string {
	if !clean || !canConcat(dir, name) {
		return filepath.Join(dir, name)
	}
	return dir + sep + name
}
