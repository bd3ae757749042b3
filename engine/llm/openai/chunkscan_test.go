package openai

import (
	"encoding/json"
	"reflect"
	"testing"
)

// chunkScanCases are chunks the fast path must decode exactly as
// encoding/json does, or refuse.
var chunkScanCases = []struct {
	in   string
	fast bool // whether the fast path is expected to take it
}{
	{`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"H"},"finish_reason":null}]}`, true},
	{`{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`, true},
	{` {"id":"c1","choices":[{"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1.5e2}} `, true},
	{`{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"t","function":{"name":"bash","arguments":"{\"a\":1}"}}]}}]}`, true},
	{`{"choices":[{"delta":{"reasoning_content":"th\u00e9","reasoning":null,"reasoning_text":"x"}}]}`, true},
	{`{"choices":[null,{"delta":null,"usage":null}],"usage":null,"error":null}`, true},
	{`{"choices":[],"id":null,"model":"gpt"}`, true},
	{`{"choices":null}`, true},
	{`{"error":{"message":"boom","code":502}}`, true},
	{`{"error":"x","id":"\u0041\n"}`, true},
	{`{"id":"h\u00e9llo","model":"caf` + "\xc3\xa9" + `"}`, true},
	{`{"id":"bad` + "\xff" + `utf8"}`, true},
	{`{"choices":[{"delta":{"content":"` + "\xff" + `"}}]}`, true},
	{`{}`, true},
	{`{"x":[1,-0.5,2E+3,true,false,null,{"y":[]}]}`, true},
	// Refused: encoding/json matches keys in any case, or the type differs.
	{`{"ID":"c1"}`, false},
	{`{"Choices":[]}`, false},
	{`{"choices":[{"Delta":{"content":"x"}}]}`, false},
	{`{"choices":[{"delta":{"CONTENT":"x"}}]}`, false},
	{`{"id":5}`, false},
	{`{"choices":{}}`, false},
	{`{"choices":[{"finish_reason":1}]}`, false},
	{`{"choices":[{"delta":"x"}]}`, false},
	{`{"choices":[7]}`, false},
	{`{"id":"a","id":"b"}`, false},
	{`{"\u0069d":"x"}`, false},
	// Refused: not valid JSON.
	{`{"id":"c1"`, false},
	{`{"id":"c1",}`, false},
	{`{"x":01}`, false},
	{`{"x":1.}`, false},
	{`{"x":-}`, false},
	{`{"x":"a` + "\n" + `"}`, false},
	{`{"x":"\q"}`, false},
	{`{"x":"\u12"}`, false},
	{`{"x":tru}`, false},
	{`{"x":[1,]}`, false},
	{`{} {}`, false},
	{`[1]`, false},
	{`"s"`, false},
	{``, false},
}

// TestScanChunkMatchesEncodingJSON checks each case against encoding/json:
// when the fast path takes a chunk, the chunk and the top-level error are
// exactly what encoding/json reads.
func TestScanChunkMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, c := range chunkScanCases {
		t.Run(c.in, func(t *testing.T) {
			t.Parallel()
			if got := checkScanChunk(t, []byte(c.in)); got != c.fast {
				t.Fatalf("fast path took it: %v, want %v", got, c.fast)
			}
		})
	}
}

// FuzzScanChunk checks the fast path against encoding/json on any input.
func FuzzScanChunk(f *testing.F) {
	for _, c := range chunkScanCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScanChunk(t, data) })
}

// checkScanChunk runs the fast path on data and, when it takes it, fails
// the test unless encoding/json reads the same chunk and error member.
func checkScanChunk(t *testing.T, data []byte) bool {
	t.Helper()
	var fast chunk
	var fastErr json.RawMessage
	if !scanChunk(data, &fast, &fastErr) {
		return false
	}
	var slow chunk
	if err := json.Unmarshal(data, &slow); err != nil {
		t.Fatalf("fast path took %q, encoding/json fails: %v", data, err)
	}
	var top struct {
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatalf("encoding/json fails on the error member of %q: %v", data, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("chunk of %q:\nfast %#v\nslow %#v", data, fast, slow)
	}
	if !reflect.DeepEqual(fastErr, top.Error) {
		t.Fatalf("error member of %q: fast %q, slow %q", data, fastErr, top.Error)
	}
	return true
}

// BenchmarkDecodeChunk compares the fast path with encoding/json on a
// typical one-character delta chunk.
func BenchmarkDecodeChunk(b *testing.B) {
	data := []byte(`{"id":"chatcmpl-mock","object":"chat.completion.chunk","created":1700000000,"model":"mock-model","choices":[{"index":0,"delta":{"content":"m"},"finish_reason":null}]}`)
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var ch chunk
			var e json.RawMessage
			if !scanChunk(data, &ch, &e) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("encoding-json-twice", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var ch chunk
			if _, isErr := chunkError("", data); isErr {
				b.Fatal("error chunk")
			}
			if err := json.Unmarshal(data, &ch); err != nil {
				b.Fatal(err)
			}
		}
	})
}
