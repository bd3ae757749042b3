// Package session stores a pi session as a JSONL file: a header line
// followed by one entry per line, forming a tree through parentId links.
//
// The on-disk format is the reference's version 3 (older files are migrated
// on open and rewritten). Beyond the reference, a File holds an exclusive
// advisory lock on its file while it writes, so two pi processes cannot
// interleave records in one session, and a half-written last line left by
// a crash is cut off on open instead of being fused with the next record.
package session
