package rpc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/require"
)

func TestLineReaderFraming(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"lf", "a\nb\n", []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"one cr only", "a\r\r\n", []string{"a\r"}},
		{"final without lf", "a\nlast", []string{"a", "last"}},
		{"empty line kept", "\n\n", []string{"", ""}},
		{"u2028 is data", "{\"m\":\"x\u2028y\u2029z\"}\n", []string{"{\"m\":\"x\u2028y\u2029z\"}"}},
		{"long line", strings.Repeat("x", 300000) + "\n", []string{strings.Repeat("x", 300000)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, l := range Lines(strings.NewReader(c.in)) {
				got = append(got, string(l))
			}
			require.Equal(t, c.want, got)
		})
	}
}

func TestDecodeResponses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"not json", "this is not json", `{"type":"response","command":"parse","success":false,"error":"Failed to parse command: Unexpected token 'h', \"this is not json\" is not valid JSON"}`},
		{"empty", "", `{"type":"response","command":"parse","success":false,"error":"Failed to parse command: Unexpected end of JSON input"}`},
		{"number", "42", `{"type":"response","success":false,"error":"Unknown command: undefined"}`},
		{"array", "[]", `{"type":"response","success":false,"error":"Unknown command: undefined"}`},
		{"null", "null", `{"type":"response","success":false,"error":"Unknown command: undefined"}`},
		{"no type", `{"id":"x"}`, `{"id":"x","type":"response","success":false,"error":"Unknown command: undefined"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode([]byte(c.in))
			var de *DecodeError
			require.ErrorAs(t, err, &de)
			b, merr := engine.MarshalJSON(de.Response)
			require.NoError(t, merr)
			require.Equal(t, c.want, string(b))
		})
	}
}

func TestResponseShapes(t *testing.T) {
	t.Parallel()
	cmd, err := Decode([]byte(`{"id":7,"type":"cycle_model"}`))
	require.NoError(t, err)
	b, _ := engine.MarshalJSON(OKNull(cmd))
	require.Equal(t, `{"id":7,"type":"response","command":"cycle_model","success":true,"data":null}`, string(b))
	b, _ = engine.MarshalJSON(OK(cmd, nil))
	require.Equal(t, `{"id":7,"type":"response","command":"cycle_model","success":true}`, string(b))
	b, _ = engine.MarshalJSON(OK(cmd, map[string]int{"a": 1}))
	require.Equal(t, `{"id":7,"type":"response","command":"cycle_model","success":true,"data":{"a":1}}`, string(b))
	noID, _ := Decode([]byte(`{"type":"x"}`))
	b, _ = engine.MarshalJSON(Fail(noID, errString("Unknown command: x")))
	require.Equal(t, `{"type":"response","command":"x","success":false,"error":"Unknown command: x"}`, string(b))
}

type errString string

func (e errString) Error() string { return string(e) }

// FuzzDecode checks that no input line panics the decoder or produces a
// response that is not valid JSON.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", "null", "42", "[]", `{"type":"prompt","message":"hi"}`, `{"id":1,"type":{}}`, "{\"type\":\"x\u2028\"}", `{"type":"prompt","images":[{"type":"image","data":"AA==","mimeType":"image/png"}]}`, "\xff\xfe", `{"id":"a","type":"get_state"`} {
		f.Add([]byte(s))
	}
	for _, s := range []string{`{"type":"get_state","TYPE":"bash"}`, `{"TYPE":"bash"}`, `{"type":["get_state"]}`, `{"type":"a","type":"b"}`, `{"\u0074ype":"abort"}`, "{\"id\":\"a\xffb\",\"type\":\"x\xe2\x82\"}", `{"id":"\ud800","type":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		cmd, err := Decode(line)
		var resp Response
		if err != nil {
			var de *DecodeError
			if !asDecodeError(err, &de) {
				t.Fatalf("unexpected error type %T", err)
			}
			resp = de.Response
		} else {
			resp = OK(cmd, nil)
		}
		b, merr := engine.MarshalJSON(resp)
		if merr != nil {
			t.Fatalf("marshal: %v", merr)
		}
		// json.Valid accepts invalid UTF-8 inside strings; JSON.parse on
		// the client's side would not see the same text.
		if !jsonValid(b) || !utf8.Valid(b) {
			t.Fatalf("invalid response JSON: %q", b)
		}
		checkExactDispatch(t, line, cmd, err)
	})
}

// checkExactDispatch compares Decode's verdict with the object JSON.parse
// builds (encoding/json into a map matches keys exactly and keeps a
// repeated key's last value): only a string under the exact key "type"
// dispatches, and to that string.
func checkExactDispatch(t *testing.T, line []byte, cmd *Command, err error) {
	t.Helper()
	var obj map[string]json.RawMessage
	if json.Unmarshal(engine.ToValidUTF8(bytes.TrimSpace(line)), &obj) != nil || obj == nil {
		if err == nil {
			t.Fatalf("%q is not an object but dispatched %q", line, cmd.Type)
		}
		return
	}
	raw, has := obj["type"]
	var want string
	isString := has && len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &want) == nil
	switch {
	case isString && err != nil:
		t.Fatalf("%q has type %q but was refused: %v", line, want, err)
	case isString && cmd.Type != want:
		t.Fatalf("%q dispatched %q, want %q", line, cmd.Type, want)
	case !isString && err == nil:
		t.Fatalf("%q has no string type but dispatched %q", line, cmd.Type)
	}
}

// TestResponseEchoesIDAsStringified checks that an echoed id and a
// non-string type are written as JSON.stringify prints what JSON.parse
// read: compact, with \u escapes of plain characters written out, whatever
// spacing the client used.
func TestResponseEchoesIDAsStringified(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{`{"id": [1, {"a" : 2}], "type":"x"}`, `{"id":[1,{"a":2}],"type":"response","command":"x","success":false,"error":"Unknown command: x"}`},
		{`{"id":"\u00e9\u2028","type":"x"}`, "{\"id\":\"é\u2028\",\"type\":\"response\",\"command\":\"x\",\"success\":false,\"error\":\"Unknown command: x\"}"},
		{`{"id":1,"type":"get_state"}`, `{"id":1,"type":"response","command":"get_state","success":true,"data":{"a":[1,2]}}`},
	}
	for _, c := range cases {
		cmd, err := Decode([]byte(c.in))
		require.NoError(t, err)
		r := Fail(cmd, errString("Unknown command: "+cmd.Type))
		if cmd.Type == "get_state" {
			r = OK(cmd, json.RawMessage(`{"a": [1, 2]}`))
		}
		b, err := engine.MarshalJSON(r)
		require.NoError(t, err)
		require.Equal(t, c.want, string(b))
	}
}
