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
		// Parallel subtests share the schema and pattern caches, so the
		// race detector sees concurrent validations.
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			checkGoldenCase(t, tc.Tool, tc.Schema, tc.Args, want.Value, want.Error)
		})
	}
}

// checkGoldenCase validates args against schema and compares the result
// with the reference's: its error text, or its coerced value.
func checkGoldenCase(t *testing.T, tool string, schema, args json.RawMessage, wantValue, wantError *string) {
	t.Helper()
	if tool == "" {
		tool = "t"
	}
	got, err := ValidateToolArgs(tool, schema, args)
	switch {
	case wantError != nil:
		if err == nil {
			t.Errorf("accepted as %s, want error\n%s", got, *wantError)
		} else if err.Error() != *wantError {
			t.Errorf("error\n%s\nwant\n%s", err, *wantError)
		}
	case err != nil:
		t.Errorf("error\n%s\nwant value %s", err, *wantValue)
	default:
		// Our arguments keep each unchanged number's text as the model
		// wrote it; compare them as JSON.stringify would print them.
		v, perr := parseJV(got)
		if perr != nil {
			t.Fatalf("result %s: %v", got, perr)
		}
		if s := v.stringify(""); s != *wantValue {
			t.Errorf("got %s, want %s", s, *wantValue)
		}
	}
}

// TestSchemaFormatsGolden checks each format on the strings of
// testdata/validate_formats.json against the reference's format checks'
// answers (validate_formats_golden.json, recorded by validate-golden.mjs).
func TestSchemaFormatsGolden(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/validate_formats_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden map[string][][2]any
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden) != len(formatNames) {
		t.Errorf("golden has %d formats, we check %d", len(golden), len(formatNames))
	}
	for _, name := range formatNames {
		if formatCheck(name) == nil {
			t.Errorf("format %s is listed but has no check", name)
		}
	}
	for name, rows := range golden {
		check := formatCheck(name)
		if check == nil {
			t.Errorf("format %s: not checked", name)
			continue
		}
		for _, row := range rows {
			s, _ := row[0].(string)
			want, _ := row[1].(bool)
			if got := check(s); got != want {
				t.Errorf("format %s %q: got %v, want %v", name, s, got, want)
			}
		}
	}
}
