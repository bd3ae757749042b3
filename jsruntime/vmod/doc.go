// Package vmod holds the JavaScript sources of the host modules that
// extensions import: typebox (+ /value, /compile), @earendil-works/pi-ai,
// pi-agent-core, pi-tui and the JavaScript half of pi-coding-agent.
//
// The sources are plain CommonJS written for goja. The runtime evaluates each
// one as (function(exports, require, module, __host){ ... }), where require
// resolves other host modules and Node built-ins by name and __host carries
// Go-provided functions (getAgentDir, createTool, truncateHead, ...). Every
// module guards __host so it also loads in a bare runtime, which is how the
// tests in this package run them.
//
// The runtime loads most packages lazily (see LazyExports): it builds their
// exports from js/exports.json before evaluating them. After changing what
// a module exports, regenerate that file with
// `go test ./jsruntime -run TestLazyExportNames -update`; the test fails
// while it is stale.
package vmod
