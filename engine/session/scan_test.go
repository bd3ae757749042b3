package session

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/require"
)

// checkScan holds scanMessageLine to its contract on one line: a line it
// takes is valid JSON, and when it decodes, the entry is exactly the one
// rebuilt from the index fields around its message (nothing else in the
// line could have set a field) with the same role, provider and model.
// Every line json.Valid rejects, it rejects.
func checkScan(t *testing.T, line string) {
	m, ok := scanMessageLine([]byte(line))
	if !json.Valid([]byte(line)) {
		require.False(t, ok, "invalid JSON taken: %q", line)
		return
	}
	if !ok {
		return
	}
	e := new(engine.Entry)
	if json.Unmarshal([]byte(line), e) != nil {
		return // an undecodable body: the lazy read gives the index's view
	}
	require.NotNil(t, e.Message, line)
	want := &engine.Entry{Type: engine.EntryMessage, ID: m.id, ParentID: m.parent, Timestamp: m.ts, Message: e.Message}
	require.Equal(t, want, e, line)
	require.Equal(t, e.Message.Role, m.role, line)
	require.Equal(t, e.Message.Provider, m.provider, line)
	require.Equal(t, e.Message.Model, m.model, line)
}

// TestScanMessageLine checks the scanner on the lines it must take, the
// ones it must leave to the decoder, and every line of the tree session.
func TestScanMessageLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat(`x\"\\\n\u00e9 \ud83d\ude00`, 50)
	cases := []struct {
		line string
		ok   bool
	}{
		{`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"` + long + `"}}`, true},
		{` { "type" : "message" , "id" : "a" , "parentId" : "p" , "message" : { "role" : "assistant" , "provider" : "p" , "model" : "m" , "x" : [ 1 , -2.5e+3 , true , false , null , { } , [ ] ] } } ` + "\r", true},
		{`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"hookMessage","content":"x"}}`, true},
		{`{"type":"message","id":"a\u00e9","parentId":"\"q\"","timestamp":"t","message":{}}`, true},
		{`{"type":"model_change","id":"a","parentId":null,"timestamp":"t","provider":"p","modelId":"m"}`, false},
		{`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user"},"extra":1}`, false},
		{`{"type":"message","id":"a","parentId":null,"timestamp":"t","Message":{"role":"user"}}`, false},
		{`{"type":"message","id":"a","id":"b","parentId":null,"message":{"role":"user"}}`, false},
		{`{"type":"message","id":"a","parentId":null,"message":{"role":"user","ROLE":"assistant"}}`, false},
		{`{"type":"message","id":"a","parentId":null,"message":{"role":"user","role":"assistant"}}`, false},
		{`{"type":"message","id":"a","parentId":null,"message":{"role":"user","modeL":"x"}}`, false},
		{`{"type":"message","id":"a","parentId":null,"message":{"r\u006fle":"user"}}`, false},
		{`{"type":"message","id":"a","parentId":null,"message":{"role":5}}`, false},
		{`{"type":"message","id":"a","parentId":null,"message":{"role":"user","provider":null}}`, false},
		{`{"type":"message","id":"a","parentId":null,"message":null}`, false},
		{`{"type":"message","id":"a","parentId":5,"message":{}}`, false},
		{`{"type":"message","parentId":null,"message":{}}`, false},
		{`{"type":"message","id":"a","message":{}} x`, false},
		{`{"type":"message","id":"a","message":{"content":"raw	tab"}}`, false},
		{`{"type":"message","id":"a","message":{"content":"bad \q"}}`, false},
		{`{"type":"message","id":"a","message":{"content":"bad \u12x4"}}`, false},
		{`{"type":"message","id":"a","message":{"n":01}}`, false},
		{`{"type":"message","id":"a","message":{"n":1.}}`, false},
		{`{"type":"message","id":"a","message":{"n":-}}`, false},
		{`{"type":"message","id":"a","message":{"n":1e}}`, false},
		{`{"type":"message","id":"a","message":{"n":[1,]}}`, false},
		{`{"type":"message","id":"a","message":{"n":{"a":1,}}}`, false},
		{`{"type":"message","id":"a","message":{"n":tru}}`, false},
		{`{"type":"message","id":"a","message":{"content":"unterminated}}`, false},
		{`{"type":"message","id":"a","message":{"n":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}}`, true},
		{`{"type":"message","id":"a","message":{"n":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}}`, false},
		{"{\"type\":\"message\",\"id\":\"a\",\"message\":{\"content\":\"invalid \xff utf-8\"}}", true},
	}
	for _, c := range cases {
		_, ok := scanMessageLine([]byte(c.line))
		require.Equal(t, c.ok, ok, "%.200s", c.line)
		checkScan(t, c.line)
	}
	var sb strings.Builder
	require.NoError(t, writeTreeSession(&sb, 3, 30))
	taken := 0
	for _, l := range strings.Split(sb.String(), "\n") {
		if _, ok := scanMessageLine([]byte(l)); ok {
			taken++
		}
		checkScan(t, l)
	}
	require.Greater(t, taken, 100)
}

// FuzzScanMessageLine checks the scanner's contract on arbitrary lines.
func FuzzScanMessageLine(f *testing.F) {
	f.Add(`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"x\"\\y\u00e9"}],"timestamp":1}}`)
	f.Add(`{"type":"message","id":"a","parentId":"b","message":{"role":"assistant","provider":"p","model":"m","usage":{"input":1.5e3},"content":[]}}`)
	f.Fuzz(func(t *testing.T, l string) { checkScan(t, l) })
}

// BenchmarkScanMessageLine scans the lines of the synthetic session on
// one processor: the work a resume does per byte of the file.
func BenchmarkScanMessageLine(b *testing.B) {
	var sb strings.Builder
	if err := writeSyntheticSession(&sb, 8<<20, 1); err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for _, l := range strings.Split(sb.String(), "\n") {
		lines = append(lines, []byte(l))
	}
	b.SetBytes(int64(sb.Len()))
	for b.Loop() {
		for _, l := range lines {
			scanMessageLine(l)
		}
	}
}
