package vmod

import (
	_ "embed" // the export lists are an embedded JSON file
	"encoding/json"
	"sync"
)

// exportsJSON lists, per module, the own property names of its exports
// object in the order the module creates them. It is generated from the
// modules themselves (go test ./jsruntime -run TestLazyExportNames -update)
// and a test fails when it no longer matches them.
//
//go:embed js/exports.json
var exportsJSON []byte

var exportLists = sync.OnceValue(func() map[string][]string {
	var m map[string][]string
	if json.Unmarshal(exportsJSON, &m) != nil {
		return nil
	}
	return m
})

// ExportNames returns the own property names of a module's exports, in
// order, when the module may be loaded lazily: its exports are a plain
// object whose only non-enumerable property is __esModule (true). The
// runtime then hands out a stand-in object with these names and evaluates
// the module only when one of them is first read, so an extension that
// imports a package but touches it only in renderers or tool calls does
// not pay for compiling it at start-up.
func ExportNames(name string) ([]string, bool) {
	names, ok := exportLists()[name]
	return names, ok
}
