package vmod

import (
	_ "embed" // the export lists are an embedded JSON file
	"encoding/json"
	"sync"
)

// LazyExports describes a package the runtime may load lazily: its exports
// are a plain object whose only non-enumerable property is __esModule
// (true). The runtime then hands out a stand-in object with these names
// and evaluates the package only when one of them is first read, so an
// extension that imports a package but touches it only in renderers or
// tool calls does not pay for compiling it at start-up.
type LazyExports struct {
	// Names are the own property names of the exports, in order.
	Names []string `json:"names"`
	// CoreNames are the names whose values the package's core module (see
	// Cores) exports too, identical; the stand-in serves them from there.
	CoreNames []string `json:"coreNames,omitempty"`
}

// Eager are packages evaluated when required even though they could load
// lazily: nearly every extension reads typebox's Type while it loads (tool
// parameter schemas), so a stand-in would only add a layer.
var Eager = map[string]bool{"typebox": true}

// exportsJSON holds the LazyExports of each package. It is generated from
// the modules themselves (go test ./jsruntime -run TestLazyExportNames
// -update) and a test fails when it no longer matches them.
//
//go:embed js/exports.json
var exportsJSON []byte

var exportLists = sync.OnceValue(func() map[string]LazyExports {
	var m map[string]LazyExports
	if json.Unmarshal(exportsJSON, &m) != nil {
		return nil
	}
	return m
})

// Lazy returns how a package may load lazily, or false when it must be
// evaluated at require time.
func Lazy(name string) (LazyExports, bool) {
	e, ok := exportLists()[name]
	return e, ok
}
