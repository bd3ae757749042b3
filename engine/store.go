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

// BranchState is what a session's state needs of the current branch,
// without the message bodies: the model and thinking level in effect at the
// leaf, whether the branch ever set a thinking level, how many messages its
// context holds and the name it was last given.
type BranchState struct {
	Model            *ContextModel
	ThinkingLevel    ThinkingLevel
	HasThinkingLevel bool
	MessageCount     int
	SessionName      string
}

// BranchStater is a Store that describes its branch without decoding
// it: engine/session's File answers from its index, so a resumed session
// reads the messages it left on disk only when a model call needs them.
type BranchStater interface {
	BranchState() BranchState
}

// StateOfBranch summarises st's current branch, cheaply when st is a
// BranchStater.
func StateOfBranch(st Store) BranchState {
	if bs, ok := st.(BranchStater); ok {
		return bs.BranchState()
	}
	return StateOfEntries(st.Branch())
}

// StateOfEntries summarises a branch (root first). Stores that implement
// BranchStater call it on entries whose messages carry only their
// role, provider and model: nothing else here looks further.
func StateOfEntries(branch []*Entry) BranchState {
	sc := BuildContext(branch)
	bs := BranchState{Model: sc.Model, ThinkingLevel: sc.ThinkingLevel, MessageCount: len(sc.Messages)}
	for _, e := range branch {
		switch {
		case e.Type == EntryThinkingLevelChange:
			bs.HasThinkingLevel = true
		case e.Type == EntrySessionInfo && e.Name != nil:
			bs.SessionName = *e.Name
		}
	}
	return bs
}

// ContextStore is a Store that builds its branch's context itself:
// engine/session's File decodes only the entries the context holds, so the
// messages a compaction summarised stay on disk.
type ContextStore interface {
	Context() SessionContext
}

// ContextOf builds the context of st's current branch.
func ContextOf(st Store) SessionContext {
	if cs, ok := st.(ContextStore); ok {
		return cs.Context()
	}
	return BuildContext(st.Branch())
}
