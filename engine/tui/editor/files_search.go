package editor

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pi-go/pi/internal/gitignore"
)

// maxFileSuggestions is how many "@" matches the list gets (pi's 20).
const maxFileSuggestions = 20

// skippedDirs are never searched.
var skippedDirs = map[string]bool{".git": true, "node_modules": true}

var errWalkFull = errors.New("walk limit")

// walk lists root's files and directories, honouring every .gitignore
// on the way, up to max entries.
func walk(root string, max int) []fileEntry {
	var out []fileEntry
	rules := map[string][]gitignore.Rule{"": gitignore.ReadFile(filepath.Join(root, ".gitignore"), "")}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		isDir := d.IsDir()
		if !isDir && d.Type()&fs.ModeSymlink != 0 {
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				isDir = true
			}
		}
		parent := path.Dir(rel)
		if parent == "." {
			parent = ""
		}
		if (isDir && skippedDirs[d.Name()]) || gitignore.Ignored(rules[parent], rel, isDir) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			// The directory's rules extend its parent's.
			rules[rel] = append(append([]gitignore.Rule(nil), rules[parent]...), gitignore.ReadFile(filepath.Join(root, filepath.FromSlash(rel), ".gitignore"), rel)...)
		}
		out = append(out, fileEntry{rel, isDir})
		if len(out) >= max {
			return errWalkFull
		}
		return nil
	})
	return out
}

func (p *FileProvider) entries(root string) []fileEntry {
	ttl := p.IndexTTL
	if ttl <= 0 {
		ttl = 3 * time.Second
	}
	now := p.now()
	if at, ok := p.indexAt[root]; ok && now.Sub(at) < ttl {
		return p.index[root]
	}
	limit := p.MaxEntries
	if limit <= 0 {
		limit = 50000
	}
	if root != p.dir {
		// A directory named in the query ("@/", "@~/") may be a whole
		// disk: search only its first part, as fd's result cap does.
		limit = min(limit, 5000)
	}
	if p.index == nil {
		p.index, p.indexAt = map[string][]fileEntry{}, map[string]time.Time{}
	}
	ents := walk(root, limit)
	p.index[root], p.indexAt[root] = ents, now
	return ents
}

// scoreEntry is pi's ranking of a path for a query (higher is better):
// the file name equal to it 100, starting with it 80, containing it 50,
// the path containing it 30; directories +10.
func scoreEntry(p, q string, isDir bool) int {
	name := strings.ToLower(path.Base(p))
	q = strings.ToLower(q)
	score := 0
	switch {
	case name == q:
		score = 100
	case strings.HasPrefix(name, q):
		score = 80
	case strings.Contains(name, q):
		score = 50
	case strings.Contains(strings.ToLower(p), q):
		score = 30
	}
	if isDir && score > 0 {
		score += 10
	}
	return score
}

// fuzzy finds files for "@query". A query with a slash searches inside
// that directory ("@src/ma" looks for "ma" under src/). When nothing
// contains the query, files whose path holds its characters in order
// are offered instead, best fuzzy score first.
func (p *FileProvider) fuzzy(query string, quoted bool) []Item {
	root, q, displayBase := p.dir, query, ""
	if i := strings.LastIndex(query, "/"); i >= 0 {
		base := query[:i+1]
		var dir string
		switch {
		case strings.HasPrefix(base, "~/"):
			dir = p.expandHome(base)
		case strings.HasPrefix(base, "/"):
			dir = base
		default:
			dir = filepath.Join(p.dir, base)
		}
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			root, q, displayBase = dir, query[i+1:], base
		}
	}
	type scored struct {
		fileEntry
		score float64
	}
	var hits []scored
	ents := p.entries(root)
	for _, e := range ents {
		s := 1
		if q != "" {
			s = scoreEntry(e.path, q, e.isDir)
		}
		if s > 0 {
			hits = append(hits, scored{e, float64(s)})
		}
	}
	if len(hits) == 0 && q != "" {
		for _, e := range ents {
			if ok, s := fuzzyMatch(q, e.path); ok {
				// Map the fuzzy score (lower is better) below every
				// substring score.
				hits = append(hits, scored{e, -s / 1000})
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.score != b.score {
			return a.score > b.score
		}
		da, db := strings.Count(a.path, "/"), strings.Count(b.path, "/")
		if da != db {
			return da < db
		}
		if len(a.path) != len(b.path) {
			return len(a.path) < len(b.path)
		}
		return a.path < b.path
	})
	if len(hits) > maxFileSuggestions {
		hits = hits[:maxFileSuggestions]
	}
	items := make([]Item, 0, len(hits))
	for _, h := range hits {
		display := h.path
		if displayBase != "" {
			display = displayBase + h.path
		}
		value, label := display, path.Base(h.path)
		if h.isDir {
			value += "/"
			label += "/"
		}
		items = append(items, Item{Value: completionValue(value, true, quoted), Label: label, Description: display})
	}
	return items
}
