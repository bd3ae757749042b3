package engine

import (
	"encoding/json"
	"os"
	"testing"
)

// TestValidateToolArgsGolden runs every case of testdata/validate_cases.json
// (each keyword, coercion rule and error rendering, on schemas shaped like
// real tools': built-ins, TypeBox, zod and pydantic output) and compares
// the coerced arguments or the error text, byte for byte, with what the
// reference's own validation gave for the same schema and arguments
// (testdata/validate_golden.json, recorded by testdata/validate-golden.mjs).
func TestValidateToolArgsGolden(t *testing.T) {
	t.Parallel()
	var cases []struct {
		Name   string          `json:"name"`
		Tool   string          `json:"tool"`
		Schema json.RawMessage `json:"schema"`
		Args   json.RawMessage `json:"args"`
	}
	var golden []struct {
		Name  string  `json:"name"`
		Value *string `json:"value"`
		Error *string `json:"error"`
	}
	for path, into := range map[string]any{"testdata/validate_cases.json": &cases, "testdata/validate_golden.json": &golden} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, into); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	if len(cases) != len(golden) {
		t.Fatalf("%d cases, %d golden answers: rerun testdata/validate-golden.mjs", len(cases), len(golden))
	}
	for i, tc := range cases {
		want := golden[i]
		if want.Name != tc.Name {
			t.Fatalf("case %d is %q, golden has %q: rerun testdata/validate-golden.mjs", i, tc.Name, want.Name)
		}
		tool := tc.Tool
		if tool == "" {
			tool = "t"
		}
		got, err := ValidateToolArgs(tool, tc.Schema, tc.Args)
		switch {
		case want.Error != nil:
			if err == nil {
				t.Errorf("%s: accepted as %s, want error\n%s", tc.Name, got, *want.Error)
			} else if err.Error() != *want.Error {
				t.Errorf("%s: error\n%s\nwant\n%s", tc.Name, err, *want.Error)
			}
		case err != nil:
			t.Errorf("%s: error\n%s\nwant value %s", tc.Name, err, *want.Value)
		default:
			// Our arguments keep each unchanged number's text as the model
			// wrote it; compare them as JSON.stringify would print them.
			v, perr := parseJV(got)
			if perr != nil {
				t.Fatalf("%s: result %s: %v", tc.Name, got, perr)
			}
			if s := v.stringify(""); s != *want.Value {
				t.Errorf("%s: got %s, want %s", tc.Name, s, *want.Value)
			}
		}
	}
}
