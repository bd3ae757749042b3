package session

import (
	"slices"

	"github.com/pi-go/pi/engine"
)

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

// LabelOrder returns the ids of the labelled entries in the order the
// reference's labelsById Map holds them: by when each target was last
// given a label while it had none (changing a label keeps its place,
// removing it and labelling again moves it to the end).
func (f *File) LabelOrder() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var order []string
	for _, r := range f.recs {
		if r.typ != engine.EntryLabel || r.e == nil {
			continue
		}
		e := r.e
		i := slices.Index(order, e.TargetID)
		set := e.Label != nil && *e.Label != ""
		switch {
		case set && i < 0:
			order = append(order, e.TargetID)
		case !set && i >= 0:
			order = slices.Delete(order, i, i+1)
		}
	}
	return order
}
