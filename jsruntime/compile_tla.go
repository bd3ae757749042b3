package jsruntime

import (
	"encoding/json"
	"errors"
	"maps"
	"regexp"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// The reference loads extensions as ES modules, so a module may await at
// its top level. goja runs CommonJS scripts only, and esbuild cannot put
// top-level await into CommonJS output. Such an entry is therefore bundled
// as an ES module in which every import of a host package or Node built-in
// is turned into a small CommonJS stub calling require, so that the only
// module syntax left is the final export statement. That statement becomes
// the return value of an async function wrapping the whole bundle, and the
// factory the loader sees awaits that function before it runs the module's
// own default export.

// refusesTopLevelAwait reports whether esbuild rejected the CommonJS build
// because a module awaits at its top level.
func refusesTopLevelAwait(msgs []api.Message) bool {
	for _, m := range msgs {
		if strings.HasPrefix(m.Text, "Top-level await is ") {
			return true
		}
	}
	return false
}

// requireNamespace holds the stubs that stand for external modules.
const requireNamespace = "pi-require"

// nodeBuiltinFilter matches every Node built-in module name (with or
// without the node: prefix): in ES module output esbuild would otherwise
// keep them as import statements.
const nodeBuiltinFilter = `^(node:.*|assert|assert/strict|async_hooks|buffer|child_process|cluster|console|constants|crypto|dgram|diagnostics_channel|dns|dns/promises|domain|events|fs|fs/promises|http|http2|https|inspector|module|net|os|path|path/posix|path/win32|perf_hooks|process|punycode|querystring|readline|readline/promises|repl|stream|stream/consumers|stream/promises|stream/web|string_decoder|sys|timers|timers/promises|tls|trace_events|tty|url|util|util/types|v8|vm|wasi|worker_threads|zlib)$`

// requireStubPlugin resolves host packages and Node built-ins to CommonJS
// stubs that require them at run time.
var requireStubPlugin = api.Plugin{
	Name: "pi-require-stubs",
	Setup: func(b api.PluginBuild) {
		stub := func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Namespace == requireNamespace {
				// The stub's own require call stays a plain require.
				return api.OnResolveResult{Path: a.Path, External: true}, nil
			}
			return api.OnResolveResult{Path: a.Path, Namespace: requireNamespace}, nil
		}
		b.OnResolve(api.OnResolveOptions{Filter: hostModuleFilter}, stub)
		b.OnResolve(api.OnResolveOptions{Filter: nodeBuiltinFilter}, stub)
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: requireNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			name, _ := json.Marshal(a.Path)
			text := "module.exports = require(" + string(name) + ");"
			return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS}, nil
		})
	},
}

// tlaOptions turns the CommonJS build options into the ES module build
// of an entry with top-level await.
func tlaOptions(opts api.BuildOptions) api.BuildOptions {
	sup := maps.Clone(opts.Supported)
	sup["top-level-await"] = true
	opts.Supported = sup
	opts.Format = api.FormatESModule
	opts.Plugins = []api.Plugin{requireStubPlugin, importMetaPlugin, nativeAddonPlugin}
	return opts
}

var (
	exportListPattern    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)\nexport \{([^}]*)\};\n`) })
	exportDefaultPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\nexport default ([^\n]*);\n`) })
	importPattern        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(import|export) `) })
)

// wrapTopLevelAwait turns esbuild's ES module output (no imports left,
// at most one export statement at the end) into a CommonJS script whose
// default export awaits the module's evaluation. The first line of code
// keeps its line so the inline source map still lines up.
func wrapTopLevelAwait(code string) (string, error) {
	body, mapComment := code, ""
	if i := strings.LastIndex(code, "\n//# sourceMappingURL="); i >= 0 {
		body, mapComment = code[:i+1], code[i+1:]
	}
	ret := "return {};"
	if loc := exportListPattern().FindStringSubmatchIndex(body); loc != nil {
		var fields []string
		for _, item := range strings.Split(body[loc[2]:loc[3]], ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			local, exported, ok := strings.Cut(item, " as ")
			if !ok {
				exported = local
			}
			key, _ := json.Marshal(strings.Trim(exported, `"`))
			fields = append(fields, string(key)+": "+local)
		}
		ret = "return {" + strings.Join(fields, ", ") + "};"
		body = body[:loc[0]+1] + body[loc[1]:]
	} else if loc := exportDefaultPattern().FindStringSubmatchIndex(body); loc != nil {
		ret = "return {default: (" + body[loc[2]:loc[3]] + ")};"
		body = body[:loc[0]+1] + body[loc[1]:]
	}
	if importPattern().MatchString(body) {
		return "", errors.New("top-level await: the ES module bundle kept import or export statements")
	}
	var sb strings.Builder
	sb.WriteString("var __piModule = (async () => {")
	sb.WriteString(body)
	sb.WriteString(ret)
	sb.WriteString("\n})();\n")
	sb.WriteString("module.exports = { __esModule: true, default: async function (...args) {\n")
	sb.WriteString("  const m = await __piModule;\n")
	sb.WriteString("  if (typeof m.default !== \"function\") return undefined;\n")
	sb.WriteString("  return m.default.apply(this, args);\n")
	sb.WriteString("} };\n")
	sb.WriteString(mapComment)
	return sb.String(), nil
}
