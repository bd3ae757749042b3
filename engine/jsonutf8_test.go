package engine

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// TestMarshalJSONInvalidUTF8 pins what the reference (checked live) writes
// for a string holding invalid UTF-8: one raw U+FFFD per ill-formed
// sequence as the WHATWG decoder delimits them, never the invalid bytes.
func TestMarshalJSONInvalidUTF8(t *testing.T) {
	t.Parallel()
	type record struct {
		S string `json:"s"`
	}
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"lone byte", "a\xffb", "\"a\uFFFDb\""},
		{"truncated sequence is one", "\xe2\x82x", "\"\uFFFDx\""},
		{"surrogate bytes are three", "\xed\xa0\x80z", "\"\uFFFD\uFFFD\uFFFDz\""},
		{"truncated four-byte at end", "\xf0\x9f\x98", "\"\uFFFD\""},
		{"overlong is two", "\xc0\xaf", "\"\uFFFD\uFFFD\""},
		{"valid replacement kept", "\uFFFD", "\"\uFFFD\""},
		{"raw message string", json.RawMessage("{\"a\":\"x\xffy\"}"), "{\"a\":\"x\uFFFDy\"}"},
		{"raw message escapes", json.RawMessage(`["\ud83d\ude00\u00E9\/\u0001\u001F\u007f\u0022\u005c"]`), "[\"\U0001F600é/\\u0001\\u001f\x7f\\\"\\\\\"]"},
		{"raw lone surrogate stays escaped", json.RawMessage(`"\ud800\uDC00x\udc00"`), "\"\U00010000x\\udc00\""},
		{"raw escaped backslash then u", json.RawMessage(`"\\u0041"`), `"\\u0041"`},
		// encoding/json's fallback path writes one \ufffd per invalid byte;
		// it must still come out as valid UTF-8.
		{"struct fallback", record{S: "a\xffb"}, "{\"s\":\"a\uFFFDb\"}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := MarshalJSON(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("MarshalJSON = %q\nwant          %q", got, tt.want)
			}
		})
	}
}

// TestCanonicalJSON pins JSON.stringify(JSON.parse(x)) as the reference
// echoes a command's id (checked live).
func TestCanonicalJSON(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`1.0`, `1`},
		{`1e2`, `100`},
		{`1e400`, `null`},
		{`-0`, `0`},
		{`12345678901234567890`, `12345678901234567000`},
		{`1.5e-7`, `1.5e-7`},
		{`"\u0074"`, `"t"`},
		{`"\ud800"`, `"\ud800"`},
		{`"\udc00\ud800x"`, `"\udc00\ud800x"`},
		{`{"b":1, "a":[1.50, "\u0041"], "2":0, "1":0, "b":3}`, `{"1":0,"2":0,"b":3,"a":[1.5,"A"]}`},
		{`{"01":1,"4294967295":2,"4294967294":3,"x":[ ]}`, `{"4294967294":3,"01":1,"4294967295":2,"x":[]}`},
		{` [ true , false , null , {} ] `, `[true,false,null,{}]`},
	}
	for _, tt := range tests {
		if got := string(CanonicalJSON([]byte(tt.in))); got != tt.want {
			t.Errorf("CanonicalJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzMarshalString checks that every string, whatever its bytes, is
// written as valid UTF-8 JSON (json.Valid alone accepts invalid UTF-8)
// that reads back as the string with its ill-formed sequences replaced.
func FuzzMarshalString(f *testing.F) {
	for _, s := range []string{"", "a", "\xff", "\xe2\x82", "\xed\xa0\x80", "é\u2028\x00\"\\", "\xf4\x90\x80\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		clean := ToValidUTF8([]byte(s))
		if !utf8.Valid(clean) {
			t.Fatalf("ToValidUTF8(%q) = %q is not valid", s, clean)
		}
		for _, v := range []any{s, json.RawMessage(appendGoString(s)), struct{ S string }{s}} {
			b, err := MarshalJSON(v)
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(b) || !utf8.Valid(b) {
				t.Fatalf("MarshalJSON(%#v) = %q", v, b)
			}
		}
		b, _ := MarshalJSON(s)
		var back string
		if err := json.Unmarshal(b, &back); err != nil || back != string(clean) {
			t.Fatalf("MarshalJSON(%q) = %q reads back as %q, want %q", s, b, back, clean)
		}
	})
}

// appendGoString quotes s byte for byte, invalid UTF-8 kept, as a raw
// message from an untrusted source could carry it.
func appendGoString(s string) []byte {
	out := []byte{'"'}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
		case c < 0x20:
			out = append(out, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}

// BenchmarkCanonicalStrings is the cost MarshalJSON's UTF-8 and escape
// check adds to every record on the fast path (valid UTF-8, no \u or \/):
// one validity scan and two substring searches.
func BenchmarkCanonicalStrings(b *testing.B) {
	rec, _ := MarshalJSON(MessageUpdate{AssistantMessageEvent: AssistantEvent{Type: AETextDelta, Delta: "some streamed text, é 世界"}})
	b.SetBytes(int64(len(rec)))
	for b.Loop() {
		_ = canonicalStrings(rec)
	}
}
