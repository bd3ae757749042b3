package editor

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Path completion stops at these characters, as pi's does.
const pathDelims = " \t\"'="

// pathWrappers are opening brackets a path may follow in prose, with
// their closers.
var pathWrappers = map[byte]byte{'(': ')', '[': ']', '{': '}', '<': '>', '`': '`'}

// FileProvider completes "@" file references by fuzzy search under its
// directory (walked in Go, honouring .gitignore, skipping .git and
// node_modules) and, on Tab, paths: "./gr" → "./greeting.txt",
// directories with a trailing "/".
type FileProvider struct {
	dir  string
	home string
	// MaxEntries caps one walk of the tree (default 50,000 files and
	// directories) so a huge tree cannot stall the UI.
	MaxEntries int
	// IndexTTL is how long one walk is reused while the user types
	// (default 3 s); Refresh drops it at once.
	IndexTTL time.Duration

	index   map[string][]fileEntry
	indexAt map[string]time.Time
	now     func() time.Time
}

type fileEntry struct {
	path  string // slash-separated, relative to the walk root
	isDir bool
}

// NewFileProvider completes files under dir (the session's cwd).
func NewFileProvider(dir string) *FileProvider {
	home, _ := os.UserHomeDir()
	return &FileProvider{dir: dir, home: home, now: time.Now}
}

// Refresh drops the cached walks.
func (p *FileProvider) Refresh() { p.index, p.indexAt = nil, nil }

// AllowForce implements ForceFilter: no path completion while a slash
// command's name is typed.
func (p *FileProvider) AllowForce(r Request) bool {
	t := strings.TrimSpace(r.BeforeCursor())
	return !(strings.HasPrefix(t, "/") && !strings.Contains(t, " "))
}

// Suggest implements Provider.
func (p *FileProvider) Suggest(r Request) *Suggestions {
	before := r.BeforeCursor()
	if at := atPrefix(before); at != "" {
		raw, quoted := strings.TrimPrefix(at, "@"), false
		if strings.HasPrefix(raw, `"`) {
			raw, quoted = raw[1:], true
		}
		items := p.fuzzy(raw, quoted)
		if len(items) == 0 {
			return nil
		}
		return &Suggestions{Items: items, Prefix: at}
	}
	if !r.Force && strings.HasPrefix(strings.TrimLeft(before, " \t"), "/") {
		return nil
	}
	prefix, ok := pathPrefix(before, r.Force)
	if !ok {
		return nil
	}
	items := p.paths(prefix)
	if len(items) == 0 {
		return nil
	}
	return &Suggestions{Items: items, Prefix: prefix}
}

// Apply implements Provider: an "@" file gets a trailing space (a
// directory does not, so completion can go on inside it).
func (p *FileProvider) Apply(r Request, it Item, prefix string) ([]string, int, int) {
	line := r.Lines[r.Line]
	start := max(0, r.Col-len(prefix))
	before, after := line[:start], line[r.Col:]
	quotedPrefix := strings.HasPrefix(prefix, `"`) || strings.HasPrefix(prefix, `@"`)
	if quotedPrefix && strings.HasSuffix(it.Value, `"`) && strings.HasPrefix(after, `"`) {
		after = after[1:]
	}
	isDir := strings.HasSuffix(it.label(), "/")
	offset := len(it.Value)
	if isDir && strings.HasSuffix(it.Value, `"`) {
		offset--
	}
	suffix := ""
	if strings.HasPrefix(prefix, "@") && !isDir {
		suffix = " "
	}
	lines := append([]string(nil), r.Lines...)
	lines[r.Line] = before + it.Value + suffix + after
	return lines, r.Line, len(before) + offset + len(suffix)
}

func isDelim(c byte) bool { return strings.IndexByte(pathDelims, c) >= 0 }

func lastDelim(text string) int {
	for i := len(text) - 1; i >= 0; i-- {
		if isDelim(text[i]) {
			return i
		}
	}
	return -1
}

// stripWrappers drops opening brackets before a path ("(~/Dev" → "~/Dev")
// unless the token also holds the closer ("app/[slug]/pa").
func stripWrappers(tok string) string {
	for tok != "" {
		closer, ok := pathWrappers[tok[0]]
		if !ok || strings.IndexByte(tok[1:], closer) >= 0 {
			break
		}
		tok = tok[1:]
	}
	return tok
}

func tokenStart(text string, i int) bool {
	for i > 0 {
		if _, ok := pathWrappers[text[i-1]]; !ok {
			break
		}
		i--
	}
	return i == 0 || isDelim(text[i-1])
}

// quotedPrefix is the text from an unclosed quote (or @") at a token
// start to the end, or "".
func quotedPrefix(text string) string {
	q, open := -1, false
	for i := 0; i < len(text); i++ {
		if text[i] == '"' {
			open = !open
			if open {
				q = i
			}
		}
	}
	if !open {
		return ""
	}
	if q > 0 && text[q-1] == '@' {
		if tokenStart(text, q-1) {
			return text[q-1:]
		}
		return ""
	}
	if tokenStart(text, q) {
		return text[q:]
	}
	return ""
}

// atPrefix is the "@…" token before the cursor, or "".
func atPrefix(text string) string {
	if q := quotedPrefix(text); strings.HasPrefix(q, `@"`) {
		return q
	}
	tok := stripWrappers(text[lastDelim(text)+1:])
	if strings.HasPrefix(tok, "@") {
		return tok
	}
	return ""
}

// pathPrefix is the path-like token before the cursor. Without force
// (typing) it must look like a path: contain "/", start with "." or "~/",
// or be empty after a space.
func pathPrefix(text string, force bool) (string, bool) {
	if q := quotedPrefix(text); q != "" {
		return q, true
	}
	tok := stripWrappers(text[lastDelim(text)+1:])
	switch {
	case force, strings.Contains(tok, "/"), strings.HasPrefix(tok, "."), strings.HasPrefix(tok, "~/"):
		return tok, true
	case tok == "" && text != "" && isDelim(text[len(text)-1]):
		return "", true
	}
	return "", false
}

func (p *FileProvider) expandHome(s string) string {
	switch {
	case s == "~":
		return p.home
	case strings.HasPrefix(s, "~/"):
		out := filepath.Join(p.home, s[2:])
		if strings.HasSuffix(s, "/") {
			out += "/"
		}
		return out
	}
	return s
}

func completionValue(pathValue string, at, quoted bool) string {
	prefix := ""
	if at {
		prefix = "@"
	}
	if quoted || strings.ContainsAny(pathValue, " \t") {
		return prefix + `"` + pathValue + `"`
	}
	return prefix + pathValue
}

// paths lists the entries of the directory a path prefix names whose
// names start with its last part (ignoring case), directories first.
func (p *FileProvider) paths(prefix string) []Item {
	raw, at, quoted := prefix, false, false
	switch {
	case strings.HasPrefix(raw, `@"`):
		raw, at, quoted = raw[2:], true, true
	case strings.HasPrefix(raw, `"`):
		raw, quoted = raw[1:], true
	case strings.HasPrefix(raw, "@"):
		raw, at = raw[1:], true
	}
	expanded := p.expandHome(raw)
	abs := func(d string) string {
		if strings.HasPrefix(raw, "~") || filepath.IsAbs(d) {
			return d
		}
		return filepath.Join(p.dir, d)
	}
	var dir, namePrefix string
	switch raw {
	case "", "./", "../", "~", "~/", "/":
		dir = abs(expanded)
	default:
		if strings.HasSuffix(raw, "/") {
			dir = abs(expanded)
		} else {
			dir, namePrefix = abs(filepath.Dir(expanded)), filepath.Base(expanded)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var items []Item
	for _, ent := range entries {
		name := ent.Name()
		if !strings.HasPrefix(strings.ToLower(name), strings.ToLower(namePrefix)) {
			continue
		}
		isDir := ent.IsDir()
		if !isDir && ent.Type()&fs.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(dir, name)); err == nil {
				isDir = st.IsDir()
			}
		}
		var rel string
		switch {
		case strings.HasSuffix(raw, "/"):
			rel = raw + name
		case strings.Contains(raw, "/"):
			switch {
			case strings.HasPrefix(raw, "~/"):
				d := path.Dir(raw[2:])
				if d == "." {
					rel = "~/" + name
				} else {
					rel = "~/" + path.Join(d, name)
				}
			case strings.HasPrefix(raw, "/"):
				if d := path.Dir(raw); d == "/" {
					rel = "/" + name
				} else {
					rel = d + "/" + name
				}
			default:
				rel = path.Join(path.Dir(raw), name)
				if strings.HasPrefix(raw, "./") && !strings.HasPrefix(rel, "./") {
					rel = "./" + rel
				}
			}
		case strings.HasPrefix(raw, "~"):
			rel = "~/" + name
		default:
			rel = name
		}
		label := name
		if isDir {
			rel += "/"
			label += "/"
		}
		items = append(items, Item{Value: completionValue(rel, at, quoted), Label: label})
	}
	sort.SliceStable(items, func(i, j int) bool {
		di, dj := strings.HasSuffix(items[i].Label, "/"), strings.HasSuffix(items[j].Label, "/")
		if di != dj {
			return di
		}
		return strings.ToLower(items[i].Label) < strings.ToLower(items[j].Label)
	})
	return items
}
