package rpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/pi-go/pi/engine"
	"github.com/stretchr/testify/require"
)

// TestDecodeExactKeys pins the responses the reference (pi 1.6.0, checked
// live) gives to records whose type is missing, repeated, differently
// cased or not a string: only the exact key "type" names the command, the
// last one wins, and a type that is not a string never dispatches.
func TestDecodeExactKeys(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		// typ is the command dispatched; "" means a DecodeError whose
		// response is resp.
		typ  string
		resp string
	}{
		{"upper-case TYPE ignored", `{"id":"c","type":"get_state","TYPE":"bash","command":"echo pwned"}`, "get_state", ""},
		{"only TYPE", `{"id":"d","TYPE":"bash","command":"echo x"}`, "", `{"id":"d","type":"response","success":false,"error":"Unknown command: undefined"}`},
		{"Type", `{"Type":"get_state"}`, "", `{"type":"response","success":false,"error":"Unknown command: undefined"}`},
		{"repeated type last wins", `{"id":"g","type":"get_state","type":"bash","command":"x"}`, "bash", ""},
		{"escaped key", `{"id":"t","\u0074ype":"abort_bash"}`, "abort_bash", ""},
		{"array type", `{"id":"a","type":["get_state"]}`, "", `{"id":"a","type":"response","command":["get_state"],"success":false,"error":"Unknown command: get_state"}`},
		{"number type", `{"id":"b","type":5}`, "", `{"id":"b","type":"response","command":5,"success":false,"error":"Unknown command: 5"}`},
		{"number type canonical", `{"id":"t","type":5.0}`, "", `{"id":"t","type":"response","command":5,"success":false,"error":"Unknown command: 5"}`},
		{"object type", `{"id":"h","type":{"a":1}}`, "", `{"id":"h","type":"response","command":{"a":1},"success":false,"error":"Unknown command: [object Object]"}`},
		{"null type", `{"id":"i","type":null}`, "", `{"id":"i","type":"response","command":null,"success":false,"error":"Unknown command: null"}`},
		{"bool type", `{"id":"j","type":true}`, "", `{"id":"j","type":"response","command":true,"success":false,"error":"Unknown command: true"}`},
		{"empty array type", `{"id":"l","type":[]}`, "", `{"id":"l","type":"response","command":[],"success":false,"error":"Unknown command: "}`},
		{"no id", `{"type":5}`, "", `{"type":"response","command":5,"success":false,"error":"Unknown command: 5"}`},
		{"null id", `{"id":null,"type":5}`, "", `{"id":null,"type":"response","command":5,"success":false,"error":"Unknown command: 5"}`},
		{"empty object", `{}`, "", `{"type":"response","success":false,"error":"Unknown command: undefined"}`},
		{"ui response type as array", `{"type":["extension_ui_response"],"id":"x"}`, "", `{"id":"x","type":"response","command":["extension_ui_response"],"success":false,"error":"Unknown command: extension_ui_response"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cmd, err := Decode([]byte(c.in))
			if c.typ != "" {
				require.NoError(t, err)
				require.Equal(t, c.typ, cmd.Type)
				return
			}
			var de *DecodeError
			require.ErrorAs(t, err, &de)
			b, merr := engine.MarshalJSON(de.Response)
			require.NoError(t, merr)
			require.Equal(t, c.resp, string(b))
		})
	}
}

// TestFieldsExactKeys checks that a command's own fields match exactly:
// a differently cased key neither fills nor overrides a field, and a
// repeated key keeps its last value.
func TestFieldsExactKeys(t *testing.T) {
	t.Parallel()
	type bashFields struct {
		Command            *string `json:"command"`
		ExcludeFromContext bool    `json:"excludeFromContext"`
	}
	type nested struct {
		Items []struct {
			Name string `json:"name"`
		} `json:"items"`
		ByKey map[string]struct {
			N int `json:"n"`
		} `json:"byKey"`
	}
	cases := []struct {
		name string
		in   string
		v    func() any
		want any
	}{
		{"COMMAND does not override", `{"type":"bash","command":"echo one","COMMAND":"echo two"}`,
			func() any { return &bashFields{} }, &bashFields{Command: strp("echo one")}},
		{"Command alone is not command", `{"type":"bash","Command":"echo x","EXCLUDEFROMCONTEXT":true}`,
			func() any { return &bashFields{} }, &bashFields{}},
		{"repeated key last wins", `{"type":"bash","command":"a","command":"b"}`,
			func() any { return &bashFields{} }, &bashFields{Command: strp("b")}},
		{"null pointer", `{"type":"bash","command":null}`,
			func() any { return &bashFields{} }, &bashFields{}},
		{"nested exact", `{"type":"x","items":[{"name":"a","NAME":"b"},{"Name":"c"}],"byKey":{"k":{"n":1,"N":2},"K":{"n":3}}}`,
			func() any { return &nested{} }, &nested{
				Items: []struct {
					Name string `json:"name"`
				}{{Name: "a"}, {}},
				ByKey: map[string]struct {
					N int `json:"n"`
				}{"k": {N: 1}, "K": {N: 3}},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cmd, err := Decode([]byte(c.in))
			require.NoError(t, err)
			v := c.v()
			require.NoError(t, fields(cmd, v))
			require.Equal(t, c.want, v)
		})
	}
}

// TestFieldsAgreesWithEncodingJSON checks that, for records whose keys are
// all exact and unique, fields decodes what encoding/json decoded before
// and words type errors the same way.
func TestFieldsAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	type all struct {
		Message  *string          `json:"message"`
		Images   []engine.Content `json:"images"`
		Enabled  bool             `json:"enabled"`
		Level    string           `json:"level"`
		Since    json.RawMessage  `json:"since"`
		Count    int              `json:"count"`
		Untagged string
		Extra    map[string]any `json:"extra"`
	}
	inputs := []string{
		`{"type":"prompt","message":"hi","images":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}`,
		`{"type":"prompt","message":7}`,
		`{"type":"prompt","message":null,"images":null}`,
		`{"type":"prompt","images":"x"}`,
		`{"type":"prompt","images":[5]}`,
		`{"type":"prompt","images":[{"type":"image","data":5}]}`,
		`{"type":"x","enabled":1}`,
		`{"type":"x","enabled":"yes"}`,
		`{"type":"x","level":["max"]}`,
		`{"type":"x","since":{"a" : [1, 2]}}`,
		`{"type":"x","count":1.5}`,
		`{"type":"x","count":"1"}`,
		`{"type":"x","Untagged":"u"}`,
		`{"type":"x","extra":{"a":{"b":[1,"c",null]}}}`,
		`{"type":"x","extra":[1]}`,
		`{"type":"x","message":"a\u00e9\ud83d\ude00"}`,
	}
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			cmd, err := Decode([]byte(in))
			require.NoError(t, err)
			var got, want all
			gotErr := fields(cmd, &got)
			wantErr := oldFields(cmd, &want)
			if wantErr != nil {
				require.EqualError(t, gotErr, wantErr.Error())
				return
			}
			require.NoError(t, gotErr)
			require.Equal(t, want, got)
		})
	}
}

// oldFields is what fields did with encoding/json, kept as the oracle.
func oldFields(cmd *Command, v any) error {
	if err := json.Unmarshal(cmd.Raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("Invalid %s: expected %s, got %s", te.Field, jsonKind(te.Type), te.Value)
		}
		return fmt.Errorf("Invalid command: %w", err)
	}
	return nil
}

// TestHandleLineExactKeys runs the records of the security report through
// a server: the upper-case TYPE must not run bash, and COMMAND must not
// replace command.
func TestHandleLineExactKeys(t *testing.T) {
	t.Parallel()
	d := newDriver(t, driverOptions{})
	d.send(`{"id":"c","type":"get_state","TYPE":"bash","command":"echo pwned"}`)
	r := d.response("c")
	require.Equal(t, "get_state", r["command"])
	d.send(`{"id":"e","type":"bash","command":"echo one","COMMAND":"echo two"}`)
	r = d.response("e")
	require.Equal(t, "echo one\n", r["data"].(map[string]any)["output"])
	d.send(`{"id":"a","type":["get_state"]}`)
	r = d.response("a")
	require.Equal(t, false, r["success"])
	require.Equal(t, "Unknown command: get_state", r["error"])
	d.sink.mu.Lock()
	defer d.sink.mu.Unlock()
	for _, l := range d.sink.lines {
		require.NotContains(t, l, "pwned")
		require.NotContains(t, l, "two")
	}
}
