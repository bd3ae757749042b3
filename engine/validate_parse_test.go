package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestValidateToolArgsParse pins how tool arguments are read before
// validation: the model's key order and number literals survive, a
// repeated key keeps its first place and last value (JSON.parse), and
// text after the object is refused, as JSON.parse refuses it. The former
// reader accepted a stray closing bracket after the object ("{...}]") and
// dropped it; JSON.parse('{"a":1}]') throws.
func TestValidateToolArgsParse(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{"type":"object"}`)
	tests := []struct {
		name    string
		args    string
		want    string
		wantErr string
	}{
		{"order kept", `{"z":1,"a":"<&>"}`, `{"z":1,"a":"<&>"}`, ""},
		{"numbers as written", `{"n":1.50,"e":1E3}`, `{"n":1.50,"e":1E3}`, ""},
		{"repeated key", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`, ""},
		{"nested compacted", `{ "o" : { "k" : [ 1 , {} ] } }`, `{"o":{"k":[1,{}]}}`, ""},
		{"empty is an object", ``, `{}`, ""},
		{"trailing value", `{"a":1} {}`, "", "unexpected data after JSON value"},
		{"stray bracket", `{"a":1}]`, "", "unexpected data after JSON value"},
		{"unclosed", `{"a":1`, "", "Invalid arguments for tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ValidateToolArgs("t", schema, json.RawMessage(tt.args))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("ValidateToolArgs(%s) = %s, want %s", tt.args, got, tt.want)
			}
		})
	}
}
