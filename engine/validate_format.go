package engine

import (
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// formatNames are the formats checked: every format JSON Schema 2020-12
// defines, plus url and json-pointer-uri-fragment, as the reference's
// validator asserts them for tool arguments. A format not listed is an
// annotation. The checks are written from the RFCs; where the reference
// defers to a WHATWG URL parser (url, iri) ours is Go's net/url with the
// same preconditions, which agrees on the URLs models send.
var formatNames = []string{
	"date", "date-time", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
	"ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "url", "uuid", "regex",
	"json-pointer", "relative-json-pointer", "json-pointer-uri-fragment", "uri-template",
}

// formatCheck is the check of a format name, nil for an unknown format. A
// switch rather than a map, so that nothing of it runs at start.
func formatCheck(name string) func(string) bool {
	switch name {
	case "date":
		return isDate
	case "date-time":
		return isDateTime
	case "time":
		return isTime
	case "duration":
		return func(s string) bool { return durationRe.get().MatchString(s) }
	case "email":
		return isEmail
	case "idn-email":
		return isIdnEmail
	case "hostname":
		return isHostname
	case "idn-hostname":
		return isIdnHostname
	case "ipv4":
		return isIPv4
	case "ipv6":
		return isIPv6
	case "uri":
		return func(s string) bool { return isURIRef(s, true) }
	case "uri-reference":
		return func(s string) bool { return isURIRef(s, false) }
	case "iri":
		return isIRI
	case "iri-reference":
		return isIRIRef
	case "url":
		return isURL
	case "uuid":
		return func(s string) bool { return uuidRe.get().MatchString(s) }
	case "regex":
		return isECMARegex
	case "json-pointer":
		return isJSONPointer
	case "relative-json-pointer":
		return isRelativeJSONPointer
	case "json-pointer-uri-fragment":
		return isJSONPointerFragment
	case "uri-template":
		return isURITemplate
	}
	return nil
}

// lazyRegexp compiles on first use: a package-level MustCompile (or a
// sync.OnceValue closure) would run or allocate at every start of pi.
type lazyRegexp struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

var (
	// RFC 3339 appendix A: P followed by a date part (years, months, days
	// in that order, each optional after the first present) and/or a
	// time part (T then hours, minutes, seconds), or weeks alone.
	durationRe = lazyRegexp{src: `^P(?:(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S)|\d+W)$`}
	uuidRe     = lazyRegexp{src: `^(?i)[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}$`}
	dateRe     = lazyRegexp{src: `^(\d{4})-(\d{2})-(\d{2})$`}
	timeRe     = lazyRegexp{src: `^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))?$`}
	schemeRe   = lazyRegexp{src: `^[A-Za-z][A-Za-z0-9+.\-]*:`}
)

func isDate(s string) bool {
	m := dateRe.get().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	d, _ := strconv.Atoi(m[3])
	if mo < 1 || mo > 12 || d < 1 {
		return false
	}
	days := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[mo-1]
	if mo == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}

// isTime is an RFC 3339 full-time: the offset is required, and a leap
// second (:60) is valid only at 23:59 UTC.
func isTime(s string) bool {
	m := timeRe.get().FindStringSubmatch(s)
	if m == nil || (m[4] == "" && m[5] == "") {
		return false
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	sec, _ := strconv.Atoi(m[3])
	if h > 23 || mi > 59 || sec > 60 {
		return false
	}
	oh, om := 0, 0
	if m[5] != "" {
		oh, _ = strconv.Atoi(m[6])
		om, _ = strconv.Atoi(m[7])
		if oh > 23 || om > 59 {
			return false
		}
	}
	if sec < 60 {
		return true
	}
	off := oh*60 + om
	if m[5] == "-" {
		off = -off
	}
	utc := ((h*60+mi-off)%1440 + 1440) % 1440
	return utc == 23*60+59
}

func isDateTime(s string) bool {
	i := strings.IndexAny(s, "Tt")
	if i < 0 || strings.ContainsAny(s[i+1:], "Tt") {
		return false
	}
	return isDate(s[:i]) && isTime(s[i+1:])
}

const atext = "!#$%&'*+/=?^_`{|}~-"

func isAtext(r rune) bool {
	return r < utf8.RuneSelf && (isASCIIAlnum(byte(r)) || strings.ContainsRune(atext, r))
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// emailLocal checks an RFC 5321 local part: dot-separated atoms, or a
// quoted string of printable characters and escapes.
func emailLocal(local string, atom func(rune) bool, anyEscape bool) bool {
	if strings.HasPrefix(local, `"`) {
		if len(local) < 2 || !strings.HasSuffix(local, `"`) {
			return false
		}
		body := local[1 : len(local)-1]
		for i := 0; i < len(body); i++ {
			switch c := body[i]; {
			case c == '\\':
				i++
				if i >= len(body) || (!anyEscape && (body[i] < 0x20 || body[i] > 0x7e)) {
					return false
				}
			case c == '"':
				return false
			}
		}
		return true
	}
	for _, a := range strings.Split(local, ".") {
		if a == "" {
			return false
		}
		for _, r := range a {
			if !atom(r) {
				return false
			}
		}
	}
	return true
}

func isEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if !emailLocal(local, isAtext, false) {
		return false
	}
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		lit := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			return v6 != "" && strings.Trim(strings.ToLower(v6), "0123456789abcdef:") == ""
		}
		return isIPv4(lit)
	}
	for _, l := range strings.Split(domain, ".") {
		if !isLDHLabel(l) {
			return false
		}
	}
	return true
}

func isIdnEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if !emailLocal(local, func(r rune) bool { return isAtext(r) || r >= 0x80 }, true) {
		return false
	}
	for _, l := range strings.Split(domain, ".") {
		if !isUnicodeLabel(l) {
			return false
		}
	}
	return true
}

// isLDHLabel is a DNS label of letters, digits and inner hyphens, 1 to 63
// characters.
func isLDHLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		if !isASCIIAlnum(l[i]) && l[i] != '-' {
			return false
		}
	}
	return true
}

func isUnicodeLabel(l string) bool {
	if l == "" || utf8.RuneCountInString(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for _, r := range l {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) && r != '-' {
			return false
		}
	}
	return true
}

// isHostname is an RFC 1123 host name of ASCII labels (a label with
// hyphens in its third and fourth places must be an "xn--" A-label), at
// most 253 characters, without a trailing dot.
func isHostname(s string) bool {
	if s == "" || len(s) > 253 || strings.HasSuffix(s, ".") {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if !isLDHLabel(l) {
			return false
		}
		if len(l) >= 4 && l[2:4] == "--" && !strings.HasPrefix(strings.ToLower(l), "xn--") {
			return false
		}
	}
	return true
}

func isIdnHostname(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > 253 || strings.HasSuffix(s, ".") {
		return false
	}
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '\u3002' || r == '\uff0e' || r == '\uff61' }) {
		if !isUnicodeLabel(l) {
			return false
		}
	}
	return true
}

func isIPv4(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}

func isIPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && a.Zone() == ""
}

// uriChar reports the characters RFC 3986 allows unescaped anywhere in a
// URI (brackets only around an IP literal host, checked by the caller).
func uriChar(c byte) bool {
	return isASCIIAlnum(c) || strings.IndexByte("-._~:/?#[]@!$&'()*+,;=", c) >= 0
}

// validPercents reports whether every % starts a two-digit hex escape.
func validPercents(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isURIRef checks an RFC 3986 URI (absolute, with a scheme) or, when
// absolute is false, a URI reference: only URI characters and escapes,
// one fragment, brackets only around the host, and a port of digits.
func isURIRef(s string, absolute bool) bool {
	if absolute && !schemeRe.get().MatchString(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '%' && !uriChar(s[i]) {
			return false
		}
	}
	if !validPercents(s) || strings.Count(s, "#") > 1 {
		return false
	}
	rest := s
	if m := schemeRe.get().FindString(s); m != "" {
		rest = s[len(m):]
	} else {
		// A relative reference's first segment cannot hold a colon.
		first := s
		if i := strings.IndexAny(s, "/?#"); i >= 0 {
			first = s[:i]
		}
		if strings.Contains(first, ":") {
			return false
		}
	}
	hier := rest
	if i := strings.IndexAny(hier, "?#"); i >= 0 {
		if strings.ContainsAny(hier[i:], "[]") {
			return false
		}
		hier = hier[:i]
	}
	if auth, ok := strings.CutPrefix(hier, "//"); ok {
		if i := strings.IndexByte(auth, '/'); i >= 0 {
			if strings.ContainsAny(auth[i:], "[]") {
				return false
			}
			auth = auth[:i]
		}
		if i := strings.LastIndexByte(auth, '@'); i >= 0 {
			if strings.ContainsAny(auth[:i], "[]@") {
				return false
			}
			auth = auth[i+1:]
		}
		host, port := auth, ""
		if strings.HasPrefix(auth, "[") {
			end := strings.IndexByte(auth, ']')
			if end < 0 {
				return false
			}
			lit := auth[1:end]
			if !isIPv6(lit) && !(len(lit) > 1 && (lit[0] == 'v' || lit[0] == 'V')) {
				return false
			}
			host, port = "", auth[end+1:]
			if port != "" && port[0] != ':' {
				return false
			}
			port = strings.TrimPrefix(port, ":")
		} else if i := strings.LastIndexByte(auth, ':'); i >= 0 {
			host, port = auth[:i], auth[i+1:]
		}
		if strings.ContainsAny(host, "[]:") {
			return false
		}
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return false
			}
		}
	} else if strings.ContainsAny(hier, "[]") {
		return false
	}
	return true
}

// invalidIRIChar is what an IRI never holds unescaped: controls, space
// and the delimiters RFC 3987 excludes.
func invalidIRIChar(r rune) bool {
	return r <= 0x20 || strings.ContainsRune("<>^`{|}\\\"", r) || r == 0x7f
}

func isIRI(s string) bool {
	if strings.IndexFunc(s, invalidIRIChar) >= 0 || !validPercents(s) || !schemeRe.get().MatchString(s) {
		return false
	}
	_, err := url.Parse(s)
	return err == nil
}

func isIRIRef(s string) bool {
	if strings.IndexFunc(s, invalidIRIChar) >= 0 || !validPercents(s) {
		return false
	}
	_, err := url.Parse(s)
	return err == nil
}

// isURL is a URL a browser's parser takes: a scheme, and for the special
// schemes a host.
func isURL(s string) bool {
	s = strings.Trim(s, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	if !schemeRe.get().MatchString(s) {
		return false
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss", "ftp":
		return u.Host != "" && !strings.ContainsAny(u.Host, " <>^|%")
	}
	return true
}

func isECMARegex(s string) bool {
	_, err := regexp2.Compile(s, regexp2.ECMAScript|regexp2.Unicode)
	return err == nil
}

// jsonPointerBody checks "/a/b~0c" pointer syntax: "~" only as ~0 or ~1.
func jsonPointerBody(s string) bool {
	if s != "" && s[0] != '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 >= len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return false
		}
	}
	return true
}

func isJSONPointer(s string) bool { return jsonPointerBody(s) }

func isRelativeJSONPointer(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || (i > 1 && s[0] == '0') {
		return false
	}
	return s[i:] == "#" || jsonPointerBody(s[i:])
}

func isJSONPointerFragment(s string) bool {
	body, ok := strings.CutPrefix(s, "#")
	if !ok || !validPercents(body) {
		return false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !isASCIIAlnum(c) && strings.IndexByte("_-.!$&'()*+,;:=@/~%", c) < 0 {
			return false
		}
	}
	return jsonPointerBody(body)
}

// isURITemplate checks RFC 6570 syntax: literals without the excluded
// characters, and expressions {op? var(:prefix|*)?(,var...)*}.
func isURITemplate(s string) bool {
	if !validPercents(strings.ReplaceAll(s, "%%", "")) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '{' {
			end := strings.IndexByte(s[i:], '}')
			if end < 0 || !uriTemplateExpr(s[i+1:i+end]) {
				return false
			}
			i += end
			continue
		}
		if c <= 0x20 || c == 0x7f || strings.IndexByte("\"<>\\^`{|}", c) >= 0 {
			return false
		}
	}
	return validPercents(s)
}

func uriTemplateExpr(e string) bool {
	if e != "" && strings.IndexByte("+#./;?&=,!@|", e[0]) >= 0 {
		e = e[1:]
	}
	if e == "" {
		return false
	}
	for _, spec := range strings.Split(e, ",") {
		name, mod := spec, ""
		if i := strings.IndexAny(spec, ":*"); i >= 0 {
			name, mod = spec[:i], spec[i:]
		}
		if name == "" || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
			return false
		}
		for i := 0; i < len(name); i++ {
			c := name[i]
			if !isASCIIAlnum(c) && c != '_' && c != '.' && c != '%' {
				return false
			}
		}
		if !validPercents(name) {
			return false
		}
		switch {
		case mod == "" || mod == "*":
		case mod[0] == ':':
			n, err := strconv.Atoi(mod[1:])
			if err != nil || n < 1 || n > 9999 || mod[1] == '0' {
				return false
			}
		default:
			return false
		}
	}
	return true
}
