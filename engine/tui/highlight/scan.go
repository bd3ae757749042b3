package highlight

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

type scanner struct {
	src  string
	spec *langSpec
	out  []Span
	// prevWord is the last keyword-like word, for "func name" and
	// "class Name".
	prevWord string
	// params is the parenthesis depth inside a function definition's
	// parameter list (its names are variables); pendingParams marks a
	// definition whose list has not opened yet.
	params        int
	pendingParams bool
}

func (s *scanner) emit(text string, t Token) {
	if text == "" {
		return
	}
	if n := len(s.out); n > 0 && s.out[n-1].Token == t {
		s.out[n-1].Text += text
		return
	}
	s.out = append(s.out, Span{text, t})
}

func isIdentStart(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool  { return isIdentStart(r) || unicode.IsDigit(r) }

// identEnd returns the end of the identifier starting at i.
func identEnd(src string, i int, dollar bool) int {
	for i < len(src) {
		r, w := utf8.DecodeRuneInString(src[i:])
		if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || r == '$' && dollar) {
			break
		}
		i += w
	}
	return i
}

// stringEnd returns the end of a string that starts with quote q at i.
func stringEnd(src string, i int, q string, escapes, multiline bool) int {
	j := i + len(q)
	for j < len(src) {
		switch {
		case escapes && src[j] == '\\':
			j += 2
			continue
		case strings.HasPrefix(src[j:], q):
			return j + len(q)
		case src[j] == '\n' && !multiline:
			return j
		}
		j++
	}
	return len(src)
}

func numberEnd(src string, i int) int {
	j := i
	hex := strings.HasPrefix(src[i:], "0x") || strings.HasPrefix(src[i:], "0X")
	if hex {
		j += 2
	}
	for j < len(src) {
		c := src[j]
		switch {
		case c >= '0' && c <= '9', c == '_', c == '.' && j+1 < len(src) && src[j+1] >= '0' && src[j+1] <= '9':
		case hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
		case !hex && (c == 'e' || c == 'E') && j+1 < len(src) && (src[j+1] >= '0' && src[j+1] <= '9' || src[j+1] == '-' || src[j+1] == '+'):
			j++
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			// Suffixes: 10u, 1.5f, 3i, 100n, 1u8.
		default:
			return j
		}
		j++
	}
	return j
}

// atLineStart reports whether only spaces precede i on its line.
func atLineStart(src string, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch src[j] {
		case '\n':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return true
}

func lineEnd(src string, i int) int {
	if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(src)
}

// code scans C-like, Python, shell and SQL source.
func (s *scanner) code() {
	sp, src := s.spec, s.src
	i := 0
	for i < len(src) {
		c := src[i]
		// Comments.
		if sp.lineComment != "" {
			matched := false
			for _, lc := range strings.Fields(sp.lineComment) {
				if strings.HasPrefix(src[i:], lc) && (!sp.hashComment || i == 0 || src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n') {
					if sp.mode == modeJSON && !strings.HasPrefix(src[i:], "//") {
						continue
					}
					e := lineEnd(src, i)
					s.emit(src[i:e], Comment)
					i = e
					matched = true
					break
				}
			}
			if matched {
				continue
			}
		}
		if sp.blockOpen != "" && strings.HasPrefix(src[i:], sp.blockOpen) {
			e := strings.Index(src[i+len(sp.blockOpen):], sp.blockClose)
			if e < 0 {
				e = len(src)
			} else {
				e += i + len(sp.blockOpen) + len(sp.blockClose)
			}
			s.emit(src[i:e], Comment)
			i = e
			continue
		}
		if sp.preprocessor && c == '#' && atLineStart(src, i) {
			e := lineEnd(src, i)
			s.emit(src[i:e], Meta)
			i = e
			continue
		}
		// Strings.
		if sp.triple && (strings.HasPrefix(src[i:], `"""`) || strings.HasPrefix(src[i:], "'''")) {
			e := stringEnd(src, i, src[i:i+3], true, true)
			s.emit(src[i:e], String)
			i = e
			continue
		}
		if strings.IndexByte(sp.quotes, c) >= 0 {
			q := string(c)
			e := stringEnd(src, i, q, strings.IndexByte(sp.raw, c) < 0, strings.IndexByte(sp.multiline, c) >= 0)
			t := String
			if sp.mode == modeJSON {
				// A string before a colon is an object key.
				k := e
				for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
					k++
				}
				if k < len(src) && src[k] == ':' {
					t = Attr
				}
			}
			if c == '\'' && s.spec == &rustSpec {
				// 'a is a lifetime unless it closes like a char literal.
				if e-i > 4 || e >= len(src) || src[e-1] != '\'' {
					t = Text
					e = i + 1
				}
			}
			if sp.dollarVars && c == '"' {
				// Shells expand $name and ${name} inside double quotes.
				s.interpolated(src[i:e])
			} else {
				s.emit(src[i:e], t)
			}
			i = e
			continue
		}
		// Variables and decorators.
		if sp.dollarVars && c == '$' && i+1 < len(src) {
			e := i + 1
			switch {
			case src[e] == '{':
				if k := strings.IndexByte(src[e:], '}'); k >= 0 {
					e += k + 1
				}
			case src[e] == '(':
				e = i + 1
			default:
				e = identEnd(src, e, false)
				if e == i+1 && strings.IndexByte("@#?$!*-0123456789", src[e]) >= 0 {
					e++
				}
			}
			if e > i+1 {
				s.emit(src[i:e], Variable)
				i = e
				continue
			}
		}
		if sp.decorators && c == '@' && i+1 < len(src) && isIdentStart(rune(src[i+1])) {
			e := identEnd(src, i+1, false)
			for e < len(src) && src[e] == '.' {
				e = identEnd(src, e+1, false)
			}
			s.emit(src[i:e], Meta)
			i = e
			continue
		}
		// Numbers (not inside a name; JSON's include their sign).
		if sp.mode == modeJSON && c == '-' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9' {
			e := numberEnd(src, i+1)
			s.emit(src[i:e], Number)
			i = e
			continue
		}
		if !sp.dollarVars && (c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9') {
			prev, _ := utf8.DecodeLastRuneInString(src[:i])
			if i == 0 || !isIdentPart(prev) {
				e := numberEnd(src, i)
				s.emit(src[i:e], Number)
				i = e
				continue
			}
		}
		// Words.
		r, w := utf8.DecodeRuneInString(src[i:])
		if isIdentStart(r) && (r != '$' || !sp.dollarVars) {
			e := identEnd(src, i+w, sp.mode != modeJSON && !sp.dollarVars && sp != &pySpec && sp != &sqlSpec)
			word := src[i:e]
			// Python string prefixes: r"…", f'…', b"…".
			if sp.quotes != "" && e < len(src) && strings.IndexByte(sp.quotes, src[e]) >= 0 && len(word) <= 2 && strings.Trim(strings.ToLower(word), "rbfu") == "" && sp == &pySpec {
				q := string(src[e])
				if sp.triple && strings.HasPrefix(src[e:], strings.Repeat(q, 3)) {
					q = strings.Repeat(q, 3)
				}
				end := stringEnd(src, e, q, !strings.ContainsAny(word, "rR"), len(q) == 3)
				s.emit(src[i:end], String)
				i = end
				continue
			}
			t := s.classify(word, e)
			if i > 0 && src[i-1] == '.' && (i < 2 || src[i-2] != '.') {
				// A member (x.nil?, obj.type) is not a keyword.
				t = Text
			}
			if t == Text && s.params > 0 {
				t = Variable
			}
			s.emit(word, t)
			i = e
			continue
		}
		if c == '\n' || c == ' ' || c == '\t' {
			s.emit(src[i:i+1], Text)
			i++
			continue
		}
		switch {
		case c == '(' && s.pendingParams:
			s.pendingParams = false
			s.params = 1
		case c == '(' && s.params > 0:
			s.params++
		case c == ')' && s.params > 0:
			s.params--
		default:
			s.pendingParams = false
		}
		s.emit(src[i:i+w], Text)
		s.prevWord = ""
		i += w
	}
}

// interpolated emits a double-quoted shell string with its variables.
func (s *scanner) interpolated(str string) {
	start := 0
	for i := 0; i < len(str); i++ {
		if str[i] == '\\' {
			i++
			continue
		}
		if str[i] != '$' || i+1 >= len(str) {
			continue
		}
		e := i + 1
		if str[e] == '{' {
			k := strings.IndexByte(str[e:], '}')
			if k < 0 {
				continue
			}
			e += k + 1
		} else {
			e = identEnd(str, e, false)
		}
		if e == i+1 {
			continue
		}
		s.emit(str[start:i], String)
		s.emit(str[i:e], Variable)
		start = e
		i = e - 1
	}
	s.emit(str[start:], String)
}

// classify a word that ends at e.
func (s *scanner) classify(word string, e int) Token {
	sp := s.spec
	look := word
	if sp.ignoreCase {
		look = strings.ToLower(word)
	}
	prev := s.prevWord
	s.prevWord = look
	switch {
	case has(sp.literals, look):
		return Number
	case has(sp.keywords, look):
		return Keyword
	case has(sp.funcDefs, prev):
		// A definition's name; its parameters follow.
		s.pendingParams = true
		return Function
	case has(sp.typeDefs, prev):
		// Class and type names are titles to highlight.js, shown in the
		// function colour.
		return Function
	case has(sp.types, look):
		return Type
	}
	// C, C++ and Java declare functions as "type name(": the name is a
	// title there.
	if (sp == &cSpec || sp == &cppSpec || sp == &javaSpec) && e < len(s.src) && s.src[e] == '(' && (has(sp.types, prev) || prev == "void") {
		s.pendingParams = true
		return Function
	}
	if sp.upperTypes {
		if r, _ := utf8.DecodeRuneInString(word); unicode.IsUpper(r) {
			return Type
		}
	}
	return Text
}

// diff colours unified diffs line by line.
func (s *scanner) diff() {
	src := s.src
	for i := 0; i < len(src); {
		e := lineEnd(src, i)
		l := src[i:e]
		t := Text
		switch {
		case strings.HasPrefix(l, "@@"):
			t = Meta
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "diff --git"),
			strings.HasPrefix(l, "index "), strings.HasPrefix(l, "Index: "), strings.HasPrefix(l, "==="), strings.HasPrefix(l, "*** "):
			t = Comment
		case strings.HasPrefix(l, "+"), strings.HasPrefix(l, "!"):
			t = Added
		case strings.HasPrefix(l, "-"):
			t = Removed
		}
		s.emit(l, t)
		if e < len(src) {
			s.emit("\n", Text)
		}
		i = e + 1
	}
}

// markup colours HTML and XML: tags, names, attributes and their values,
// comments, doctypes.
func (s *scanner) markup() {
	src := s.src
	i := 0
	for i < len(src) {
		switch {
		case strings.HasPrefix(src[i:], "<!--"):
			e := strings.Index(src[i:], "-->")
			if e < 0 {
				e = len(src)
			} else {
				e += i + 3
			}
			s.emit(src[i:e], Comment)
			i = e
		case strings.HasPrefix(src[i:], "<!") || strings.HasPrefix(src[i:], "<?"):
			e := strings.IndexByte(src[i:], '>')
			if e < 0 {
				e = len(src)
			} else {
				e += i + 1
			}
			s.emit(src[i:e], Meta)
			i = e
		case src[i] == '<' && i+1 < len(src) && (src[i+1] == '/' || isIdentStart(rune(src[i+1]))):
			j := i + 1
			if src[j] == '/' {
				j++
			}
			s.emit(src[i:j], Tag)
			e := j
			for e < len(src) && (isIdentPart(rune(src[e])) || src[e] == '-' || src[e] == ':' || src[e] == '.') {
				e++
			}
			s.emit(src[j:e], Keyword)
			i = e
			// Attributes until the tag closes.
			for i < len(src) && src[i] != '>' {
				c := src[i]
				switch {
				case c == '"' || c == '\'':
					e := stringEnd(src, i, string(c), false, true)
					s.emit(src[i:e], String)
					i = e
				case c == '/' && i+1 < len(src) && src[i+1] == '>':
					s.emit("/", Tag)
					i++
				case isIdentStart(rune(c)):
					e := i
					for e < len(src) && (isIdentPart(rune(src[e])) || src[e] == '-' || src[e] == ':' || src[e] == '.') {
						e++
					}
					s.emit(src[i:e], Attr)
					i = e
				default:
					s.emit(src[i:i+1], Text)
					i++
				}
			}
			if i < len(src) {
				s.emit(">", Tag)
				i++
			}
		default:
			e := strings.IndexByte(src[i+1:], '<')
			if e < 0 {
				e = len(src)
			} else {
				e += i + 1
			}
			s.emit(src[i:e], Text)
			i = e
		}
	}
}

// markdown colours emphasis, strong text and links.
func (s *scanner) markdown() {
	src := s.src
	i := 0
	for i < len(src) {
		switch {
		case strings.HasPrefix(src[i:], "**") || strings.HasPrefix(src[i:], "__"):
			d := src[i : i+2]
			if e := strings.Index(src[i+2:], d); e > 0 && !strings.Contains(src[i+2:i+2+e], "\n") {
				s.emit(src[i:i+4+e], BoldText)
				i += 4 + e
				continue
			}
		case src[i] == '*' || src[i] == '_':
			d := src[i : i+1]
			if e := strings.Index(src[i+1:], d); e > 0 && !strings.Contains(src[i+1:i+1+e], "\n") && src[i+1] != ' ' {
				s.emit(src[i:i+2+e], ItalicText)
				i += 2 + e
				continue
			}
		case src[i] == '[':
			if e := strings.Index(src[i:], "]("); e > 0 && !strings.Contains(src[i:i+e], "\n") {
				if f := strings.IndexByte(src[i+e:], ')'); f > 0 {
					s.emit(src[i:i+e+1], String)
					s.emit(src[i+e+1:i+e+f+1], LinkText)
					i += e + f + 1
					continue
				}
			}
		}
		_, w := utf8.DecodeRuneInString(src[i:])
		s.emit(src[i:i+w], Text)
		i += w
	}
}

// yaml colours keys, comments, strings, literals, numbers and document
// markers line by line.
func (s *scanner) yaml() {
	src := s.src
	for i := 0; i < len(src); {
		e := lineEnd(src, i)
		l := src[i:e]
		j := 0
		for j < len(l) && l[j] == ' ' {
			j++
		}
		s.emit(l[:j], Text)
		if l == "---" || l == "..." {
			s.emit(l, Meta)
			j = len(l)
		}
		if strings.HasPrefix(l[j:], "- ") {
			s.emit("- ", Punctuation)
			j += 2
		}
		// key: (up to a colon followed by a space or the line's end)
		if k := strings.Index(l[j:], ":"); k > 0 && l[j] != '#' && l[j] != '"' && l[j] != '\'' && !strings.ContainsAny(l[j:j+k], " #{[") &&
			(j+k+1 == len(l) || l[j+k+1] == ' ') {
			s.emit(l[j:j+k], Attr)
			s.emit(":", Punctuation)
			j += k + 1
		}
		rest := l[j:]
		for len(rest) > 0 {
			switch {
			case rest[0] == '#' && (j == 0 || l[j-1] == ' '):
				s.emit(rest, Comment)
				rest = ""
			case rest[0] == '"' || rest[0] == '\'':
				end := stringEnd(rest, 0, rest[:1], rest[0] == '"', false)
				s.emit(rest[:end], String)
				j += end
				rest = rest[end:]
			default:
				k := strings.Index(rest, " #")
				v := rest
				if k >= 0 {
					v = rest[:k+1]
				}
				tv := strings.TrimSpace(v)
				switch {
				case tv == "":
					s.emit(v, Text)
				case has(s.spec.literals, strings.ToLower(tv)):
					s.emit(v, Number)
				case numberEnd(tv, 0) == len(tv) && (tv[0] >= '0' && tv[0] <= '9' || tv[0] == '-' && len(tv) > 1):
					s.emit(v, Number)
				default:
					s.emit(v, Text)
				}
				j += len(v)
				rest = rest[len(v):]
			}
		}
		if e < len(src) {
			s.emit("\n", Text)
		}
		i = e + 1
	}
}

// css colours comments, at-rules, properties, strings, numbers with units
// and hex colours.
func (s *scanner) css() {
	src := s.src
	depth := 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case strings.HasPrefix(src[i:], "/*"):
			e := strings.Index(src[i+2:], "*/")
			if e < 0 {
				e = len(src)
			} else {
				e += i + 4
			}
			s.emit(src[i:e], Comment)
			i = e
		case c == '"' || c == '\'':
			e := stringEnd(src, i, string(c), true, false)
			s.emit(src[i:e], String)
			i = e
		case c == '@' || c == '!':
			e := i + 1
			for e < len(src) && (isIdentPart(rune(src[e])) || src[e] == '-') {
				e++
			}
			s.emit(src[i:e], Keyword)
			i = e
		case c == '{' || c == '}' || c == ';' || c == ':' || c == ',' || c == '(' || c == ')':
			if c == '{' {
				depth++
			} else if c == '}' && depth > 0 {
				depth--
			}
			s.emit(src[i:i+1], Punctuation)
			i++
		case depth > 0 && c == '#':
			e := i + 1
			for e < len(src) && (src[e] >= '0' && src[e] <= '9' || src[e] >= 'a' && src[e] <= 'f' || src[e] >= 'A' && src[e] <= 'F') {
				e++
			}
			s.emit(src[i:e], Number)
			i = e
		case depth > 0 && (c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9' || c == '-' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9'):
			e := numberEnd(src, i+1)
			for e < len(src) && (src[e] >= 'a' && src[e] <= 'z' || src[e] == '%') {
				e++
			}
			s.emit(src[i:e], Number)
			i = e
		case isIdentStart(rune(c)) || c == '-':
			e := i + 1
			for e < len(src) && (isIdentPart(rune(src[e])) || src[e] == '-') {
				e++
			}
			k := e
			for k < len(src) && src[k] == ' ' {
				k++
			}
			t := Text
			switch {
			case depth > 0 && k < len(src) && src[k] == ':':
				t = Attr
			case k < len(src) && src[k] == '(':
				t = Function
			}
			s.emit(src[i:e], t)
			i = e
		default:
			_, w := utf8.DecodeRuneInString(src[i:])
			s.emit(src[i:i+w], Text)
			i += w
		}
	}
}
