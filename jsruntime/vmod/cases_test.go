package vmod

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// refResult is what testdata/gen/gen.mjs recorded for one expression when
// evaluated against the reference's own packages.
type refResult struct {
	JSON     *string `json:"json,omitempty"`
	Kind     string  `json:"kind,omitempty"`
	Optional bool    `json:"optional,omitempty"`
	Readonly bool    `json:"readonly,omitempty"`
	Throws   *string `json:"throws,omitempty"`
}

// runner is the JavaScript that evaluates one case the way gen.mjs does, with
// our modules bound to the same names.
const runner = `
var Type = require("typebox").Type;
var Value = require("typebox/value").Value;
var Compile = require("typebox/compile").Compile;
var ai = require("@earendil-works/pi-ai");
var pca = require("@earendil-works/pi-coding-agent");
var tui = require("@earendil-works/pi-tui");
var S1 = Type.Object({ a: Type.String({ minLength: 2 }), b: Type.Optional(Type.Integer({ minimum: 1 })), c: Type.Array(Type.Union([Type.Literal("x"), Type.Literal("y")])) });
function runCase(expr) {
  try {
    var fn = new Function("Type", "Value", "Compile", "ai", "pca", "tui", "S1", "return (" + expr + ");");
    var value = fn(Type, Value, Compile, ai, pca, tui, S1);
    var out = { json: JSON.stringify(value) };
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      if (value["~kind"] !== undefined) out.kind = value["~kind"];
      if (value["~optional"] === true) out.optional = true;
      if (value["~readonly"] === true) out.readonly = true;
    }
    return JSON.stringify(out);
  } catch (e) {
    return JSON.stringify({ throws: String(e && e.message) });
  }
}
`

func TestReferenceCases(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "gen", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases map[string]map[string]string
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	refRaw, err := os.ReadFile(filepath.Join("testdata", "reference", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]map[string]refResult
	if err := json.Unmarshal(refRaw, &want); err != nil {
		t.Fatal(err)
	}
	groups := make([]string, 0, len(cases))
	for g := range cases {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for _, group := range groups {
		t.Run(group, func(t *testing.T) {
			t.Parallel()
			v := newVM(t, nil)
			if _, err := v.rt.RunString(runner); err != nil {
				t.Fatal(err)
			}
			names := make([]string, 0, len(cases[group]))
			for n := range cases[group] {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, name := range names {
				expr := cases[group][name]
				val, err := v.rt.RunString("runCase(" + quoteJS(expr) + ")")
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				var got refResult
				if err := json.Unmarshal([]byte(val.String()), &got); err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				exp, ok := want[group][name]
				if !ok {
					t.Errorf("%s: no reference output; rerun testdata/gen/gen.mjs", name)
					continue
				}
				gotJSON, _ := json.Marshal(got)
				expJSON, _ := json.Marshal(exp)
				if string(gotJSON) != string(expJSON) {
					t.Errorf("%s: %s\n got: %s\nwant: %s", name, expr, gotJSON, expJSON)
				}
			}
		})
	}
}

func quoteJS(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
