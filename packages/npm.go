package packages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/pi-go/pi/internal/jsonx"
)

// hostPackage matches the packages pi provides to extensions (the
// modules jsruntime maps, legacy names included). They are never
// installed: a physical copy would bypass that mapping.
var hostPackage = lazyRe(`^(@earendil-works/pi-(coding-agent|ai|agent-core|tui)|@mariozechner/pi-(coding-agent|ai|agent-core|tui)|typebox|@sinclair/typebox)$`)

// IsHostPackage reports whether name is one of the packages pi provides.
func IsHostPackage(name string) bool { return hostPackage.get().MatchString(name) }

// NpmSpec is one package to add to an npm root: Want is a range, an
// exact version, a dist-tag or empty (latest).
type NpmSpec struct {
	Name, Want string
}

// ParseNpmSpec splits "name@want".
func ParseNpmSpec(spec string) NpmSpec {
	s := Parse("npm:" + spec)
	return NpmSpec{Name: s.Name, Want: s.Version}
}

// Npm installs packages into an npm root (<root>/package.json and
// <root>/node_modules), laid out as npm lays them out, so npm itself
// (which the reference runs) accepts and keeps the tree: dependencies are
// hoisted to the top node_modules unless another version is there, the
// root package.json lists the installed packages, and package-lock.json
// describes the tree. Lifecycle scripts are not run and no .bin links are
// made: pi loads packages, it does not run their programs.
type Npm struct {
	Root     string
	Registry *Registry

	// Checkout is a git package's own folder: its package.json is the
	// author's and is read, never written, and no lockfile is made.
	Checkout bool

	lockOnce sync.Once
	locked   map[string]*PackageVersion
}

// node is one package in the tree being built.
type node struct {
	name, path string // path: its directory
	pv         *PackageVersion
	parent     *node
	children   map[string]*node
	// fetch is set when the directory must be (re)written from the
	// registry; kept nodes are already on disk at this version.
	fetch    bool
	optional bool
}

// rootManifest is the root package.json's own fields the tree keeps.
type rootManifest struct {
	obj  jsonx.Object
	deps []NpmSpec // "dependencies" in file order
}

func (n *Npm) manifestPath() string { return filepath.Join(n.Root, "package.json") }

// checkoutLockPath is the install lock of a git checkout at dir.
func checkoutLockPath(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".pi-install.lock")
}

// lock serialises installs into the root. A git checkout's lock file
// lives beside it, not in it: the checkout stays as git left it.
func (n *Npm) lock() (func(), error) {
	if n.Checkout {
		return lockFile(checkoutLockPath(n.Root))
	}
	return lockFile(filepath.Join(n.Root, ".pi-install.lock"))
}

// ensureProject creates the root as the reference does: the folder, a
// .gitignore that ignores everything, and a minimal private package.json.
func ensureProject(root string) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", root, err)
	}
	if err := ensureGitIgnore(root); err != nil {
		return err
	}
	pj := filepath.Join(root, "package.json")
	if _, err := os.Stat(pj); errors.Is(err, os.ErrNotExist) {
		if err := writeJSONFile(pj, jsonx.Object{}.Set("name", "pi-extensions").Set("private", true), false); err != nil {
			return err
		}
	}
	return nil
}

func ensureGitIgnore(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	p := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(p, []byte("*\n!.gitignore\n"), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
	}
	return nil
}

func (n *Npm) readRoot() (*rootManifest, error) {
	b, err := os.ReadFile(n.manifestPath())
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", n.manifestPath(), err)
	}
	tree, err := jsonx.Decode(stripBOM(b))
	obj, ok := tree.(jsonx.Object)
	if err != nil || !ok {
		return nil, fmt.Errorf("%s is not a JSON object", n.manifestPath())
	}
	m := &rootManifest{obj: obj}
	if d, ok := obj.Get("dependencies"); ok {
		if deps, ok := d.(jsonx.Object); ok {
			for _, f := range deps {
				if v, ok := f.Value.(string); ok {
					m.deps = append(m.deps, NpmSpec{Name: f.Key, Want: v})
				}
			}
		}
	}
	return m, nil
}

// Install adds specs to the root and brings node_modules in line with
// the root's dependencies. fresh names are resolved from the registry
// even when an installed copy satisfies (updates).
func (n *Npm) Install(ctx context.Context, specs []NpmSpec) error {
	if err := os.MkdirAll(n.Root, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", n.Root, err)
	}
	unlock, err := n.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if !n.Checkout {
		if err := ensureProject(n.Root); err != nil {
			return err
		}
	}
	m, err := n.readRoot()
	if err != nil {
		return err
	}
	fresh := map[string]string{}
	for _, s := range specs {
		fresh[s.Name] = s.Want
	}
	// The requested specs first, so the tree resolves them as asked;
	// what the root already lists keeps its saved range.
	var edges []NpmSpec
	for _, s := range specs {
		edges = append(edges, s)
	}
	for _, d := range m.deps {
		if _, ok := fresh[d.Name]; !ok {
			edges = append(edges, d)
		}
	}
	root, err := n.resolve(ctx, edges, fresh)
	if err != nil {
		return err
	}
	saved := map[string]string{}
	for _, d := range m.deps {
		saved[d.Name] = d.Want
	}
	for _, s := range specs {
		c := root.children[s.Name]
		if c == nil {
			continue
		}
		saved[s.Name] = saveRange(s.Want, c.pv.Version)
	}
	return n.apply(ctx, root, m, saved)
}

// Uninstall removes name from the root and prunes what only it needed.
func (n *Npm) Uninstall(ctx context.Context, name string) error {
	if _, err := os.Stat(n.manifestPath()); err != nil {
		return nil
	}
	unlock, err := n.lock()
	if err != nil {
		return err
	}
	defer unlock()
	m, err := n.readRoot()
	if err != nil {
		return err
	}
	var edges []NpmSpec
	saved := map[string]string{}
	for _, d := range m.deps {
		if d.Name != name {
			edges = append(edges, d)
			saved[d.Name] = d.Want
		}
	}
	root, err := n.resolve(ctx, edges, nil)
	if err != nil {
		return err
	}
	return n.apply(ctx, root, m, saved)
}

// saveRange is what npm writes to package.json for an install of want
// that resolved to version: a range stays as given, anything else (an
// exact version, a tag, nothing) becomes ^version.
func saveRange(want, version string) string {
	if want != "" && validRange(want) {
		if _, err := parseVersion(want); err != nil {
			return want
		}
	}
	return "^" + version
}

// resolve builds the tree for the root's edges: each dependency is found
// where Node's resolution would find it from its dependent, or placed
// as high as it can go without shadowing another version, as npm's
// hoisting does. A copy already on disk at that place is kept when it
// satisfies (and is not in fresh); otherwise the registry decides.
func (n *Npm) resolve(ctx context.Context, edges []NpmSpec, fresh map[string]string) (*node, error) {
	root := &node{path: n.Root, children: map[string]*node{}}
	type edge struct {
		from     *node
		spec     NpmSpec
		optional bool
	}
	var queue []edge
	for _, e := range edges {
		queue = append(queue, edge{from: root, spec: e})
	}
	names := make([]string, 0, len(edges))
	for _, e := range edges {
		names = append(names, e.Name)
	}
	n.Registry.Prefetch(ctx, names...)
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		name, want := e.spec.Name, e.spec.Want
		if IsHostPackage(name) {
			continue
		}
		chain := []*node{}
		for p := e.from; p != nil; p = p.parent {
			chain = append([]*node{p}, chain...)
		}
		// The copy Node would find from e.from: the nearest ancestor's.
		deepest := -1
		for i := len(chain) - 1; i >= 0; i-- {
			if _, ok := chain[i].children[name]; ok {
				deepest = i
				break
			}
		}
		if deepest >= 0 {
			c := chain[deepest].children[name]
			if satisfiesWant(c.pv, want) {
				continue
			}
		}
		at := chain[deepest+1:]
		if len(at) == 0 {
			// The dependent itself has the name: the package depends on
			// a version of itself (a cycle with another version); nest.
			at = []*node{e.from}
		}
		var place *node
		for _, l := range at {
			if l.children[name] == nil && !shadows(l, name, e.from) {
				place = l
				break
			}
		}
		if place == nil {
			place = e.from
		}
		dir := filepath.Join(place.path, "node_modules", filepath.FromSlash(name))
		_, isFresh := fresh[name]
		isFresh = isFresh && place == root
		var pv *PackageVersion
		onDisk := false
		if !isFresh {
			if disk := readInstalled(dir); disk != nil && disk.Name == name && satisfiesWant(disk, want) {
				pv, onDisk = disk, true
				if lp := n.lockedVersion(dir); lp != nil && lp.Version == disk.Version {
					pv.Dist = lp.Dist
				}
			}
		}
		if pv == nil {
			var err error
			pv, err = n.Registry.Resolve(ctx, name, want)
			if err != nil {
				if e.optional {
					continue
				}
				return nil, err
			}
			if e.optional && !platformOK(pv) {
				continue
			}
			if disk := readInstalled(dir); disk != nil && disk.Name == name && disk.Version == pv.Version {
				// Asked for afresh, and already there at that version.
				onDisk = true
			}
		}
		c := &node{name: name, path: dir, pv: pv, parent: place, children: map[string]*node{}, optional: e.optional}
		c.fetch = !onDisk || (place.fetch)
		place.children[name] = c
		deps := sortedKeys(pv.Dependencies)
		bundled := pv.bundled()
		var next []string
		for _, d := range deps {
			if bundled[d] {
				// Shipped in the package's own node_modules.
				continue
			}
			_, opt := pv.OptionalDependencies[d]
			queue = append(queue, edge{from: c, spec: NpmSpec{Name: d, Want: pv.Dependencies[d]}, optional: opt})
			next = append(next, d)
		}
		for _, d := range sortedKeys(pv.OptionalDependencies) {
			if _, ok := pv.Dependencies[d]; !ok {
				queue = append(queue, edge{from: c, spec: NpmSpec{Name: d, Want: pv.OptionalDependencies[d]}, optional: true})
				next = append(next, d)
			}
		}
		n.Registry.Prefetch(ctx, next...)
	}
	return root, nil
}

// shadows reports whether placing name at l would change what an
// already resolved package under l (other than through from's own
// chain) finds for name: a package in l's subtree that uses name from
// above l.
func shadows(l *node, name string, from *node) bool {
	var above *node
	for p := l.parent; p != nil; p = p.parent {
		if c := p.children[name]; c != nil {
			above = c
			break
		}
	}
	if above == nil {
		return false
	}
	var walk func(x *node) bool
	walk = func(x *node) bool {
		for _, c := range x.children {
			if c.children[name] != nil {
				continue
			}
			if _, ok := c.pv.Dependencies[name]; ok {
				return true
			}
			if walk(c) {
				return true
			}
		}
		return false
	}
	return walk(l)
}

func satisfiesWant(pv *PackageVersion, want string) bool {
	if want == "" || want == "*" || want == "latest" {
		return true
	}
	if !validRange(want) {
		// A dist-tag other than latest, or a non-registry spec
		// (git, file, URL): an installed copy is kept.
		return true
	}
	return satisfies(pv.Version, want)
}

// platformOK reports whether an optional package's os and cpu lists
// allow this machine.
func platformOK(pv *PackageVersion) bool {
	match := func(list []string, v string) bool {
		if len(list) == 0 {
			return true
		}
		allowed := false
		for _, e := range list {
			if e == "!"+v {
				return false
			}
			if e == v || strings.HasPrefix(e, "!") {
				allowed = true
			}
		}
		return allowed
	}
	goos := runtime.GOOS
	if goos == "windows" {
		goos = "win32"
	}
	arch := map[string]string{"amd64": "x64", "386": "ia32"}[runtime.GOARCH]
	if arch == "" {
		arch = runtime.GOARCH
	}
	return match(pv.OS, goos) && match(pv.CPU, arch)
}

// readInstalled reads the manifest of the package installed in dir.
func readInstalled(dir string) *PackageVersion {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil
	}
	var pv PackageVersion
	if json.Unmarshal(stripBOM(b), &pv) != nil || pv.Version == "" {
		return nil
	}
	return &pv
}

// lockedVersion is the package-lock.json entry of the package at dir.
func (n *Npm) lockedVersion(dir string) *PackageVersion {
	n.lockOnce.Do(func() {
		b, err := os.ReadFile(filepath.Join(n.Root, "package-lock.json"))
		if err != nil {
			return
		}
		var lock struct {
			Packages map[string]struct {
				Version   string `json:"version"`
				Resolved  string `json:"resolved"`
				Integrity string `json:"integrity"`
			} `json:"packages"`
		}
		if json.Unmarshal(b, &lock) != nil {
			return
		}
		n.locked = map[string]*PackageVersion{}
		for k, v := range lock.Packages {
			pv := &PackageVersion{Version: v.Version}
			pv.Dist.Tarball, pv.Dist.Integrity = v.Resolved, v.Integrity
			n.locked[k] = pv
		}
	})
	rel, err := filepath.Rel(n.Root, dir)
	if err != nil {
		return nil
	}
	return n.locked[filepath.ToSlash(rel)]
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// all lists the tree's packages, parents before their nested children.
func (r *node) all() []*node {
	var out []*node
	level := []*node{r}
	for len(level) > 0 {
		var next []*node
		for _, p := range level {
			for _, k := range sortedNodeKeys(p.children) {
				c := p.children[k]
				out = append(out, c)
				next = append(next, c)
			}
		}
		level = next
	}
	return out
}

func sortedNodeKeys(m map[string]*node) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// apply makes node_modules the tree: every package that must be fetched
// is downloaded and checked into a staging folder first (side by side),
// and only then moved into place, parents first, each replacing the old
// copy with two renames; packages no longer in the tree are removed.
// The root package.json and package-lock.json are written last.
func (n *Npm) apply(ctx context.Context, root *node, m *rootManifest, saved map[string]string) error {
	nm := filepath.Join(n.Root, "node_modules")
	if err := os.MkdirAll(nm, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", nm, err)
	}
	staging, err := os.MkdirTemp(nm, ".pi-staging-")
	if err != nil {
		return fmt.Errorf("create staging folder: %w", err)
	}
	defer os.RemoveAll(staging)
	nodes := root.all()
	var fetch []*node
	for _, c := range nodes {
		if c.fetch {
			fetch = append(fetch, c)
		}
	}
	staged := make([]string, len(fetch))
	errs := make([]error, len(fetch))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, c := range fetch {
		staged[i] = filepath.Join(staging, fmt.Sprint(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = n.Registry.Download(ctx, c.pv, staged[i])
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			if fetch[i].optional {
				staged[i] = ""
				continue
			}
			return err
		}
	}
	for i, c := range fetch {
		if staged[i] == "" {
			continue
		}
		if err := replaceDir(staged[i], c.path, staging); err != nil {
			return err
		}
	}
	keep := map[string]bool{}
	for _, c := range nodes {
		keep[c.path] = true
		if len(c.pv.bundled()) > 0 {
			// Its node_modules holds its bundle: not ours to prune.
			keep[filepath.Join(c.path, "node_modules")+"/"] = true
		}
	}
	pruneExtraneous(nm, keep, staging)
	// npm's hidden lockfile describes node_modules as npm last left it;
	// it is stale now, and npm reads the tree itself without it.
	_ = os.Remove(filepath.Join(nm, ".package-lock.json"))
	if n.Checkout {
		return nil
	}
	if err := n.writeRoot(m, saved); err != nil {
		return err
	}
	return n.writeLock(root, saved)
}

// replaceDir moves src to dst, replacing what is there: the old copy is
// renamed aside first, so dst is always either the old or the new
// package, never a half-written one.
func replaceDir(src, dst, staging string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(dst), err)
	}
	old := ""
	if _, err := os.Lstat(dst); err == nil {
		old = filepath.Join(staging, ".old-"+strings.ReplaceAll(filepath.Base(dst), "/", "_")+fmt.Sprint(len(dst)))
		for i := 0; ; i++ {
			if _, err := os.Lstat(old + fmt.Sprint(i)); err != nil {
				old += fmt.Sprint(i)
				break
			}
		}
		if err := os.Rename(dst, old); err != nil {
			return fmt.Errorf("replace %s: %w", dst, err)
		}
	}
	if err := os.Rename(src, dst); err != nil {
		if old != "" {
			_ = os.Rename(old, dst)
		}
		return fmt.Errorf("install %s: %w", dst, err)
	}
	return nil
}

// pruneExtraneous removes package folders under node_modules dir that
// are not in keep, and looks into the nested node_modules of those that
// are.
func pruneExtraneous(dir string, keep map[string]bool, staging string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(dir, name)
		if strings.HasPrefix(name, "@") && e.IsDir() {
			pruneExtraneous(p, keep, staging)
			if rest, _ := os.ReadDir(p); len(rest) == 0 {
				_ = os.Remove(p)
			}
			continue
		}
		if !keep[p] {
			_ = os.RemoveAll(p)
			continue
		}
		if nested := filepath.Join(p, "node_modules"); !keep[nested+"/"] {
			pruneExtraneous(nested, keep, staging)
		}
	}
}

// writeRoot writes the root package.json with its dependencies as saved
// (sorted by name, as npm writes them; the key goes away when empty).
func (n *Npm) writeRoot(m *rootManifest, saved map[string]string) error {
	obj := m.obj
	if len(saved) == 0 {
		obj = obj.Delete("dependencies")
	} else {
		var deps jsonx.Object
		for _, k := range sortedKeys(saved) {
			deps = deps.Set(k, saved[k])
		}
		obj = obj.Put("dependencies", deps)
	}
	return writeJSONFile(n.manifestPath(), obj, false)
}

// writeLock writes package-lock.json (lockfileVersion 3) for the tree.
func (n *Npm) writeLock(root *node, saved map[string]string) error {
	name := "pi-extensions"
	if m, err := n.readRoot(); err == nil {
		if v, ok := m.obj.Get("name"); ok {
			if s, ok := v.(string); ok {
				name = s
			}
		}
	}
	self := jsonx.Object{}.Set("name", name)
	if len(saved) > 0 {
		var deps jsonx.Object
		for _, k := range sortedKeys(saved) {
			deps = deps.Set(k, saved[k])
		}
		self = self.Set("dependencies", deps)
	}
	pkgs := jsonx.Object{}.Set("", self)
	nodes := root.all()
	sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].path < nodes[j].path })
	for _, c := range nodes {
		rel, _ := filepath.Rel(n.Root, c.path)
		e := jsonx.Object{}.Set("version", c.pv.Version)
		if c.pv.Dist.Tarball != "" {
			e = e.Set("resolved", c.pv.Dist.Tarball)
		}
		if c.pv.Dist.Integrity != "" {
			e = e.Set("integrity", c.pv.Dist.Integrity)
		}
		if c.optional {
			e = e.Set("optional", true)
		}
		for _, f := range []struct {
			key string
			m   map[string]string
		}{{"dependencies", c.pv.Dependencies}, {"optionalDependencies", c.pv.OptionalDependencies}, {"peerDependencies", c.pv.PeerDependencies}} {
			if len(f.m) == 0 {
				continue
			}
			var d jsonx.Object
			for _, k := range sortedKeys(f.m) {
				d = d.Set(k, f.m[k])
			}
			e = e.Set(f.key, d)
		}
		for _, f := range []struct {
			key string
			raw json.RawMessage
		}{{"bin", c.pv.Bin}, {"engines", c.pv.Engines}} {
			if len(f.raw) > 0 && string(f.raw) != "null" {
				e = e.Set(f.key, f.raw)
			}
		}
		pkgs = pkgs.Set(filepath.ToSlash(rel), e)
	}
	lock := jsonx.Object{}.Set("name", name).Set("lockfileVersion", 3).Set("requires", true).Set("packages", pkgs)
	return writeJSONFile(filepath.Join(n.Root, "package-lock.json"), lock, true)
}

// Installed is the version of the package installed at dir ("" when
// none).
func Installed(dir string) string {
	if pv := readInstalled(dir); pv != nil {
		return pv.Version
	}
	return ""
}
