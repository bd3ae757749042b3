package config

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestSetRawKeys pins {...obj, k: v} on raw JSON: an existing key keeps
// its place, a new one goes last, nil (undefined) drops the key, values
// of untouched keys are kept as written, and keys are written with
// JSON.stringify's escaping.
func TestSetRawKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		kvs  [][2]any
		want string
	}{
		{"replace in place and append", `{"api":"x","id":"m"}`, [][2]any{{"api", "y"}, {"provider", "p<&>"}}, `{"api":"y","id":"m","provider":"p<&>"}`},
		{"drop with nil", `{"a":1,"headers":{"x":"1"},"b":2}`, [][2]any{{"headers", nil}, {"missing", nil}}, `{"a":1,"b":2}`},
		{"untouched values as written", `{"n":1.50, "o": {"k" : 1}}`, [][2]any{{"z", true}}, `{"n":1.50,"o":{"k" : 1},"z":true}`},
		{"empty object", `{}`, [][2]any{{"a", 1}}, `{"a":1}`},
		{"html in keys raw", `{"<k>":1}`, nil, `{"<k>":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := string(setRawKeys(json.RawMessage(tt.in), tt.kvs)); got != tt.want {
				t.Errorf("setRawKeys(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
	if got := setRawKeys(json.RawMessage(`[1]`), nil); got != nil {
		t.Errorf("setRawKeys of an array = %s, want nil", got)
	}
}

func TestObjectKeyOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     []string
	}{
		{"file order", `{"providers":{"z":{},"a":{},"m":1}}`, []string{"z", "a", "m"}},
		{"repeated inner key twice", `{"providers":{"a":1,"a":2}}`, []string{"a", "a"}},
		{"missing", `{"other":{}}`, nil},
		{"not an object", `{"providers":[1]}`, nil},
		{"invalid file", `{"providers":`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := objectKeyOrder([]byte(tt.in), "providers"); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("objectKeyOrder(%s) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
