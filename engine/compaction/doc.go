// Package compaction holds the pure logic of context compaction and branch
// summaries: token estimates, where to cut a branch, how the summarised part
// is serialised for the model, the summary request(s) with their own retry,
// and the file-operation bookkeeping stored in an entry's details.
//
// The session runtime in package engine decides when to compact and records
// the result; it reaches this package through the engine.Compactor
// interface, which Compactor implements.
package compaction
