package openai

import (
	"encoding/json"
	"testing"
)

func TestStringValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw  string
		want string
	}{
		{`"x"`, "x"},
		{`""`, ""},
		{`"a\nb \"q\" \u00e9"`, "a\nb \"q\" é"},
		{"\"bad \xff\"", "bad \ufffd"},
		{`null`, ""},
		{`12`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			t.Parallel()
			if got := stringValue(json.RawMessage(tt.raw)); got != tt.want {
				t.Errorf("stringValue(%s) = %q, want %q", tt.raw, got, tt.want)
			}
		})
	}
}
