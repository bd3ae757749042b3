package config

import (
	"reflect"
	"testing"
)

// TestDecodeKeyOrder pins the order read from a settings file: keys as
// written, a repeated key in its first place (as JSON.parse keeps it),
// nested objects and objects inside arrays under their index, nil for
// what is not valid JSON.
func TestDecodeKeyOrder(t *testing.T) {
	t.Parallel()
	type node struct {
		Keys []string
		Kids map[string]node
	}
	var flat func(o *keyOrder) node
	flat = func(o *keyOrder) node {
		n := node{Keys: append([]string{}, o.keys...), Kids: map[string]node{}}
		for k, v := range o.kids {
			n.Kids[k] = flat(v)
		}
		return n
	}
	tests := []struct {
		name string
		in   string
		want *node
	}{
		{"order as written", `{"z":1,"a":2}`, &node{Keys: []string{"z", "a"}, Kids: map[string]node{}}},
		{"repeated key first place", `{"a":1,"b":2,"a":3}`, &node{Keys: []string{"a", "b"}, Kids: map[string]node{}}},
		{"nested and arrays", `{"p":{"y":1,"x":2},"l":[1,{"k":1,"j":2}]}`, &node{Keys: []string{"p", "l"}, Kids: map[string]node{
			"p": {Keys: []string{"y", "x"}, Kids: map[string]node{}},
			"l": {Keys: []string{}, Kids: map[string]node{"1": {Keys: []string{"k", "j"}, Kids: map[string]node{}}}},
		}}},
		{"invalid", `{"a":`, nil},
		{"scalar", `3`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := decodeKeyOrder([]byte(tt.in))
			if tt.want == nil {
				if o != nil {
					t.Fatalf("decodeKeyOrder(%s) = %+v, want nil", tt.in, flat(o))
				}
				return
			}
			if o == nil {
				t.Fatalf("decodeKeyOrder(%s) = nil", tt.in)
			}
			if got := flat(o); !reflect.DeepEqual(got, *tt.want) {
				t.Errorf("decodeKeyOrder(%s) = %+v, want %+v", tt.in, flat(o), *tt.want)
			}
		})
	}
}
