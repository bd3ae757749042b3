package jsruntime

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// compilerVersion is part of every cache key: bump it whenever the esbuild
// options, the plugins or the wrapper change the produced code.
const compilerVersion = "jsruntime-bundle-9"

// LoadFailureHint is printed on stderr after fatal extension load errors,
// as the reference does.
const LoadFailureHint = `Hint: Start without extensions using "pi -ne".`

// Bundle is one extension entry compiled to a CommonJS script.
type Bundle struct {
	Entry  string   // absolute entry file
	Code   string   // CommonJS code with an inline source map
	Inputs []string // every file bundled, absolute
	Cached bool     // served from the transpile cache
}

// CompileError is an esbuild error with its position in the original
// source. Column is zero-based, as the reference prints it.
type CompileError struct {
	File         string
	Line, Column int
	Text         string
	// Missing is the module specifier when the error is an unresolvable
	// import; the message then matches Node's "Cannot find module".
	Missing string
}

// Error formats the error as the reference's loader words it.
func (e *CompileError) Error() string {
	if e.Missing != "" {
		return fmt.Sprintf("Cannot find module '%s'\nRequire stack:\n- %s", e.Missing, e.File)
	}
	return fmt.Sprintf("ParseError: %s\n %s", e.Text, e.Position())
}

// Position is "file:line:col".
func (e *CompileError) Position() string {
	return fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column)
}

// hostModuleFilter matches the packages the host provides at run time.
// It must not match other @earendil-works packages (gondolin is a real npm
// dependency), so the list is explicit. esbuild compiles the filter
// itself; Go never needs it as a regexp.
const hostModuleFilter = `^(@earendil-works/pi-(coding-agent|ai|agent-core|tui)|@mariozechner/pi-(coding-agent|ai|agent-core|tui)|typebox|@sinclair/typebox)(/.*)?$`

// supported lowers exactly the syntax goja lacks; everything else is kept
// modern (an older target would reject BigInt literals).
var supported = map[string]bool{
	"async-generator":                 false,
	"for-await":                       false,
	"dynamic-import":                  false,
	"import-meta":                     false,
	"top-level-await":                 false,
	"using":                           false,
	"decorators":                      false,
	"regexp-set-notation":             false,
	"regexp-match-indices":            false,
	"regexp-unicode-property-escapes": false,
}

// optionsFingerprint feeds the cache key so that a change of options
// invalidates old bundles.
var optionsFingerprint = sync.OnceValue(func() string {
	keys := make([]string, 0, len(supported))
	for k := range supported {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return compilerVersion + "|" + hostModuleFilter + "|" + strings.Join(keys, ",")
})

var sourceFilePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.(m|c)?(j|t)sx?$`) })

// hostPlugin keeps host packages out of the bundle; the runtime's require
// resolves them from the module map.
var hostPlugin = api.Plugin{
	Name: "pi-host-modules",
	Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: hostModuleFilter}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, External: true}, nil
		})
	},
}

// importMetaPlugin rewrites import.meta.{url,filename,dirname,dir} to the
// literal values of the file being loaded. A global define would give every
// file of the bundle the entry's values.
var importMetaPlugin = api.Plugin{
	Name: "pi-import-meta",
	Setup: func(b api.PluginBuild) {
		b.OnLoad(api.OnLoadOptions{Filter: sourceFilePattern().String(), Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := os.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			needMeta := strings.Contains(string(src), "import.meta")
			needDirs := strings.Contains(string(src), "__dirname") || strings.Contains(string(src), "__filename")
			if !needMeta && !needDirs {
				return api.OnLoadResult{}, nil // esbuild loads it itself
			}
			text := string(src)
			if needMeta {
				text = rewriteImportMeta(text, a.Path)
			}
			if needDirs {
				text = injectDirnames(text, a.Path)
			}
			return api.OnLoadResult{Contents: &text, ResolveDir: filepath.Dir(a.Path), Loader: loaderFor(a.Path)}, nil
		})
	},
}

var importMetaRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`import\.meta\.(url|filename|dirname|dir|resolve)\b`)
})

func rewriteImportMeta(src, file string) string {
	lit := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return importMetaRef().ReplaceAllStringFunc(src, func(m string) string {
		switch strings.TrimPrefix(m, "import.meta.") {
		case "resolve":
			// Resolved relative to this file by the runtime's
			// createRequire (hostjs/pi_internal_require.js).
			return `require("node:module").createRequire(` + lit(file) + `)[Symbol.for("pi.importMetaResolve")]`
		case "url":
			return lit(fileURL(file))
		case "filename":
			return lit(file)
		default:
			return lit(filepath.Dir(file))
		}
	})
}

var declaresDirnames = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(const|let|var|function)\s+__(dirname|filename)\b`)
})

// injectDirnames gives a file its own __dirname and __filename, which the
// bundle would otherwise share with the entry file. esbuild renames the
// constants per module, so files do not collide. A file that declares
// either name itself (the usual fileURLToPath(import.meta.url) idiom) is
// left alone.
func injectDirnames(src, file string) string {
	if declaresDirnames().MatchString(src) {
		return src
	}
	lit := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	// One line, so that source-map line numbers of the file stay right.
	return "const __dirname = " + lit(filepath.Dir(file)) + ", __filename = " + lit(file) + "; " + src
}

// fileURL is Node's pathToFileURL for an absolute path.
func fileURL(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

func loaderFor(p string) api.Loader {
	switch {
	case strings.HasSuffix(p, ".tsx"):
		return api.LoaderTSX
	case strings.HasSuffix(p, ".ts"), strings.HasSuffix(p, ".mts"), strings.HasSuffix(p, ".cts"):
		return api.LoaderTS
	case strings.HasSuffix(p, ".jsx"):
		return api.LoaderJSX
	default:
		return api.LoaderJS
	}
}

// Compiler bundles extensions and caches the results.
type Compiler struct {
	// CacheDir holds cached bundles; empty disables the cache.
	CacheDir string
}

// NewCompiler caches under <agentDir>/cache/extensions (no cache when
// agentDir is empty).
func NewCompiler(agentDir string) *Compiler {
	if agentDir == "" {
		return &Compiler{}
	}
	return &Compiler{CacheDir: filepath.Join(agentDir, "cache", "extensions")}
}

type cacheInput struct {
	Path string `json:"path"`
	Hash string `json:"hash"`
}

// cacheHeader is the first line of a cache file; the bundle's code
// follows it verbatim, so reading a cached bundle decodes a few hundred
// bytes of JSON instead of unescaping the whole code.
type cacheHeader struct {
	Inputs []cacheInput `json:"inputs"`
}

func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func (c *Compiler) cachePath(entry string) string {
	return filepath.Join(c.CacheDir, hashBytes([]byte(optionsFingerprint()+"\x00"+entry))+".bundle")
}

// lookup returns the cached bundle when every input still has the hash it
// had when the bundle was made.
func (c *Compiler) lookup(entry string) (*Bundle, bool) {
	if c.CacheDir == "" {
		return nil, false
	}
	b, err := os.ReadFile(c.cachePath(entry))
	if err != nil {
		return nil, false
	}
	head, code, ok := bytes.Cut(b, []byte("\n"))
	var cf cacheHeader
	if !ok || json.Unmarshal(head, &cf) != nil || len(cf.Inputs) == 0 {
		return nil, false
	}
	inputs := make([]string, len(cf.Inputs))
	for i, in := range cf.Inputs {
		src, err := os.ReadFile(in.Path)
		if err != nil || hashBytes(src) != in.Hash {
			return nil, false
		}
		inputs[i] = in.Path
	}
	return &Bundle{Entry: entry, Code: string(code), Inputs: inputs, Cached: true}, true
}

// store writes the bundle atomically; a failure only costs a rebuild later.
func (c *Compiler) store(b *Bundle) {
	if c.CacheDir == "" {
		return
	}
	var cf cacheHeader
	for _, p := range b.Inputs {
		src, err := os.ReadFile(p)
		if err != nil {
			return
		}
		cf.Inputs = append(cf.Inputs, cacheInput{Path: p, Hash: hashBytes(src)})
	}
	head, err := json.Marshal(cf) // one line: Marshal escapes newlines
	data := append(append(head, '\n'), b.Code...)
	if err != nil || os.MkdirAll(c.CacheDir, 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(c.CacheDir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), c.cachePath(b.Entry)) != nil {
		_ = os.Remove(tmp.Name())
	}
}

// buildOptions are the esbuild options of every bundle; the caller sets
// the entry points and output paths.
func buildOptions(wd string) api.BuildOptions {
	return api.BuildOptions{
		AbsWorkingDir:  wd,
		Bundle:         true,
		Write:          false,
		Format:         api.FormatCommonJS,
		Platform:       api.PlatformNode,
		Target:         api.ESNext,
		Supported:      supported,
		Plugins:        []api.Plugin{hostPlugin, importMetaPlugin, nativeAddonPlugin},
		Sourcemap:      api.SourceMapInline,
		SourcesContent: api.SourcesContentExclude, // goja maps positions without the sources
		KeepNames:      true,
		Charset:        api.CharsetUTF8,
		LegalComments:  api.LegalCommentsNone,
		LogLevel:       api.LogLevelSilent,
		Metafile:       true,
	}
}

// Compile bundles one entry file, from the cache when it is current.
func (c *Compiler) Compile(ctx context.Context, entry string) (*Bundle, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if b, ok := c.lookup(entry); ok {
		return b, nil
	}
	if _, err := os.Stat(entry); err != nil {
		return nil, &CompileError{File: entry, Missing: entry}
	}
	opts := buildOptions(filepath.Dir(entry))
	opts.EntryPoints = []string{entry}
	opts.Outfile = entry + ".bundle.js"
	res := api.Build(opts)
	tla := len(res.Errors) > 0 && refusesTopLevelAwait(res.Errors)
	if tla {
		// Only a module with top-level await takes the slower ESM path,
		// so the start cost of every other extension stays as it was.
		res = api.Build(tlaOptions(opts))
	}
	var missing []string
	if len(res.Errors) > 0 {
		// Modules that are not installed become stand-ins that fail on
		// first use (compile_lazy.go), so the extension loads as it does
		// under the reference's loader.
		if missing = unresolvedSpecs(res.Errors); missing != nil {
			retry := withMissingModules(opts, missing)
			if tla {
				retry = withMissingModules(tlaOptions(opts), missing)
			}
			res = api.Build(retry)
		}
	}
	if len(res.Errors) > 0 {
		return nil, compileError(entry, res.Errors[0])
	}
	var code string
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			code = string(f.Contents)
		}
	}
	if tla {
		var err error
		if code, err = wrapTopLevelAwait(code); err != nil {
			return nil, &CompileError{File: entry, Text: err.Error()}
		}
	}
	inputs := metafileInputs(res.Metafile, filepath.Dir(entry))
	code = markStrict(rewriteBundle(code), inputs, inputFormats(res.Metafile, filepath.Dir(entry)))
	b := &Bundle{Entry: entry, Code: code, Inputs: inputs}
	if missing == nil {
		// A bundle with stand-ins is not cached: installing the missing
		// module later changes none of its inputs.
		c.store(b)
	}
	return b, nil
}

var couldNotResolve = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Could not resolve "([^"]+)"`) })

func compileError(entry string, m api.Message) *CompileError {
	e := &CompileError{File: entry, Text: m.Text}
	if m.Location != nil {
		e.File = m.Location.File
		if !filepath.IsAbs(e.File) {
			e.File = filepath.Join(filepath.Dir(entry), e.File)
		}
		e.Line, e.Column = m.Location.Line, m.Location.Column
	}
	if sm := couldNotResolve().FindStringSubmatch(m.Text); sm != nil {
		e.Missing = sm[1]
	}
	return e
}

// metafileInputs lists the bundled files (relative to the working dir in
// esbuild's metafile) as absolute paths.
func metafileInputs(meta, wd string) []string {
	var m struct {
		Inputs map[string]json.RawMessage `json:"inputs"`
	}
	if json.Unmarshal([]byte(meta), &m) != nil {
		return nil
	}
	out := make([]string, 0, len(m.Inputs))
	for p := range m.Inputs {
		if strings.Contains(p, ":") && !filepath.IsAbs(p) {
			continue // plugin namespaces, not files
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// CompileResult pairs an entry with its bundle or error.
type CompileResult struct {
	Bundle *Bundle
	Err    error
}

// CompileAll bundles the entries; results keep the entries' order.
// Current bundles come from the cache. The entries of one directory that
// need building are built by one esbuild run with an entry point each:
// esbuild then reads directories, package files and tsconfigs once and
// spreads the work over its own threads, which takes about half the time
// of one run per entry. Such a run produces the same code as single runs
// because the working directory is the same (esbuild derives comments
// and generated names from paths relative to it), and each output is
// written next to its entry as a single run writes it, so source maps
// match too. If the run reports any error, its entries are built one by
// one instead, so each error belongs to its own entry as before.
// Directories are built in parallel, at most GOMAXPROCS at a time.
func (c *Compiler) CompileAll(ctx context.Context, entries []string) []CompileResult {
	out := make([]CompileResult, len(entries))
	groups := map[string][]int{}
	var dirs []string
	for i, e := range entries {
		if b, ok := c.lookup(e); ok {
			out[i] = CompileResult{Bundle: b}
			continue
		}
		d := filepath.Dir(e)
		if _, ok := groups[d]; !ok {
			dirs = append(dirs, d)
		}
		groups[d] = append(groups[d], i)
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, d := range dirs {
		wg.Add(1)
		sem <- struct{}{}
		go func(idx []int) {
			defer func() { <-sem; wg.Done() }()
			c.buildGroup(ctx, entries, idx, out)
		}(groups[d])
	}
	wg.Wait()
	return out
}

// buildGroup builds entries[i] for each i in idx, entries of one
// directory: together when there are several, else (or when building
// together fails) one by one.
func (c *Compiler) buildGroup(ctx context.Context, entries []string, idx []int, out []CompileResult) {
	if len(idx) > 1 && ctx.Err() == nil {
		var paths []string
		for _, i := range idx {
			if _, err := os.Stat(entries[i]); err == nil {
				paths = append(paths, entries[i])
			}
		}
		if len(paths) == len(idx) {
			if bundles, ok := c.buildTogether(paths); ok {
				for k, i := range idx {
					out[i] = CompileResult{Bundle: bundles[k]}
				}
				return
			}
		}
	}
	for _, i := range idx {
		b, err := c.Compile(ctx, entries[i])
		out[i] = CompileResult{Bundle: b, Err: err}
	}
}

// buildTogether bundles several entries of one directory in one esbuild
// run. It reports false when the run has errors or its outputs cannot be
// matched to the entries.
func (c *Compiler) buildTogether(entries []string) ([]*Bundle, bool) {
	wd := filepath.Dir(entries[0]) // all entries are in this directory
	opts := buildOptions(wd)
	opts.Outdir = "/"
	for _, e := range entries {
		// Relative to Outdir "/", so each output lands where Compile
		// puts it: <entry>.bundle.js.
		opts.EntryPointsAdvanced = append(opts.EntryPointsAdvanced, api.EntryPoint{
			InputPath: e, OutputPath: strings.TrimPrefix(filepath.ToSlash(e), "/") + ".bundle",
		})
	}
	res := api.Build(opts)
	if len(res.Errors) > 0 {
		return nil, false
	}
	code := map[string]string{}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			code[f.Path] = string(f.Contents)
		}
	}
	inputs := metafileOutputInputs(res.Metafile, wd)
	formats := inputFormats(res.Metafile, wd)
	bundles := make([]*Bundle, len(entries))
	for k, e := range entries {
		outPath := e + ".bundle.js"
		src, ok := code[outPath]
		in, ok2 := inputs[outPath]
		if !ok || !ok2 {
			return nil, false
		}
		bundles[k] = &Bundle{Entry: e, Code: markStrict(rewriteBundle(src), in, formats), Inputs: in}
		c.store(bundles[k])
	}
	return bundles, true
}

// metafileOutputInputs maps each output file (absolute) of a metafile to
// the files its entry point reaches through imports (absolute, sorted). An
// output's own input list leaves out files that contribute no code (a
// module of TypeScript types), but a change to them must still invalidate
// the cached bundle, so the imports are followed instead.
func metafileOutputInputs(meta, wd string) map[string][]string {
	var m struct {
		Inputs map[string]struct {
			Imports []struct {
				Path     string `json:"path"`
				External bool   `json:"external"`
			} `json:"imports"`
		} `json:"inputs"`
		Outputs map[string]struct {
			EntryPoint string `json:"entryPoint"`
		} `json:"outputs"`
	}
	if json.Unmarshal([]byte(meta), &m) != nil {
		return nil
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(wd, p)
	}
	out := make(map[string][]string, len(m.Outputs))
	for o, v := range m.Outputs {
		if v.EntryPoint == "" {
			continue
		}
		seen := map[string]bool{v.EntryPoint: true}
		queue := []string{v.EntryPoint}
		var list []string
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			if _, ok := m.Inputs[p]; !ok || (strings.Contains(p, ":") && !filepath.IsAbs(p)) {
				continue // external, or a plugin namespace rather than a file
			}
			list = append(list, abs(p))
			for _, imp := range m.Inputs[p].Imports {
				if !imp.External && !seen[imp.Path] {
					seen[imp.Path] = true
					queue = append(queue, imp.Path)
				}
			}
		}
		sort.Strings(list)
		out[abs(o)] = list
	}
	return out
}
