package engine

import (
	"encoding/json"
	"testing"
)

// TestSessionStateJSONMatchesStruct checks the hand-written get_state
// encoding against the struct's tags through the generic path, for plain
// and awkward strings and with and without the optional keys.
func TestSessionStateJSONMatchesStruct(t *testing.T) {
	t.Parallel()
	// plain has SessionState's fields and tags but none of its methods.
	type plain SessionState
	catalog := &Model{ID: "m", Name: "M", API: "openai-completions", Provider: "p", Catalog: true, Input: []string{"text"}}
	raw := &Model{Raw: json.RawMessage(`{"id" : "r", "x": [1, 2]}`)}
	states := []SessionState{
		{},
		{Model: catalog, ThinkingLevel: ThinkingHigh, IsStreaming: true, IsCompacting: true, SteeringMode: "all",
			FollowUpMode: "one-at-a-time", SessionFile: "/tmp/s.jsonl", SessionID: "id", SessionName: "name",
			AutoCompactionEnabled: true, MessageCount: 12, PendingMessageCount: 3},
		{Model: raw, SessionID: "x", SessionName: "<&>\u2028\"\\\n\x01 bad \xff é😀", SessionFile: "a\tb"},
		{Model: &Model{ID: "unknown", Name: "unknown", API: "unknown", Provider: "unknown", Input: []string{}, Placeholder: true}, MessageCount: -1},
	}
	for i, st := range states {
		got, err := MarshalJSON(st)
		if err != nil {
			t.Fatal(err)
		}
		want, err := MarshalJSON(plain(st))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("state %d:\ngot  %s\nwant %s", i, got, want)
		}
	}
}
