package highlight

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/pi-go/pi/engine/tui/theme"
)

var names = [...]string{"text", "comment", "keyword", "function", "variable", "string", "number", "type",
	"operator", "punctuation", "meta", "added", "removed", "tag", "attr", "bold", "italic", "link"}

// classes renders the non-text spans as "class:text" for comparison.
func classes(lang, code string) string {
	var out []string
	for _, sp := range Scan(lang, code) {
		if sp.Token == Text {
			continue
		}
		out = append(out, names[sp.Token]+":"+sp.Text)
	}
	return strings.Join(out, " | ")
}

func TestScan(t *testing.T) {
	t.Parallel()
	cases := []struct{ lang, code, want string }{
		{"go", "func main() { x := 42 // hi\n\treturn nil }",
			"keyword:func | function:main | number:42 | comment:// hi | keyword:return | number:nil"},
		{"go", "var s string = `raw \\` + \"q\\\"\"",
			"keyword:var | keyword:string | string:`raw \\` | string:\"q\\\"\""},
		{"go", "type T struct{}\nfmt.Println(len(x))",
			"keyword:type | keyword:struct | type:len"},
		{"javascript", "const f = async (a) => { await g(`t${a}`); /* c */ }",
			"keyword:const | keyword:async | keyword:await | string:`t${a}` | comment:/* c */"},
		{"ts", "interface A { b: number }\nclass C extends D {}",
			"keyword:interface | function:A | type:number | keyword:class | function:C | keyword:extends | function:D"},
		{"tsx", "let x = true", "keyword:let | number:true"},
		{"python", "@dec\ndef f(self, x=1.5e3):\n    \"\"\"doc\n    more\"\"\"\n    return f'{x}' # note",
			"meta:@dec | keyword:def | function:f | variable:self | variable:x | number:1.5e3 | string:\"\"\"doc\n    more\"\"\" | keyword:return | string:f'{x}' | comment:# note"},
		{"py", "print(None, True)", "type:print | number:None | number:True"},
		{"rust", "fn main<'a>() { let v: Vec<u8> = vec![b'x']; }",
			"keyword:fn | function:main | keyword:let | type:Vec | type:u8 | type:vec"},
		{"bash", "for f in *.go; do echo \"$f ${HOME}\" # loop\ndone",
			"keyword:for | keyword:in | keyword:do | type:echo | string:\" | variable:$f | string:  | variable:${HOME} | string:\" | comment:# loop | keyword:done"},
		{"sh", "X=1 cmd $X a#b", "variable:$X"},
		{"json", `{"a": [1, -2.5e1, true, null, "s"]}`,
			`attr:"a" | number:1 | number:-2.5e1 | number:true | number:null | string:"s"`},
		{"yaml", "# c\nkey: value\nlist:\n  - 3\n  - \"s\" # t\nok: true",
			"comment:# c | attr:key | punctuation:: | attr:list | punctuation:: | punctuation:-  | number:3 | punctuation:-  | string:\"s\" | comment:# t | attr:ok | punctuation:: | number: true"},
		{"c", "#include <stdio.h>\nint main(void) { return 0; }",
			"meta:#include <stdio.h> | type:int | function:main | type:void | keyword:return | number:0"},
		{"cpp", "template <typename T> class V { std::string s; };",
			"keyword:template | keyword:typename | keyword:class | function:V | type:std | type:string"},
		{"java", "public class Main { @Override void run() { String s = null; } }",
			"keyword:public | keyword:class | function:Main | meta:@Override | keyword:void | function:run | type:String | number:null"},
		{"diff", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n ctx",
			"comment:diff --git a/x b/x | comment:--- a/x | comment:+++ b/x | meta:@@ -1 +1 @@ | removed:-old | added:+new"},
		{"html", "<!DOCTYPE html>\n<a href=\"x\" hidden>t</a><!-- c -->",
			`meta:<!DOCTYPE html> | tag:< | keyword:a | attr:href | string:"x" | attr:hidden | tag:> | tag:</ | keyword:a | tag:> | comment:<!-- c -->`},
		{"xml", "<x:y a='1'/>", "tag:< | keyword:x:y | attr:a | string:'1' | tag:/>"},
		{"css", "@media screen { a.b { color: #fff; margin: -1.5em !important; } }",
			"keyword:@media | punctuation:{ | punctuation:{ | attr:color | punctuation:: | number:#fff | punctuation:; | attr:margin | punctuation:: | number:-1.5em | keyword:!important | punctuation:; | punctuation:} | punctuation:}"},
		{"sql", "SELECT count(*) FROM t WHERE a = 'x' -- c",
			"keyword:SELECT | type:count | keyword:FROM | keyword:WHERE | string:'x' | comment:-- c"},
		{"ruby", "def f(x) # c\n  puts \"s\" if x.nil?\nend", "keyword:def | function:f | variable:x | comment:# c | type:puts | string:\"s\" | keyword:if | keyword:end"},
		{"kotlin", "fun main() { val s: String = \"x\" }", "keyword:fun | function:main | keyword:val | type:String | string:\"x\""},
		{"toml", "[a]\nb = \"c\" # d\nn = 3", "string:\"c\" | comment:# d | number:3"},
		{"Dockerfile", "FROM go AS b\nRUN make", "keyword:FROM | keyword:AS | keyword:RUN"},
		{"markdown", "# T\n**b** *i* [l](u)", "bold:**b** | italic:*i* | string:[l] | link:(u)"},
	}
	for _, c := range cases {
		if got := classes(c.lang, c.code); got != c.want {
			t.Errorf("%s %q:\n got %s\nwant %s", c.lang, c.code, got, c.want)
		}
	}
}

func TestLinesKeepTextAndLineCount(t *testing.T) {
	t.Parallel()
	th, err := theme.LoadWith("dark", theme.Options{Mode: theme.ModeTrueColor})
	if err != nil {
		t.Fatal(err)
	}
	code := "/* a\nb */ x := \"s\ntail\nend"
	for _, lang := range []string{"go", "js", "python", "rust", "sh", "json", "yaml", "c", "cpp", "java", "diff", "html", "css", "sql", "md", "nope", ""} {
		lines := Lines(lang, code, th)
		if len(lines) != 4 {
			t.Errorf("%s: %d lines", lang, len(lines))
		}
		var plain []string
		for _, l := range lines {
			plain = append(plain, ansi.Strip(l))
		}
		if strings.Join(plain, "\n") != code {
			t.Errorf("%s: text changed: %q", lang, plain)
		}
	}
	// Unknown languages are painted in mdCodeBlock, not guessed.
	if got := Lines("klingon", "x", th)[0]; got != th.Fg("mdCodeBlock", "x") {
		t.Errorf("unknown language: %q", got)
	}
	if got := Lines("go", "func", th)[0]; got != th.Fg("syntaxKeyword", "func") {
		t.Errorf("keyword colour: %q", got)
	}
	if !Supported("TypeScript") || Supported("cobol") {
		t.Error("Supported")
	}
}

func FuzzScanKeepsText(f *testing.F) {
	f.Add("go", "func f() { return `x` }")
	f.Add("yaml", "a: 'b' # c")
	f.Add("html", "<a b='c'>")
	f.Fuzz(func(t *testing.T, lang, code string) {
		var b strings.Builder
		for _, sp := range Scan(lang, code) {
			b.WriteString(sp.Text)
		}
		if b.String() != code {
			t.Fatalf("%s: text changed", lang)
		}
	})
}

func TestLanguageFromPath(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{"a/b.ts": "typescript", "x.PY": "python", "/tmp/main.go": "go", "c:\\x\\y.rs": "rust", "README": "", "f.yml": "yaml", "p.patch": "diff"} {
		if got := LanguageFromPath(path); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
		if want != "" && !Supported(want) {
			t.Errorf("%s not supported", want)
		}
	}
}
