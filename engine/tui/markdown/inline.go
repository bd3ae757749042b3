package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

type ikind uint8

const (
	iText ikind = iota
	iCode
	iStrong
	iEm
	iDel
	iLink
	iDelim
	iHTML
)

// inode is one inline element. Delimiter runs (iDelim) exist only while
// emphasis is resolved; unmatched ones become text.
type inode struct {
	kind     ikind
	text     string // text, code, html; link: the plain text (for the text == url check)
	href     string
	children []*inode
	// delimiter runs
	ch                byte
	n, orig           int
	canOpen, canClose bool
}

func isPunct(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }

func isSpaceRune(r rune) bool { return r == 0 || unicode.IsSpace(r) }

// parseInline parses inline Markdown into nodes.
func parseInline(s string) []*inode {
	var nodes []*inode
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			nodes = append(nodes, &inode{kind: iText, text: text.String()})
			text.Reset()
		}
	}
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			text.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			if code, n, ok := codeSpan(s[i:]); ok {
				flush()
				nodes = append(nodes, &inode{kind: iCode, text: code})
				i += n
				continue
			}
			// An unmatched run of backticks is literal.
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			text.WriteString(s[i : i+n])
			i += n
			continue
		case c == '*' || c == '_' || c == '~':
			n := 0
			for i+n < len(s) && s[i+n] == c {
				n++
			}
			before, _ := utf8.DecodeLastRuneInString(s[:i])
			if i == 0 {
				before = 0
			}
			after, _ := utf8.DecodeRuneInString(s[i+n:])
			if i+n >= len(s) {
				after = 0
			}
			left := !isSpaceRune(after) && (!isPunct(after) || isSpaceRune(before) || isPunct(before))
			right := !isSpaceRune(before) && (!isPunct(before) || isSpaceRune(after) || isPunct(after))
			d := &inode{kind: iDelim, ch: c, n: n, orig: n}
			switch c {
			case '_':
				d.canOpen = left && (!right || isPunct(before))
				d.canClose = right && (!left || isPunct(after))
			default:
				d.canOpen, d.canClose = left, right
			}
			if c == '~' && n != 2 {
				// Only ~~double~~ strikes through.
				text.WriteString(s[i : i+n])
				i += n
				continue
			}
			flush()
			nodes = append(nodes, d)
			i += n
			continue
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			if label, _, n, ok := linkAt(s[i+1:]); ok {
				// Images show their alt text.
				flush()
				nodes = append(nodes, parseInline(label)...)
				i += 1 + n
				continue
			}
		case c == '[':
			if label, href, n, ok := linkAt(s[i:]); ok {
				flush()
				nodes = append(nodes, &inode{kind: iLink, href: href, text: label, children: parseInline(label)})
				i += n
				continue
			}
		case c == '<':
			if href, label, n, ok := autolinkAt(s[i:]); ok {
				flush()
				nodes = append(nodes, &inode{kind: iLink, href: href, text: label, children: []*inode{{kind: iText, text: label}}})
				i += n
				continue
			}
			if n := htmlTagAt(s[i:]); n > 0 {
				flush()
				nodes = append(nodes, &inode{kind: iHTML, text: s[i : i+n]})
				i += n
				continue
			}
		case c == 'h' || c == 'w':
			if n := bareURLAt(s, i); n > 0 {
				flush()
				u := s[i : i+n]
				href := u
				if strings.HasPrefix(u, "www.") {
					href = "http://" + u
				}
				nodes = append(nodes, &inode{kind: iLink, href: href, text: u, children: []*inode{{kind: iText, text: u}}})
				i += n
				continue
			}
		}
		text.WriteByte(c)
		i++
	}
	flush()
	return resolveEmphasis(nodes)
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// codeSpan parses a code span at the start of s.
func codeSpan(s string) (code string, n int, ok bool) {
	open := 0
	for open < len(s) && s[open] == '`' {
		open++
	}
	i := open
	for i < len(s) {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return "", 0, false
		}
		j += i
		k := j
		for k < len(s) && s[k] == '`' {
			k++
		}
		if k-j == open {
			code = strings.ReplaceAll(s[open:j], "\n", " ")
			if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
				code = code[1 : len(code)-1]
			}
			return code, k, true
		}
		i = k
	}
	return "", 0, false
}

// linkAt parses [label](destination "title") at the start of s.
func linkAt(s string) (label, href string, n int, ok bool) {
	if len(s) == 0 || s[0] != '[' {
		return
	}
	depth := 0
	end := -1
	for i := 0; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '\\':
			i++
		case '`':
			if _, m, ok := codeSpan(s[i:]); ok {
				i += m - 1
			}
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				end = i
			}
		}
	}
	if end < 0 || end+1 >= len(s) || s[end+1] != '(' {
		return
	}
	label = s[1:end]
	i := end + 2
	for i < len(s) && (s[i] == ' ' || s[i] == '\n') {
		i++
	}
	start := i
	if i < len(s) && s[i] == '<' {
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			return
		}
		href = s[i+1 : i+j]
		i += j + 1
	} else {
		parens := 0
		for i < len(s) {
			c := s[i]
			if c == '\\' && i+1 < len(s) {
				i += 2
				continue
			}
			if c == '(' {
				parens++
			} else if c == ')' {
				if parens == 0 {
					break
				}
				parens--
			} else if c == ' ' || c == '\n' {
				break
			}
			i++
		}
		href = unescapeBackslash(s[start:i])
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\n') {
		i++
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'' || s[i] == '(') {
		closer := s[i]
		if closer == '(' {
			closer = ')'
		}
		j := strings.IndexByte(s[i+1:], closer)
		if j < 0 {
			return
		}
		i += j + 2
		for i < len(s) && (s[i] == ' ' || s[i] == '\n') {
			i++
		}
	}
	if i >= len(s) || s[i] != ')' {
		return
	}
	return label, href, i + 1, true
}

func unescapeBackslash(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// autolinkAt parses <scheme:…> and <user@host> at the start of s.
func autolinkAt(s string) (href, label string, n int, ok bool) {
	j := strings.IndexByte(s, '>')
	if j < 2 {
		return
	}
	inner := s[1:j]
	if strings.ContainsAny(inner, " <\n") {
		return
	}
	if c := strings.IndexByte(inner, ':'); c >= 2 && c <= 32 && isScheme(inner[:c]) {
		return inner, inner, j + 1, true
	}
	if at := strings.IndexByte(inner, '@'); at > 0 && strings.Contains(inner[at:], ".") {
		return "mailto:" + inner, inner, j + 1, true
	}
	return
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-')) {
			return false
		}
	}
	return true
}

// bareURLAt matches a GFM bare URL (http://, https://, www.) at s[i]; it
// must start a word.
func bareURLAt(s string, i int) int {
	if i > 0 {
		p, _ := utf8.DecodeLastRuneInString(s[:i])
		if !(isSpaceRune(p) || p == '(' || p == '*' || p == '_' || p == '~') {
			return 0
		}
	}
	r := s[i:]
	if !strings.HasPrefix(r, "https://") && !strings.HasPrefix(r, "http://") && !strings.HasPrefix(r, "www.") {
		return 0
	}
	n := 0
	for n < len(r) {
		c, w := utf8.DecodeRuneInString(r[n:])
		if isSpaceRune(c) || c == '<' {
			break
		}
		n += w
	}
	// Trailing punctuation is not part of the URL; a closing paren only when
	// it is unbalanced.
	for n > 0 {
		c := r[n-1]
		if strings.IndexByte("?!.,:*_~'\"", c) >= 0 {
			n--
			continue
		}
		if c == ')' && strings.Count(r[:n], "(") < strings.Count(r[:n], ")") {
			n--
			continue
		}
		break
	}
	if strings.HasPrefix(r, "www.") && n <= 4 || !strings.HasPrefix(r, "www.") && !strings.Contains(r[:n], "://") {
		return 0
	}
	if strings.HasSuffix(r[:n], "://") {
		return 0
	}
	return n
}

// htmlTagAt matches an inline HTML tag or comment at the start of s.
func htmlTagAt(s string) int {
	if strings.HasPrefix(s, "<!--") {
		if j := strings.Index(s[4:], "-->"); j >= 0 {
			return 4 + j + 3
		}
		return 0
	}
	i := 1
	if i < len(s) && s[i] == '/' {
		i++
	}
	j := i
	for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || j > i && (s[j] >= '0' && s[j] <= '9' || s[j] == '-')) {
		j++
	}
	if j == i {
		return 0
	}
	k := strings.IndexByte(s[j:], '>')
	if k < 0 || strings.ContainsAny(s[j:j+k], "<") {
		return 0
	}
	if k > 0 && s[j] != ' ' && s[j] != '/' && s[j] != '\n' {
		return 0
	}
	return j + k + 1
}

// resolveEmphasis pairs delimiter runs into strong, emphasis and
// strikethrough nodes (CommonMark's delimiter rules, with ~~ for
// strikethrough), leaving unmatched runs as text. Open delimiters are kept
// on a stack of frames that collect the nodes after them, so a paragraph
// costs time linear in its length times the nesting depth.
func resolveEmphasis(nodes []*inode) []*inode {
	type frame struct {
		d        *inode
		children []*inode
	}
	literal := func(d *inode) *inode { return &inode{kind: iText, text: strings.Repeat(string(d.ch), d.n)} }
	stack := []*frame{{}}
	pop := func() {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		below := stack[len(stack)-1]
		if f.d.n > 0 {
			below.children = append(below.children, literal(f.d))
		}
		below.children = append(below.children, f.children...)
	}
	for _, c := range nodes {
		top := stack[len(stack)-1]
		if c.kind != iDelim {
			top.children = append(top.children, c)
			continue
		}
		for c.canClose && c.n > 0 {
			k := -1
			for j := len(stack) - 1; j >= 1; j-- {
				o := stack[j].d
				if o.ch != c.ch || o.n == 0 {
					continue
				}
				if c.ch != '~' && (o.canClose || c.canOpen) && (o.orig+c.orig)%3 == 0 && !(o.orig%3 == 0 && c.orig%3 == 0) {
					continue
				}
				k = j
				break
			}
			if k < 0 {
				break
			}
			for len(stack)-1 > k {
				pop()
			}
			f := stack[k]
			o := f.d
			use := 1
			if o.n >= 2 && c.n >= 2 {
				use = 2
			}
			kd := iEm
			switch {
			case c.ch == '~':
				kd, use = iDel, 2
			case use == 2:
				kd = iStrong
			}
			w := &inode{kind: kd, children: f.children}
			o.n -= use
			c.n -= use
			if o.n == 0 {
				stack = stack[:k]
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, w)
			} else {
				f.children = []*inode{w}
			}
		}
		if c.n > 0 {
			if c.canOpen {
				stack = append(stack, &frame{d: c})
			} else {
				t := stack[len(stack)-1]
				t.children = append(t.children, literal(c))
			}
		}
	}
	for len(stack) > 1 {
		pop()
	}
	return stack[0].children
}
