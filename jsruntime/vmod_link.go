package jsruntime

// defaultVirtualSources returns the JS sources of the virtual host packages
// (module name → CommonJS source). They come from the vmod package once it
// exists; until then only a placeholder keeps the contract testable.
func defaultVirtualSources() map[string]string {
	return placeholderSources
}

// placeholderSources stands in for the vmod package: every host package
// resolves to an object that tolerates any property access, so extensions
// load while the real modules are being written.
var placeholderSources = func() map[string]string {
	const stub = `module.exports = __host.stubModule ? __host.stubModule(module) : new Proxy({}, { get(t, k) {
		if (k === "__esModule") return true;
		if (k === "default") return module.exports;
		if (typeof k === "symbol") return undefined;
		if (!(k in t)) { const f = function() { return new Proxy(function(){}, { get: (x, p) => p === "then" ? undefined : f, apply: () => f(), construct: () => ({}) }); }; t[k] = f; }
		return t[k];
	} });`
	m := map[string]string{}
	for _, name := range append(append([]string{}, piPackages...), "typebox", "typebox/value", "typebox/compile") {
		m[name] = stub
	}
	return m
}()
