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

// Extending the runtime (for the pi.* API layer):
//
//   - LoadOptions.Host.Setup runs on the loop before any extension and may
//     fill Runtime.HostObject(), the __host object every vmod module gets
//     (createTool, getAgentDir, complete, …). Defaults for the agent dir
//     and inert built-in tool factories are installed first.
//   - LoadOptions.Host.NewAPI builds the `pi` object per extension; the
//     default is a recording placeholder (api.go) whose Handler, ToolReg,
//     CommandReg and FlagReg structs keep the JS values for later calls.
//     Extension.Data holds per-extension state of the API layer.
//   - Go code that answers JS asynchronously calls Loop.Reserve on the loop
//     and completes the returned function exactly once from any goroutine;
//     Loop.Do runs a function on the loop and waits (never from the loop).
//   - Extension errors after loading reach LoadOptions.OnError; the RPC
//     layer turns them into extension_error records.
