package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/require"
)

// TestDecodeEntryMatchesUnmarshal compares decodeEntry with json.Unmarshal
// on long strings in every place a session line can hold them: message
// text, thinking, tool results, raw fields (details, arguments, usage of
// a tool, custom data), system sections, string contents, keys, escapes,
// invalid UTF-8 and text that looks like the stand-ins; and on every
// line of the synthetic session and the test data.
func TestDecodeEntryMatchesUnmarshal(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word \"q\" \\ é 😀\\n", 40)
	plain := strings.Repeat("abcdefgh", 64)
	lines := []string{
		`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"` + long + `"}],"timestamp":1}}`,
		`{"type":"message","id":"b","parentId":"a","timestamp":"t","message":{"role":"assistant","content":[{"type":"thinking","thinking":"` + plain + `","thinkingSignature":"` + plain + `"},{"type":"toolCall","id":"c","name":"edit","arguments":{"path":"x","oldText":"` + long + `","newText":["` + plain + `", 1]}}],"api":"a","provider":"p","model":"m","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"error","errorMessage":"` + plain + `","timestamp":2,"responseId":"r","rawStopReason":"x"}}`,
		`{"type":"message","id":"c","parentId":"b","timestamp":"t","message":{"role":"toolResult","toolCallId":"c","toolName":"edit","content":[{"type":"text","text":"` + long + `"}],"details":{"diff":"` + long + `","list":["` + plain + `"]},"isError":false,"timestamp":3}}`,
		`{"type":"message","id":"d","parentId":"c","timestamp":"t","message":{"role":"system","content":"` + plain + `","sections":{"preamble":"` + long + `","tools":"x"},"toolsAdded":[{"name":"read","description":"` + plain + `","parameters":{"type":"object","description":"` + plain + `"}}],"timestamp":4}}`,
		`{"type":"message","id":"e","parentId":"d","timestamp":"t","message":{"role":"user","content":"` + long + `","timestamp":5}}`,
		`{"type":"custom_message","id":"f","parentId":"e","timestamp":"t","customType":"x","content":"` + long + `","details":{"` + plain + `":"` + plain + `"}}`,
		`{"type":"custom","id":"g","parentId":"f","timestamp":"t","customType":"x","data":{"blob":"` + long + `"}}`,
		`{"type":"compaction","id":"h","parentId":"g","timestamp":"t","summary":"` + long + `","firstKeptEntryId":"a","tokensBefore":5,"details":{"readFiles":["` + plain + `"]}}`,
		`{"type":"branch_summary","id":"i","parentId":"h","timestamp":"t","fromId":"a","summary":"` + plain + `"}`,
		`{"type":"message","id":"j","parentId":"i","timestamp":"t","message":{"role":"bashExecution","command":"` + plain + `","output":"` + long + `","exitCode":0,"cancelled":false,"truncated":true,"fullOutputPath":"` + plain + `","timestamp":6}}`,
		`{"type":"message","id":"k","parentId":"j","timestamp":"t","message":{"role":"user","content":[{"type":"image","data":"` + strings.Repeat("QUFB", 200) + `","mimeType":"image/png"}],"timestamp":7}}`,
		"{\"type\":\"message\",\"id\":\"l\",\"parentId\":null,\"timestamp\":\"t\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"bad \xff\xfe " + plain + "\"}],\"timestamp\":1}}",
		`{"type":"message","id":"m","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"\u0000pl0\u0000 ` + plain + `"}],"timestamp":1}}`,
		`{"type":"message","id":"n","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"x\u0000pl1\u0000"}, {"type":"text","text":"` + plain + `"}],"timestamp":1}}`,
		`{"type":"message","id":"o","parentId":null,"timestamp":"t","message":{"role":5,"content":"` + plain + `"}}`,
		`{"type":"message","id":"p","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"` + plain + `"}]`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"` + plain + `\ud83d\ude00 \ud800 x \udc00\ud800\u00e9\u00E9 \/ \b\f\r\t \ud83dz"}],"timestamp":1}}`,
		"{\"type\":\"message\",\"id\":\"u2\",\"parentId\":null,\"timestamp\":\"t\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"" + plain + "\x01 raw control\"}],\"timestamp\":1}}",
		"{\"type\":\"custom\",\"id\":\"u3\",\"parentId\":null,\"timestamp\":\"t\",\"data\":{\"a\":\"" + plain + "\x01 raw control in raw\"}}",
		`{"type":"custom","id":"u4","parentId":null,"timestamp":"t","data":{"a":"` + plain + `\q bad escape"}}`,
		`{"type":"message","id":"u5","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"` + plain + `\u12G4"}],"timestamp":1}}`,
		"{\"type\":\"message\",\"id\":\"u6\",\"parentId\":null,\"timestamp\":\"t\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"" + plain + "\xe2\x82 \xed\xa0\x80 \xf0\x9f\x98\x80\"}],\"timestamp\":1}}",
		`{"type":"session_info","id":"q","parentId":null,"timestamp":"t","name":"` + plain + `"}`,
		`{"type":"label","id":"r","parentId":null,"timestamp":"t","targetId":"a","label":"` + plain + `"}`,
		`{"type":"message" , "id":"s" ,"parentId":null,"timestamp":"t","message":{ "role" : "toolResult" , "content" : [ { "type" : "text" , "text" : "` + plain + `" } ] , "details" : { "k" : "` + plain + `" } }}`,
	}
	data := new(bytes.Buffer)
	require.NoError(t, writeSyntheticSession(data, 1<<20, 7))
	for _, l := range strings.Split(data.String(), "\n") {
		lines = append(lines, l)
	}
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, name := range files {
		f, err := os.Open(name)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		f.Close()
	}
	for _, l := range lines {
		want := new(engine.Entry)
		werr := json.Unmarshal([]byte(l), want)
		got, gerr := decodeEntry([]byte(l))
		if werr != nil {
			require.Error(t, gerr, l)
			continue
		}
		require.NoError(t, gerr, l)
		require.Equal(t, want, got, l)
	}
}

// FuzzDecodeEntry checks decodeEntry against json.Unmarshal on arbitrary
// lines.
func FuzzDecodeEntry(f *testing.F) {
	f.Add(`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"` + strings.Repeat("x", 300) + `"}],"timestamp":1}}`)
	f.Add(`{"type":"custom","data":{"a":"` + strings.Repeat("y\\n", 200) + `"}}`)
	f.Fuzz(func(t *testing.T, l string) {
		want := new(engine.Entry)
		werr := json.Unmarshal([]byte(l), want)
		got, gerr := decodeEntry([]byte(l))
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("errors differ: %v vs %v", werr, gerr)
		}
		if werr == nil {
			require.Equal(t, want, got)
		}
	})
}
