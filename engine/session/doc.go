// Package session stores a pi session as a JSONL file: a header line
// followed by one entry per line, forming a tree through parentId links.
//
// The on-disk format is the reference's version 3 (older files are migrated
// on open and rewritten). Beyond the reference, a File holds an exclusive
// advisory lock on its file while it writes, so two pi processes cannot
// interleave records in one session, and a half-written last line left by
// a crash is cut off on open instead of being fused with the next record.
//
// Opening a session reads it once, as a stream, and keeps an index: every
// entry but the messages is decoded, and a message keeps only its id,
// parent, timestamp, role, provider and model (scan.go), its body staying
// in the file. Bodies are decoded when asked for (a branch, the context
// for a model call, an export) and cached weakly (lazy.go), so a resumed
// 200 MB session costs a few MB until its context is needed, and the
// messages a compaction summarised never come back into memory. The
// runtime starts from BranchState, which the index answers.
package session
