// Package jsruntime hosts pi extensions written in TypeScript or JavaScript.
//
// The pipeline has four stages, each in its own file:
//
//   - discover.go finds extension entry files in the reference's places and
//     order (CLI -e paths, project settings, project .pi/extensions, user
//     settings, ~/.pi/agent/extensions), de-duplicated by resolved path.
//   - compile.go bundles every entry with esbuild's Go API into one CommonJS
//     file goja can run, mapping host packages (pi, typebox, Node built-ins)
//     to external modules, and caches the result by content hash.
//   - loop.go owns the single goja runtime on one goroutine; every other
//     goroutine hands work back through one funnel, so JS never runs
//     concurrently with itself.
//   - modules.go and the node_*.go files provide the host modules an
//     extension can require: Node built-ins written in Go, and the virtual
//     pi packages whose JS sources live in the vmod subpackage.
//
// runtime.go ties them together: Load bundles in parallel, then evaluates
// each extension's factory in load order and records what it registered.
// All extensions share one runtime, as they share one Node heap in the
// reference: globals and host modules are singletons.
package jsruntime
