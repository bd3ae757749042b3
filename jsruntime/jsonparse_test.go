package jsruntime

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/pi-go/pi/engine"
	"github.com/pi-go/pi/engine/config"
)

// TestParseJSONMatchesJSONParse: the bridge's JSON reader gives what
// JSON.parse gives (values, key order, numbers, escapes, __proto__ as an
// own key), and refuses what JSON.parse refuses.
func TestParseJSONMatchesJSONParse(t *testing.T) {
	t.Parallel()
	docs := []string{
		`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e3`, `-12`, `9007199254740993`, `123456789012345678901234567890`,
		`"plain"`, `"esc \" \\ \/ \b \f \n \r \t \u00e9 \u2028 \ud83d\ude00 ✓"`,
		`{"b":1,"a":[1,"x",{"c":null}],"2":"two","1":"one"}`,
		` { "__proto__" : {"polluted": true}, "k" : [ ] } `,
		`{"dup":1,"other":2,"dup":3}`,
		`[[[[[]]]],{"a":{"b":{"c":{}}}}]`,
	}
	bad := []string{``, `{`, `[1,]`, `{"a":1,}`, `01`, `1.`, `.5`, `+1`, `"\x"`, "\"a\tb\"", `tru`, `{"a" 1}`, `[1 2]`, `"\ud800"`, `1 2`}
	vm := goja.New()
	jsParse, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	show, err := vm.RunString(`(v) => JSON.stringify(v, (k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).map((k) => ["<" + k + ">", x[k]])) : Object.is(x, -0) ? "-0" : x)) + "|" + (v && typeof v === "object" ? Object.getPrototypeOf(v) === Object.prototype || Array.isArray(v) : "")`)
	if err != nil {
		t.Fatal(err)
	}
	showFn, _ := goja.AssertFunction(show)
	str := func(v goja.Value) string {
		s, err := showFn(goja.Undefined(), v)
		if err != nil {
			t.Fatal(err)
		}
		return s.String()
	}
	for _, d := range docs {
		want, err := jsParse(goja.Undefined(), vm.ToValue(d))
		if err != nil {
			t.Fatalf("JSON.parse(%s): %v", d, err)
		}
		got, ok := parseJSON(vm, d)
		if !ok {
			if d == `"esc \" \\ \/ \b \f \n \r \t \u00e9 \u2028 \ud83d\ude00 ✓"` {
				continue // a surrogate pair goes to JSON.parse
			}
			t.Errorf("parseJSON(%s) refused", d)
			continue
		}
		if str(got) != str(want) {
			t.Errorf("parseJSON(%s) = %s, JSON.parse gives %s", d, str(got), str(want))
		}
	}
	for _, d := range bad {
		if _, ok := parseJSON(vm, d); ok {
			t.Errorf("parseJSON(%q) accepted", d)
		}
	}
}

// BenchmarkParseJSONEvent compares the two on a streamed message_update
// as the bridge hands it to extension handlers (the per-event path).
func BenchmarkParseJSONEvent(b *testing.B) {
	s := `{"type":"message_update","message":{"role":"assistant","content":[{"type":"thinking","thinking":"Let me look at the file first.","thinkingSignature":"sig"},{"type":"text","text":"Here is what I found in main.go: the handler reads the config twice."},{"type":"toolCall","id":"call_1","name":"read","arguments":{"path":"main.go","offset":1,"limit":200}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1200,"output":85,"cacheRead":0,"cacheWrite":0,"totalTokens":1285,"cost":{"input":0.0036,"output":0.001275,"cacheRead":0,"cacheWrite":0,"total":0.004875}},"stopReason":"stop","timestamp":1764480000000},"assistantMessageEvent":{"type":"text_delta","contentIndex":1,"delta":" twice."}}`
	benchParse(b, s)
}

// BenchmarkParseJSONCatalog compares the bridge's reader with JSON.parse
// on the whole model catalog (ctx.modelRegistry.getAll's payload).
func BenchmarkParseJSONCatalog(b *testing.B) {
	ms := config.CatalogModels()
	ps := make([]*engine.Model, len(ms))
	for i := range ms {
		ps[i] = &ms[i]
	}
	js, err := engine.MarshalJSON(extModels(ps))
	if err != nil {
		b.Fatal(err)
	}
	s := string(js)
	benchParse(b, s)
}

// benchParse times the bridge's reader and JSON.parse on one document.
func benchParse(b *testing.B, s string) {
	vm := goja.New()
	jsParse, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	b.Run("parseJSON", func(b *testing.B) {
		for b.Loop() {
			if _, ok := parseJSON(vm, s); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("JSON.parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := jsParse(goja.Undefined(), vm.ToValue(s)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
