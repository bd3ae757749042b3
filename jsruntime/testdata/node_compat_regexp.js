// Unicode property escapes in regular expressions: literals and RegExp
// calls, inside and outside character classes, negated, with other flags.
// esbuild lowers only the escapes outside a class; the ones inside a class
// are expanded by our compile step.
const out = [];
const p = (...a) => out.push(a.map((x) => typeof x === "string" ? x : JSON.stringify(x)).join(" | "));
p("class \\P literal", /^[\P{ASCII}]$/u.test("é"), /^[\P{ASCII}]$/u.test("e"));
p("class \\P RegExp", new RegExp("^[\\P{ASCII}]$", "u").test("é"), new RegExp("^[\\P{ASCII}]$", "u").test("e"));
p("bare \\P literal", /^\P{ASCII}$/u.test("é"), /^\P{ASCII}$/u.test("e"));
p("class \\p{L}", /^[\p{L}]+$/u.test("héllo"), /^[\p{L}]+$/u.test("h3llo"));
p("class mixed", "a1_b-é€ 😀".match(/[\p{L}\p{N}_]/gu));
p("negated class", "a1 é€😀".replace(/[^\p{L}]/gu, "."));
p("class range and escape", /^[\p{Lu}a-c\d]+$/u.test("ÀBa1"), /^[\p{Lu}a-c\d]+$/u.test("ÀBd1"));
p("script", "Ελληνικά and latin".match(/[\p{Script=Greek}]+/gu));
p("gc long name", /^[\p{General_Category=Decimal_Number}]+$/u.test("٣4"));
p("emoji class", "hi 😀 there 🎉".match(/[\p{Extended_Pictographic}]/gu));
p("ignore case", /^[\p{Lu}]+$/iu.test("abc"), /^[\P{Lu}]$/u.test("a"));
p("split", "one, two;three".split(/[\p{P}\s]+/u));
p("in function", ((s) => /[\p{Ll}]/u.test(s))("X"), ((s) => /[\p{Ll}]/u.test(s))("x"));
p("sticky", (() => { const r = /[\p{L}]/uy; r.lastIndex = 1; return [r.test("1a"), r.lastIndex]; })());
p("string not regex", "[\\p{L}]".length, "/[\\P{ASCII}]/u".includes("P{"));
p("division after", (() => { const a = 6, b = 3, g = 1; return a / b / g; })());
console.log(out.join("\n"));
