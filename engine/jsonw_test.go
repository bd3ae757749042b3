package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// referenceMarshal is the plain encoding/json path MarshalJSON's fast
// paths must reproduce byte for byte.
func referenceMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	// encoding/json writes \ufffd for invalid bytes; JSON.stringify writes
	// the U+FFFD that Node's decoding put there as a raw character.
	b = bytes.ReplaceAll(b[:len(b)-1], []byte(`\ufffd`), []byte("\uFFFD"))
	return unescapeLineSeparators(b), nil
}

func TestMarshalJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	one, reason, yes := 1, StopToolUse, true
	tests := []struct {
		name string
		v    any
	}{
		{"plain string", "hello"},
		{"control bytes", "a\x00\x01\x08\x0c\n\r\t\x1f\x7f\"\\b"},
		{"html and separators", "<a href='x'>&amp;</a>\u2028\u2029"},
		{"escaped separator text", `\u2028 stays`},
		{"unicode", "héllo 世界 😀"},
		{"ints", []any{0, -1, 1 << 53}},
		{"int64", int64(-1 << 62)},
		{"bool", true},
		{"nil", nil},
		{"floats", []float64{0, -0.0, 1, 0.1, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125, 3e-12, -2.5e25}},
		{"float top", 1e-7},
		{"named string", reason},
		{"nil pointer", (*int)(nil)},
		{"int pointer", &one},
		{"raw with spaces", json.RawMessage("{ \"a\" : [1, 2,\n3], \"s\": \"x y\\u2028\" }")},
		{"raw compact", json.RawMessage(`{"a":"b c"}`)},
		{"nil raw", json.RawMessage(nil)},
		{"json numbers", []any{json.Number("1.50"), json.Number("-0"), json.Number("1e3"), json.Number("")}},
		{"json number", json.Number("12.0")},
		{"empty json number", json.Number("")},
		{"assistant event", AssistantEvent{Type: AETextDelta, ContentIndex: 2, Delta: "x\u2028<y>"}},
		{"message update", MessageUpdate{Usage: Usage{Input: 5, Output: 3, TotalTokens: 8, Cost: Cost{Input: 0.000015, Total: 1e-7}},
			AssistantMessageEvent: AssistantEvent{Type: AETextDelta, Delta: "d"}}},
		{"usage nested cost", Usage{Input: 3, Reasoning: &one, Cost: Cost{Output: 0.25, TotalFromProvider: &yes}}},
		{"usage trailing extras", Usage{Input: 3, CacheWrite1h: &one, TrailingExtras: true}},
		{"usage pointer", &Usage{Output: 2}},
		{"events in a slice", []any{AssistantEvent{Type: AETextStart}, Usage{}, Cost{Total: 1}}},
		{"assistant message", &Message{Role: RoleAssistant, Content: Blocks(TextContent("a\u2028<b>"),
			Content{Type: ContentToolCall, ID: "t", Name: "bash", Arguments: json.RawMessage("{ \"command\" : \"ls\" }")}),
			API: "openai-completions", Provider: "p", Model: "m", StopReason: StopToolUse, Usage: Usage{Output: 3}}},
		{"user string contents", Message{Role: RoleUser, Content: StringContents("hi \"you\"")}},
		{"empty contents", Contents{}},
		{"nil message pointers", []*Message{nil, {Role: RoleUser, Content: Blocks()}}},
		{"message end event", MessageEnd{Message: &Message{Role: RoleAssistant, Content: Blocks(TextContent("done"))}}},
		{"tool call end", AssistantEvent{Type: AEToolCallEnd, ToolCall: &Content{Type: "toolCall", ID: "c1", Name: "bash", Arguments: json.RawMessage(`{"command": "echo hi"}`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, wantErr := referenceMarshal(tt.v)
			got, err := MarshalJSON(tt.v)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("err = %v, want %v", err, wantErr)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("MarshalJSON = %s\nwant          %s", got, want)
			}
		})
	}
}

func TestMarshalJSONErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    any
	}{
		{"NaN", math.NaN()},
		{"Inf", math.Inf(1)},
		{"invalid raw", json.RawMessage(`{"a":`)},
		{"empty raw", json.RawMessage{}},
		{"invalid json number", json.Number("1x")},
		{"json number with space", json.Number("1 ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := MarshalJSON(tt.v); err == nil {
				t.Errorf("MarshalJSON(%v) succeeded, want an error", tt.v)
			}
		})
	}
}

// TestAppendStringRandom compares string encoding with encoding/json on
// random byte strings, invalid UTF-8 and control bytes included.
func TestAppendStringRandom(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", " ", "\"", "\\", "\n", "\x00", "\x1f", "\x7f", "<", "&", "é", "\u2028", "\u2029", "\xff", "\xe2\x80", "😀", "\\u2028"}
	for range 2000 {
		var sb bytes.Buffer
		for range r.IntN(12) {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := sb.String()
		// Each of the alphabet's two ill-formed pieces is one sequence
		// whatever follows it (no piece starts with a continuation byte).
		want, _ := referenceMarshal(strings.NewReplacer("\xe2\x80\xa8", "\u2028", "\xe2\x80\xa9", "\u2029", "\xe2\x80", "\uFFFD", "\xff", "\uFFFD").Replace(s))
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestMarshalEventFastPaths checks the events MarshalEvent writes by hand
// against the generic path (encoding/json plus the leading type key).
func TestMarshalEventFastPaths(t *testing.T) {
	t.Parallel()
	msg := &Message{Role: RoleAssistant, Content: Blocks(TextContent("x\u2028y")), StopReason: StopStop, Usage: Usage{Input: 1}}
	tests := []struct {
		name string
		e    Event
	}{
		{"update", MessageUpdate{Usage: Usage{Output: 2}, AssistantMessageEvent: AssistantEvent{Type: AETextDelta, Delta: "d"}, Message: msg}},
		{"start", MessageStart{Message: msg}},
		{"end", MessageEnd{Message: msg}},
		{"end without message", MessageEnd{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body, err := referenceMarshal(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			want := withType(tt.e.EventType(), body)
			got, err := MarshalEvent(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("MarshalEvent = %s\nwant         %s", got, want)
			}
		})
	}
}

// BenchmarkMarshalMessageUpdate measures the wire encoding of one streamed
// text delta, the record written most often.
func BenchmarkMarshalMessageUpdate(b *testing.B) {
	reasoning := 0
	ev := MessageUpdate{
		Usage:                 Usage{Input: 120, Output: 7, TotalTokens: 127, Reasoning: &reasoning, Cost: Cost{Input: 0.00012, Output: 0.00007, Total: 0.00019}},
		AssistantMessageEvent: AssistantEvent{Type: AETextDelta, ContentIndex: 0, Delta: "x"},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MarshalEvent(ev); err != nil {
			b.Fatal(err)
		}
	}
}
