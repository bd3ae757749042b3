package engine

// Store is the session file as the runtime sees it: an append-only tree of
// entries with a movable leaf. engine/session implements it on JSONL files
// (and in memory for --no-session).
type Store interface {
	// Header returns the session header (also for in-memory sessions).
	Header() Header
	// Path returns the session file, or "" for an in-memory session.
	Path() string
	// Append assigns e an id, makes the current leaf its parent, stamps
	// its timestamp if empty, stores it and advances the leaf to it.
	// Persistence is lazy: nothing is written until the session holds a
	// user or assistant message.
	Append(e *Entry) error
	// Entries returns every entry in file order.
	Entries() []*Entry
	// Branch returns the entries from the root to the current leaf.
	Branch() []*Entry
	// LeafID returns the current leaf's id, "" when the session is empty.
	LeafID() string
	// SetLeaf moves the leaf to an existing entry ("" = before the root).
	SetLeaf(id string) error
	// Get returns the entry with the given id.
	Get(id string) (*Entry, bool)
	// Close flushes and releases the session's lock.
	Close() error
}
