package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// stdlibMarshal is encoding/json with HTML escaping off and U+2028/9
// un-escaped: the bytes Marshal's fast paths must reproduce.
func stdlibMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	return UnescapeLineSeparators(b[:len(b)-1]), nil
}

// The expected strings below were checked against node 22's
// JSON.stringify where JavaScript has the value.
func TestMarshal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"html raw", "<a href='x'>&</a>", `"<a href='x'>&</a>"`},
		{"line separators raw", "a\u2028b\u2029c", "\"a\u2028b\u2029c\""},
		{"escaped separators in raw JSON", json.RawMessage(`"\u2028"`), "\"\u2028\""},
		{"escaped backslash before u2028 kept", json.RawMessage(`"\\u2028"`), `"\\u2028"`},
		{"control bytes", "\x00\x1f\b\f\n\r\t\"\\", `"\u0000\u001f\b\f\n\r\t\"\\"`},
		// Raw U+FFFD, one per ill-formed sequence, as JSON.stringify
		// writes Node's decoding (encoding/json escapes one per byte).
		{"invalid UTF-8", "a\xffb", "\"a\uFFFDb\""},
		{"invalid UTF-8 sequence", "a\xe2\x82b", "\"a\uFFFDb\""},
		{"emoji", "😀", `"😀"`},
		{"empty string", "", `""`},
		{"floats", []float64{0, 1, 0.1, 1e-7, 1e21, 1e20, -2.5e25}, `[0,1,0.1,1e-7,1e+21,100000000000000000000,-2.5e+25]`},
		{"number literals kept", []any{json.Number("1.50"), json.Number("1E3"), json.Number("-0")}, `[1.50,1E3,-0]`},
		{"raw compacted", json.RawMessage("{ \"b\" : [1, 2],\n \"a\": \"x y\" }"), `{"b":[1,2],"a":"x y"}`},
		{"nil", nil, `null`},
		{"map sorted as encoding/json does", map[string]int{"b": 1, "a": 2}, `{"a":2,"b":1}`},
		{"object in order", Object{}.Set("b", 1).Set("a", "<"), `{"b":1,"a":"<"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Marshal = %s, want %s", got, tt.want)
			}
			if _, isObj := tt.v.(Object); isObj || strings.HasPrefix(tt.name, "invalid UTF-8") {
				return
			}
			if ref, _ := stdlibMarshal(tt.v); !bytes.Equal(got, ref) {
				t.Errorf("Marshal = %s, encoding/json gives %s", got, ref)
			}
		})
	}
}

func TestMarshalErrors(t *testing.T) {
	t.Parallel()
	for _, v := range []any{math.NaN(), math.Inf(-1), json.RawMessage(`{"a":`), json.RawMessage{}, json.Number("1x"), Object{{"a", math.NaN()}}} {
		if _, err := Marshal(v); err == nil {
			t.Errorf("Marshal(%#v) succeeded, want an error", v)
		}
	}
}

func TestAppendStringRandom(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "\"", "\\", "\n", "\x00", "\x7f", "<", "&", "é", "\u2028", "\u2029", "\xff", "\xe2\x80", "😀", "\\u2028"}
	for range 2000 {
		var sb bytes.Buffer
		for range r.IntN(12) {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := sb.String()
		// Ill-formed sequences become one raw U+FFFD each (Node's
		// decoding); the rest is encoding/json's bytes.
		want, _ := stdlibMarshal(nodeDecoded(s))
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// nodeDecoded replaces each ill-formed UTF-8 sequence of s with U+FFFD,
// as Node's decoder does.
func nodeDecoded(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
			i += InvalidLen(s[i:])
			continue
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

// appender is a wire type that writes itself into the parent's buffer.
type appender struct{ n int }

func (a appender) AppendJSON(dst []byte) ([]byte, error) {
	return NewBuilderAt(dst).Set("n", a.n).Bytes()
}

func (a appender) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil) }

func TestBuilder(t *testing.T) {
	t.Parallel()
	var nilInt *int
	one := 1
	tests := []struct {
		name string
		b    *Builder
		want string
	}{
		{"empty", NewBuilder(), `{}`},
		{"order kept", NewBuilder().Set("z", 1).Set("a", 2), `{"z":1,"a":2}`},
		{"repeated key written twice", NewBuilder().Set("a", 1).Set("a", 2), `{"a":1,"a":2}`},
		{"opt leaves out zero values", NewBuilder().Opt("s", "").Opt("r", json.RawMessage(nil)).Opt("p", nilInt).Opt("n", nil).Set("k", true), `{"k":true}`},
		{"opt keeps set values", NewBuilder().Opt("s", "x").Opt("p", &one).Opt("z", 0), `{"s":"x","p":1,"z":0}`},
		{"empty raw is null", NewBuilder().Set("r", json.RawMessage{}), `{"r":null}`},
		{"nested appender", NewBuilder().Set("a", appender{2}).Set("b", []appender{{3}}), `{"a":{"n":2},"b":[{"n":3}]}`},
		{"escaped key", NewBuilder().Set("<\n>", 1), `{"<\n>":1}`},
		{"struct through encoding/json", NewBuilder().Set("s", struct {
			A string `json:"a"`
		}{"<"}), `{"s":{"a":"<"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.b.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Bytes = %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("at the end of a buffer", func(t *testing.T) {
		t.Parallel()
		got, err := NewBuilderAt([]byte(`[1,`)).Set("a", 1).Bytes()
		if err != nil || string(got) != `[1,{"a":1}` {
			t.Errorf("Bytes = %s, %v", got, err)
		}
	})
	t.Run("first error kept", func(t *testing.T) {
		t.Parallel()
		if _, err := NewBuilder().Set("a", math.NaN()).Set("b", 1).Bytes(); err == nil {
			t.Error("Bytes succeeded after a NaN, want an error")
		}
	})
}

func TestObject(t *testing.T) {
	t.Parallel()
	o := Object{}.Set("a", 1).Set("b", json.RawMessage(`{ "x" : 1 }`)).Set("c", nil)
	o = o.Put("a", "one").Put("d", json.RawMessage(nil))
	if got, _ := o.MarshalJSON(); string(got) != `{"a":"one","b":{ "x" : 1 },"c":null,"d":null}` {
		t.Errorf("MarshalJSON = %s (raw values are written as they are)", got)
	}
	if v, ok := o.Get("a"); !ok || v != "one" {
		t.Errorf(`Get("a") = %v, %v`, v, ok)
	}
	if _, ok := o.Get("zz"); ok {
		t.Error(`Get("zz") found a key that is not there`)
	}
	o = o.Delete("b").Delete("zz")
	if got, _ := o.MarshalJSON(); string(got) != `{"a":"one","c":null,"d":null}` {
		t.Errorf("after Delete: %s", got)
	}
	if i := o.Index("d"); i != 2 {
		t.Errorf(`Index("d") = %d, want 2`, i)
	}
	if got, _ := Object(nil).MarshalJSON(); string(got) != `{}` {
		t.Errorf("nil Object = %s", got)
	}
	// Marshal compacts a nested Object's raw values, as it does any
	// json.Marshaler's output.
	if got, _ := Marshal([]any{Object{}.Set("r", json.RawMessage(`[1, 2]`))}); string(got) != `[{"r":[1,2]}]` {
		t.Errorf("Marshal of nested Object = %s", got)
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want any
	}{
		{"key order", `{"b":1,"a":2}`, Object{{"b", json.Number("1")}, {"a", json.Number("2")}}},
		{"repeated key keeps first place and last value", `{"a":1,"b":2,"a":3}`, Object{{"a", json.Number("3")}, {"b", json.Number("2")}}},
		{"nested", `{"o":{"y":[true,null,"s",{}]}}`, Object{{"o", Object{{"y", []any{true, nil, "s", Object{}}}}}}},
		{"numbers literal", `[1.50,1E3,-0,12345678901234567890]`, []any{json.Number("1.50"), json.Number("1E3"), json.Number("-0"), json.Number("12345678901234567890")}},
		{"escapes decoded", `"\u00e9\n\ud83d\ude00"`, "é\n😀"},
		{"empty array not nil", `[]`, []any{}},
		{"empty object not nil", `{}`, Object{}},
		{"scalar", ` 3 `, json.Number("3")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Decode([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Decode = %#v, want %#v", got, tt.want)
			}
		})
	}
	for _, bad := range []string{``, `{"a":1}]`, `{"a":1} {}`, `{"a":`, `[1,]`, `nul`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) succeeded, want an error", bad)
		}
	}
}

// TestDecodeRoundTrip re-encodes decoded JSON: key order, repeated keys
// and escaping come out as JSON.stringify(JSON.parse(...)) writes them;
// number literals stay as written (JavaScript would print 1.0 as 1).
func TestDecodeRoundTrip(t *testing.T) {
	t.Parallel()
	in := "{ \"z\": 1.0, \"a\": [ \"<&>\", \"\\u2028\", {\"k\": \"\\u00e9\"} ], \"a\": 2 }"
	v, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"z":1.0,"a":2}`; string(got) != want {
		t.Errorf("Marshal(Decode) = %s, want %s", got, want)
	}
	v, _ = Decode([]byte(`["<&>","\u2028",{"k":"\u00e9"}]`))
	if got, _ := Marshal(v); string(got) != "[\"<&>\",\"\u2028\",{\"k\":\"é\"}]" {
		t.Errorf("Marshal(Decode) = %s", got)
	}
}

func TestMembers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    Object
		wantErr bool
	}{
		{"order and raw values", `{"b": [1, 2], "a":"x"}`, Object{{"b", json.RawMessage(`[1, 2]`)}, {"a", json.RawMessage(`"x"`)}}, false},
		{"repeated key reported twice", `{"a":1,"a":2}`, Object{{"a", json.RawMessage(`1`)}, {"a", json.RawMessage(`2`)}}, false},
		{"empty object", `{}`, Object{}, false},
		{"number literal", `{"n":1.50e+1}`, Object{{"n", json.RawMessage(`1.50e+1`)}}, false},
		{"not an object", `[1]`, nil, true},
		{"scalar", `"s"`, nil, true},
		{"empty input", ``, nil, true},
		{"broken after a member keeps it", `{"a":1,"b":}`, Object{{"a", json.RawMessage(`1`)}}, true},
		{"unclosed keeps members", `{"a":1`, Object{{"a", json.RawMessage(`1`)}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Members([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Members = %#v, want %#v", got, tt.want)
			}
			keys, vals, err := Split([]byte(tt.in))
			if tt.wantErr {
				if err == nil || keys != nil || vals != nil {
					t.Errorf("Split = %v, %v, %v; want nil, nil and an error", keys, vals, err)
				}
				return
			}
			for i, f := range tt.want {
				if keys[i] != f.Key || !bytes.Equal(vals[i], f.Value.(json.RawMessage)) {
					t.Errorf("Split member %d = %s: %s, want %s: %s", i, keys[i], vals[i], f.Key, f.Value)
				}
			}
		})
	}
	t.Run("callback error stops", func(t *testing.T) {
		t.Parallel()
		stop := errors.New("stop")
		n := 0
		err := EachMember([]byte(`{"a":1,"b":2}`), func(string, json.RawMessage) error { n++; return stop })
		if !errors.Is(err, stop) || n != 1 {
			t.Errorf("EachMember = %v after %d calls, want stop after 1", err, n)
		}
	})
}
