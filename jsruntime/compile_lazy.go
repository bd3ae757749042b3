package jsruntime

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Lazy modules. The reference loads extensions with jiti, which requires
// an imported module only when one of its bindings is first used, and
// Node, which loads a native addon (a .node file) like any module. So an
// extension whose import graph names a module that is not installed (a
// "*" peer dependency npm left out) or a native addon still loads there,
// as long as the load itself never touches it. esbuild resolves the whole
// graph up front and fails on either; these plugins put a stand-in module
// in their place that fails with a clear error on first use instead.

const (
	missingNamespace = "pi-missing"
)

// lazyModuleSource is the stand-in's code. The module object is a proxy
// whose every binding (a named import, the default import, a call or a
// construction) throws err(); esbuild's __toESM reads __esModule and the
// prototype, so the namespace it builds inherits the throwing bindings.
// deep makes property reads return further stand-ins, for native
// bindings that loaders destructure at load (napi-rs's index.js copies
// every export of the addon); only calling or constructing one throws.
const lazyModuleSource = `var spec = %SPEC%, deep = %DEEP%;
function err() {
  var e;
  if (deep) {
    e = new Error("Cannot load native addon '" + spec + "': native addons (.node files) are not supported in pi-go extensions");
    e.code = "ERR_DLOPEN_FAILED";
  } else {
    e = new Error("Cannot find module '" + spec + "'\nRequire stack:\n- " + %FROM%);
    e.code = "MODULE_NOT_FOUND";
    e.requireStack = [%FROM%];
  }
  throw e;
}
function inert(k) { return typeof k === "symbol" || k === "then" || k === "toJSON" || k === "constructor" || k === "asymmetricMatch" || k === "$$typeof" || k === "nodeType"; }
var proto = new Proxy({}, { get: function (t, k) { if (inert(k)) return undefined; return err(); } });
function standIn(path) {
  var kids = {};
  return new Proxy(function () {}, {
    get: function (t, k) {
      if (k === "__esModule") return !deep;
      if (inert(k)) return undefined;
      if (!deep) return err();
      if (!Object.prototype.hasOwnProperty.call(kids, k)) kids[k] = standIn(path + "." + String(k));
      return kids[k];
    },
    getPrototypeOf: function () { return deep ? Function.prototype : proto; },
    apply: function () { return err(); },
    construct: function () { return err(); },
  });
}
module.exports = standIn(spec);
`

func lazyModuleCode(spec, from string, deep bool) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	d := "false"
	if deep {
		d = "true"
	}
	return strings.NewReplacer("%SPEC%", q(spec), "%DEEP%", d, "%FROM%", q(from)).Replace(lazyModuleSource)
}

// nativeAddonPlugin bundles a .node file that a module requires (napi-rs
// loaders do, after checking the file exists) as a stand-in whose
// functions fail when called. Always on: a build without .node imports
// never calls it.
var nativeAddonPlugin = api.Plugin{
	Name: "pi-native-addons",
	Setup: func(b api.PluginBuild) {
		// On load rather than on resolve: a package whose "main" is the
		// addon (napi-rs's per-platform packages) resolves to it too.
		b.OnLoad(api.OnLoadOptions{Filter: `\.node$`, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			text := lazyModuleCode(a.Path, "", true)
			return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS}, nil
		})
	},
}

// missingModulesPlugin is added on a second build when the first could
// not resolve specs: a static import of one becomes a stand-in that fails
// on first use, as under jiti; a require() call or dynamic import() of
// one stays a plain call to the runtime's require, which throws "Cannot
// find module" when it runs (inside the try/catch of an optional
// dependency, as in Node).
func missingModulesPlugin(specs []string) api.Plugin {
	quoted := make([]string, len(specs))
	for i, s := range specs {
		quoted[i] = regexp.QuoteMeta(s)
	}
	filter := "^(?:" + strings.Join(quoted, "|") + ")$"
	return api.Plugin{
		Name: "pi-missing-modules",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: filter}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				if a.Kind != api.ResolveJSImportStatement {
					return api.OnResolveResult{Path: a.Path, External: true}, nil
				}
				// One stand-in per importer, so the error names the file
				// that imported the module, as Node's require stack does.
				return api.OnResolveResult{Path: a.Path + "\x00" + a.Importer, Namespace: missingNamespace}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: missingNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
				spec, from, _ := strings.Cut(a.Path, "\x00")
				text := lazyModuleCode(spec, from, false)
				return api.OnLoadResult{Contents: &text, Loader: api.LoaderJS}, nil
			})
		},
	}
}

// unresolvedSpecs returns the module specifiers of errors, when every
// error is esbuild's "Could not resolve" of a package name; any other
// error (a syntax error, a missing file) means the build cannot be saved
// by stand-ins.
func unresolvedSpecs(errs []api.Message) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range errs {
		sm := couldNotResolve().FindStringSubmatch(m.Text)
		// A missing file of the extension itself (a relative or absolute
		// path) is a broken extension, not an optional package.
		if sm == nil || strings.HasPrefix(sm[1], ".") || strings.HasPrefix(sm[1], "/") || filepath.IsAbs(sm[1]) {
			return nil
		}
		if !seen[sm[1]] {
			seen[sm[1]] = true
			out = append(out, sm[1])
		}
	}
	sort.Strings(out)
	return out
}

// withMissingModules is opts with stand-ins for specs.
func withMissingModules(opts api.BuildOptions, specs []string) api.BuildOptions {
	opts.Plugins = append([]api.Plugin{missingModulesPlugin(specs)}, opts.Plugins...)
	return opts
}
