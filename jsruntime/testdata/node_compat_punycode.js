// punycode: the RFC 3492 samples, IDNA domain mapping, ucs2, errors.
const punycode = require("punycode");
const log = (...a) => console.log(...a);
log("keys", Object.keys(punycode).join(","), punycode.version);
for (const s of ["mañana", "bücher", "ü", "ليهمابتكلموشعربي؟", "他们为什么不说中文", "Pročprostěnemluvíčesky", "3年B組金八先生", "安室奈美恵-with-SUPER-MONKEYS", "abc", "", "☃-⌘", "😀emoji"]) {
  const e = punycode.encode(s);
  log("encode", JSON.stringify(s), e, punycode.decode(e) === s);
}
for (const d of ["mañana.com", "例え.テスト", "josé@mañana.com", "already.ascii", "a\u3002b\uFF0Ec", "xn--maana-pta.com", "XN--MAANA-PTA.com"]) {
  log("toASCII", JSON.stringify(d), punycode.toASCII(d), "toUnicode", punycode.toUnicode(punycode.toASCII(d)));
}
log("toUnicode upper", punycode.toUnicode("XN--MAANA-PTA.com"));
log("ucs2", JSON.stringify(punycode.ucs2.decode("a😀\uD800b")), JSON.stringify(punycode.ucs2.encode([97, 0x1f600, 0xd800])));
for (const bad of ["ü-abc", "abc-!", "zzzzzzzzzzzzz", "99999999999"]) {
  try { log("decode", bad, JSON.stringify(punycode.decode(bad))); } catch (e) { log("decode", bad, e.name, e.message); }
}
