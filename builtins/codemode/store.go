package codemode

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/pi-go/pi/engine"
)

// StoreCustomType is the customType of the session entries that keep
// store() values: {"set": {key: value}, "delete": [key]} per successful
// script that stored something.
const StoreCustomType = "codemode-store"

// SessionStore keeps store() values in a session: Entries is the current
// branch (nil: nothing stored yet) and Append records one custom entry.
type SessionStore interface {
	Branch() []*engine.Entry
	AppendCustom(customType string, data json.RawMessage) error
}

// storeState is the values a script sees: the branch's, then its own
// writes, which are recorded only when the script succeeds.
type storeState struct {
	values map[string]string // JSON text by key
	setOrd []string
	sets   map[string]string
	dels   []string
}

// loadStore replays the branch's codemode-store entries in order.
func loadStore(s SessionStore) *storeState {
	st := &storeState{values: map[string]string{}, sets: map[string]string{}}
	if s == nil {
		return st
	}
	for _, e := range s.Branch() {
		if e.Type != engine.EntryCustom || e.CustomType != StoreCustomType {
			continue
		}
		var d struct {
			Set    map[string]json.RawMessage `json:"set"`
			Delete []string                   `json:"delete"`
		}
		if json.Unmarshal(e.Data, &d) != nil {
			continue
		}
		for k, v := range d.Set {
			st.values[k] = string(v)
		}
		for _, k := range d.Delete {
			delete(st.values, k)
		}
	}
	return st
}

func (s *storeState) get(key string) (string, bool) {
	v, ok := s.values[key]
	return v, ok
}

func (s *storeState) set(key, value string) error {
	if len(value) > maxStoreValueChars {
		return fmt.Errorf("store(%q): the value's JSON has %d characters; one value may have at most %d", key, len(value), maxStoreValueChars)
	}
	total := len(value)
	for k, v := range s.values {
		if k != key {
			total += len(v)
		}
	}
	if total > maxStoreTotalChars {
		return fmt.Errorf("store(%q): all stored values together would have %d characters of JSON; the limit is %d", key, total, maxStoreTotalChars)
	}
	s.values[key] = value
	if _, ok := s.sets[key]; !ok {
		s.setOrd = append(s.setOrd, key)
	}
	s.sets[key] = value
	s.dels = slices.DeleteFunc(s.dels, func(k string) bool { return k == key })
	return nil
}

func (s *storeState) del(key string) {
	delete(s.values, key)
	if _, ok := s.sets[key]; ok {
		delete(s.sets, key)
		s.setOrd = slices.DeleteFunc(s.setOrd, func(k string) bool { return k == key })
	}
	if !slices.Contains(s.dels, key) {
		s.dels = append(s.dels, key)
	}
}

// entryData is the custom entry of this script's writes, or nil.
func (s *storeState) entryData() json.RawMessage {
	if len(s.setOrd) == 0 && len(s.dels) == 0 {
		return nil
	}
	b := []byte(`{"set":{`)
	for i, k := range s.setOrd {
		if i > 0 {
			b = append(b, ',')
		}
		kb, _ := engine.MarshalJSON(k)
		b = append(b, kb...)
		b = append(b, ':')
		b = append(b, s.sets[k]...)
	}
	b = append(b, `},"delete":`...)
	dels := s.dels
	if dels == nil {
		dels = []string{}
	}
	db, _ := engine.MarshalJSON(dels)
	b = append(b, db...)
	b = append(b, '}')
	return b
}
