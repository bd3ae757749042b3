package session

// Labels returns the current label of every labelled entry and when it
// was set, keyed by the target entry's id (the reference's labelsById and
// labelTimestampsById, which extensions can read off the session
// manager).
func (f *File) Labels() (labels, timestamps map[string]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	labels = make(map[string]string, len(f.labels))
	timestamps = make(map[string]string, len(f.labels))
	for id, l := range f.labels {
		labels[id] = l.label
		timestamps[id] = l.timestamp
	}
	return labels, timestamps
}
